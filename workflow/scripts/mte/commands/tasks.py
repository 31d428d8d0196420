"""``mte-tasks``: the tasks a config may name, their languages, metrics and sources, and the
suites (XTREME, XTREME-R, GLUE) with the languages each scores a task on. What a config's
``tasks.<task>.languages`` may hold is read here, not guessed."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from mte.errors import ConfigError
from mte.registry import TASKS, all_suites, get_suite, get_task


def sources_of(name: str) -> list[str]:
    """The ``source`` values a task takes: hub (a repository to read), release (the authors'
    files by URL), files (a folder of your own: always), demo (bundled data)."""
    task = get_task(name)
    found = [
        "hub" if task.hub_id else "",
        "release" if task.release is not None else "",
        "files",
        "demo" if task.demo_languages else "",
    ]
    return [source for source in found if source]


def task_record(name: str, suite: str | None = None) -> dict[str, Any]:
    """One task as the listing shows it; with ``suite``, the suite's languages for it."""
    task = get_task(name)
    languages = list(get_suite(suite).task_languages(task) if suite else task.languages)
    suites = [s.name for s in all_suites().values() if name in s.tasks]
    return {
        "task": name,
        "title": task.title,
        "family": task.family,
        "metric": task.primary_metric,
        "metrics": list(task.metrics),
        "languages": languages,
        # every language of the release (languages: all), where it has more
        "all_languages": list(task.all_languages),
        "settings": list(task.settings),
        "sources": sources_of(name),
        "suites": suites,
        "training_set_only": task.train_only,
        "evaluates_the_fine_tunes_of": task.models_of,
    }


def _line(record: dict[str, Any], wide: bool) -> str:
    languages = record["languages"]
    listed = " ".join(languages) if wide or len(languages) <= 12 else (
        " ".join(languages[:12]) + f" ... ({len(languages) - 12} more)"
    )  # fmt: skip
    more = len(record["all_languages"]) - len(languages)
    extra = f"; {more} more with languages: all" if more > 0 else ""
    role = ""
    if record["training_set_only"]:
        role = " [a training set: configure a task that evaluates it]"
    elif record["evaluates_the_fine_tunes_of"]:
        role = f" [evaluates {record['evaluates_the_fine_tunes_of']}'s fine-tunes]"
    return (
        f"{record['task']:<16} {record['title']}{role}\n"
        f"{'':16} {record['family']}; {record['metric']}; sources: "
        f"{', '.join(record['sources'])}; suites: {', '.join(record['suites']) or '-'}\n"
        f"{'':16} {len(languages)} language{'s' if len(languages) > 1 else ''}: {listed}{extra}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="mte-tasks",
        description="The tasks a config may name (tasks.<task>), with their default languages "
        "(the papers' sets), metric, sources and suites.",
    )
    parser.add_argument(
        "names", nargs="*", help="tasks to show (default: every task; e.g. xnli panx)"
    )
    parser.add_argument(
        "--suite",
        choices=sorted(all_suites()),
        help="the suite's tasks, with the languages the suite scores each on "
        "(languages: <suite> in a config)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON document instead of text")
    parser.add_argument("--wide", action="store_true", help="list every language")
    args = parser.parse_args(argv)
    try:
        names = list(args.names) or (
            list(get_suite(args.suite).tasks) if args.suite else list(TASKS)
        )
        records = [task_record(name, args.suite) for name in names]
    except ConfigError as error:
        print(f"mte-tasks: {str(error).split(': ', 1)[-1]}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(records, indent=1, ensure_ascii=False))
        return 0
    if args.suite:
        suite = get_suite(args.suite)
        print(f"{suite.title}: {len(suite.tasks)} tasks ({suite.note})\n")
    print("\n".join(_line(record, args.wide) for record in records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
