"""The leaderboards evaluate.py scores, as the suites of specs/xtreme.py describe them: the
tasks of each (in the suite's order), their folders, languages and file suffixes, and the
groups it averages."""

from __future__ import annotations

from dataclasses import dataclass

from mte.registry import all_suites, family_of, get_task


@dataclass(frozen=True)
class Leaderboard:
    """One ``--xtreme_version`` of evaluate.py."""

    name: str
    # the suite that describes it
    suite: str
    # the project's tasks whose files evaluate.py reads, in the suite's order
    tasks: tuple[str, ...]
    folders: dict[str, str]
    languages: dict[str, tuple[str, ...]]
    suffixes: dict[str, str]
    # (group, tasks) whose average evaluate.py gives where all its tasks are there
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    # tasks of the suite that evaluate.py reads no file of (LAReQA: no languages in its list)
    unread: tuple[str, ...]

    def file_name(self, task: str, language: str) -> str:
        return f"test-{language}.{self.suffixes[task]}"

    def task_of_folder(self, folder: str) -> str | None:
        return next((task for task, name in self.folders.items() if name == folder), None)


def leaderboards() -> dict[str, Leaderboard]:
    """Every leaderboard of the registry's suites, by evaluate.py's version name."""
    boards = {}
    for suite in all_suites().values():
        if not suite.submission:
            continue
        read = [t for t in suite.tasks if family_of(get_task(t)).submission_suffix]
        boards[suite.submission] = Leaderboard(
            name=suite.submission,
            suite=suite.name,
            tasks=tuple(read),
            folders={t: get_task(t).submission_folder or t for t in read},
            languages={t: tuple(suite.task_languages(get_task(t))) for t in read},
            suffixes={t: family_of(get_task(t)).submission_suffix for t in read},
            groups=suite.submission_groups or suite.groups,
            unread=tuple(t for t in suite.tasks if t not in read),
        )
    return boards


def leaderboard(name: str) -> Leaderboard:
    boards = leaderboards()
    if name not in boards:
        raise ValueError(f"no leaderboard {name!r}; there are: {', '.join(boards)}")
    return boards[name]
