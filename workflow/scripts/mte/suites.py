"""Suites: a paper's summary table over several tasks, written as data.

A suite is an entry in a spec module's ``SUITES`` (GLUE in ``specs/glue.py``, XTREME's summary
in ``specs/xtreme.py``): its tasks in the paper's order, how a task's cell is formed, which
tasks are one entry of the average (MNLI matched/mismatched), which tasks the published average
covers, and where the published row comes from. One rule (``summarize``) and one function
(:func:`summarize`) turn any suite's score files into its CSV, Markdown and LaTeX tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

# how a suite forms a task's cells:
# "metrics": one column per metric of the task, a task scoring the mean of its metrics (GLUE)
# "task_score": one column per task, its family's cell metrics averaged over its languages,
#   then the mean over seeds, with the cross-lingual transfer gap (XTREME)
LAYOUTS = ("metrics", "task_score")


@dataclass(frozen=True)
class Suite:
    # the stem of its tables: results/runs/{run}/tables/{name}.{csv,md,tex}
    name: str
    title: str
    # how the title names the paper's set ("XTREME's 9 tasks")
    short: str
    # its tasks, in the paper's order
    tasks: tuple[str, ...]
    layout: str
    # (paper, table) of the published rows printed beside ours (mte.references)
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

    def configured(self, configured_tasks) -> list[str]:
        """The suite's tasks that a config runs, in the suite's order."""
        return [task for task in self.tasks if task in configured_tasks]


def discover_suites(package: str = "mte.specs") -> dict[str, Suite]:
    """Every suite of every spec module (an optional ``SUITES`` tuple), by name; checked: a
    known layout, tasks that exist, and a name that is no task's (their tables share a folder)."""
    from mte.tasks import TASKS, spec_modules

    found: dict[str, Suite] = {}
    for spec in spec_modules(package):
        for suite in getattr(spec, "SUITES", ()):
            where = f"suite '{suite.name}' ({spec.__name__})"
            if suite.name in found or suite.name in TASKS:
                raise TypeError(f"{where}: the name is taken by another suite or a task")
            if suite.layout not in LAYOUTS:
                raise TypeError(f"{where}: layout {suite.layout!r} is not one of {LAYOUTS}")
            unknown = [t for t in (*suite.tasks, *suite.merged, *suite.averaged) if t not in TASKS]
            if unknown:
                raise TypeError(f"{where}: unknown task(s) {', '.join(unknown)}")
            found[suite.name] = suite
    return found


@cache
def all_suites() -> dict[str, Suite]:
    """Every suite, by name (discovered on first use: spec modules import this module)."""
    return discover_suites()


def get_suite(name: str) -> Suite:
    return all_suites()[name]


def summarize(
    suite: Suite, tasks: list[str], scores: list[dict[str, Any]], references: list[dict]
) -> dict[str, str]:
    """The suite's table over ``tasks`` (those of it that ran) as CSV, Markdown and LaTeX."""
    from mte import summary

    build = {"metrics": summary.metrics_suite, "task_score": summary.task_score_suite}
    return build[suite.layout](suite, tasks, scores, references)
