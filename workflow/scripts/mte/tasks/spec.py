"""What a spec module is written in: :class:`Task` (one benchmark task), :class:`Suite` (a
paper's summary table over several tasks) and :class:`FamilyOptions` (what one task family needs
of its tasks, typed per family). Plain records: the registry (mte.registry) finds them in the
spec modules and checks them against their families."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mte.errors import ConfigError
from mte.hub.release import Release
from mte.hub.repos import HubRepo
from mte.tasks.prompts import Prompt

# translate-train: the English training set machine-translated into a language;
# translate-test: a language's test set translated into English; pseudo-test: the English test
# set translated into a language (XTREME's pseudo test sets). Each is stored under the
# language it belongs to.
TRANSLATED_SPLITS = ("translate-train", "translate-test", "pseudo-test")
SPLITS = ("train", "dev", "test", *TRANSLATED_SPLITS)


@dataclass(frozen=True)
class FamilyOptions:
    """What a family needs of a task beyond the common fields. Each family that needs more
    subclasses it (its ``options_type``); a family that needs nothing takes this one."""


# a spec's row adapter: one released record or hub row (a dict) into the family's example;
# it raises KeyError, TypeError or ValueError for a record it cannot read, which the family
# reports with the file and line (or hub row)
RowAdapter = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Task:
    """What the workflow needs to know about one benchmark task."""

    name: str
    title: str
    family: str
    # the languages a config runs when it names none (the paper's set: XTREME's 40 for PAN-X)
    languages: tuple[str, ...]
    labels: tuple[str, ...]
    primary_metric: str
    hub_id: str
    # what the task's family needs of it (mte.families.<family>: its Options class)
    options: FamilyOptions = field(default_factory=FamilyOptions)
    # the spec's own reading of one released record or hub row, where the family reads records
    # (multiple choice: JSON lines and hub rows); None: the family's default layout
    row_adapter: RowAdapter | None = None
    # hub split names for our canonical split names
    hub_splits: dict[str, str] = field(default_factory=dict)
    demo_languages: tuple[str, ...] = ()
    train_language: str = "en"
    reference: str = ""
    # the metrics reported (the primary one first)
    metrics: tuple[str, ...] = ("accuracy",)
    # the dev metric that selects the fine-tuned model, where it is not the primary one (UD-POS:
    # seqeval F1, as XTREME's run_tag.py selects)
    selection_metric: str = ""
    # the metrics whose mean is the task's cell in a suite summary, where they are not the
    # family's (UD-POS: seqeval F1, as XTREME's evaluate.py scores it)
    summary_metrics: tuple[str, ...] = ()
    # hub: dataset id and config per language, where they differ from hub_id / the language
    hub_configs: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    # the hub repositories hub_id and hub_configs name, each pinned to a commit
    hub_repos: tuple[HubRepo, ...] = ()
    # the authors' released files by URL (source: release), downloaded and then read as the
    # task's files are
    release: Release | None = None
    # why the task has no release source, where it has none for a reason worth saying
    # (PAN-X's release is a cloud drive link, not a URL)
    no_release: str = ""
    # a step no URL can do before the released files exist (Mewsli-X's dump processing): a
    # config naming a folder that does not exist yet gets this line instead of an error
    manual_step: str = ""
    # the task's protocol version: raised when what a task means changes (its splits, its
    # scoring), so that results made under the earlier protocol are not reused
    version: int = 1
    # transfer settings the task has data for
    settings: tuple[str, ...] = ("zero-shot",)
    # a language's code in released file names, where it is not the language code itself
    file_codes: dict[str, str] = field(default_factory=dict)
    # a training set only (SQuAD v1.1): fine-tuned on, never evaluated; the tasks whose
    # ``models_of`` names it evaluate its fine-tunes
    train_only: bool = False
    # evaluate the fine-tuned models of another task instead of fine-tuning again (one SQuAD
    # fine-tune serves XQuAD, MLQA and MLQA G-XLT, as in XTREME's scripts/train.sh)
    models_of: str = ""
    # the split scored when the config names none (GLUE's test labels are not public: dev)
    default_eval_split: str = "test"
    # the suite whose summary score the task enters (GLUE's average)
    group: str = ""
    # every language's test set holds the same items, translated (bootstrap resamples items)
    parallel_test_sets: bool = False
    # where each split lies in the task's released layouts, tried in order: split -> file
    # templates ({lang} the language, {code} its file code, {context}/{question} the two
    # languages of a pair "context-question"; a template with * takes every file it matches)
    files: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # where the labelled test sets are, when XTREME's processed test files hide the labels
    labelled_release: str = ""
    # how the task's table is laid out: "languages" (a column per language) or
    # "pair_matrix" (G-XLT: context languages as rows, question languages as columns)
    table_layout: str = "languages"
    # languages the release has beyond the default set (XTREME-R's additions, Tatoeba's other
    # 71): a config names them, or takes every one with ``languages: all``
    more_languages: tuple[str, ...] = ()
    # the prompt of the in-context setting (mte.tasks.prompts; None: the task has none)
    prompt: Prompt | None = None
    # its folder in an XTREME or XTREME-R leaderboard submission, where evaluate.py names it
    # otherwise than the task ("bucc2018"); "" for the task's name
    submission_folder: str = ""

    def hub_repo(self, repo_id: str) -> HubRepo:
        """The pinned record of a repository the task reads from the hub."""
        for repo in self.hub_repos:
            if repo.id == repo_id:
                return repo
        raise KeyError(f"{self.name}: no hub_repos entry for {repo_id}")

    @property
    def all_languages(self) -> tuple[str, ...]:
        """Every language of the release: the default set, then the others."""
        return (*self.languages, *self.more_languages)

    @property
    def dev_metric(self) -> str:
        """The metric that selects the fine-tuned model on dev."""
        return self.selection_metric or self.primary_metric

    def check_language(self, language: str, key: str) -> None:
        """Raise a :class:`ConfigError` naming ``key`` if the task lacks ``language``."""
        if language not in self.all_languages:
            raise ConfigError(
                key,
                f"'{language}' is not a language of {self.title} "
                f"(it has: {', '.join(self.all_languages)})",
            )


# how a suite forms a task's cells:
# "metrics": one column per metric of the task, a task scoring the mean of its metrics (GLUE)
# "task_score": one column per task, its family's cell metrics averaged over its languages,
#   then the mean over seeds, with the cross-lingual transfer gap (XTREME)
SUITE_LAYOUTS = ("metrics", "task_score")


@dataclass(frozen=True)
class Suite:
    """A paper's summary table over several tasks (GLUE in ``specs/glue.py``, XTREME's summary
    in ``specs/xtreme.py``), written as data; the ``summarize`` rule writes it."""

    # the stem of its tables: results/runs/{run}/tables/{name}.{csv,md,tex}
    name: str
    title: str
    # how the title names the paper's set ("XTREME's 9 tasks")
    short: str
    # its tasks, in the paper's order
    tasks: tuple[str, ...]
    layout: str
    # (paper, table) of the published rows printed beside ours (mte.tables.references)
    published: tuple[str, str]
    # tasks that enter the average as one entry with another task (MNLI-mm with MNLI-m)
    merged: dict[str, str] = field(default_factory=dict)
    # the tasks of the headline average, where the paper's average does not cover them all
    # (GLUE: the XLM-R paper's six, without CoLA and RTE); empty: every task
    averaged: tuple[str, ...] = ()
    # after the title, in brackets: the split, how cells are formed, the unit
    note: str = ""
    # what the headline average covers, as the table's note says it
    average_note: str = ""
    # the languages the paper scores a task on, where they are not the task's default set
    # (XTREME-R adds languages to PAN-X, UD-POS, Tatoeba and XQuAD); a config takes them with
    # ``languages: <suite name>``
    languages: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # categories whose mean the table also gives, in the paper's order (XTREME-R's
    # classification, tagging, QA, retrieval, multiple choice); a task may be in two
    groups: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def task_languages(self, task: Task) -> tuple[str, ...]:
        """The languages the paper scores ``task`` on."""
        return self.languages.get(task.name, task.languages)

    # where not empty, the table is written only for a config that runs one of these tasks or
    # takes the suite's languages for a task (``languages: xtreme_r``), not for every config
    # with one of its tasks: XTREME-R's tasks are mostly XTREME's, whose configs would
    # otherwise get a partial XTREME-R table
    opt_in_tasks: tuple[str, ...] = ()
    # the leaderboard whose submission folder the suite's tasks form (evaluate.py's
    # --xtreme_version: "xtreme", "xtreme-r"; mte.submission), "" for none
    submission: str = ""
    # the groups evaluate.py averages where they are not the table's ``groups`` (XTREME's
    # table has none; its leaderboard has four)
    submission_groups: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def configured(self, configured_tasks) -> list[str]:
        """The suite's tasks that a config runs, in the suite's order (none where the suite
        is opt-in and the config does not opt in)."""
        opted = any(task in configured_tasks for task in self.opt_in_tasks) or any(
            isinstance(entry, dict) and entry.get("languages") == self.name
            for entry in configured_tasks.values()
        )
        if self.opt_in_tasks and not opted:
            return []
        return [task for task in self.tasks if task in configured_tasks]
