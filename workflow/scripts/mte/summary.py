"""XTREME's summary: one score per task, their mean, and the cross-lingual transfer gap."""

from __future__ import annotations

from typing import Any

import pandas as pd

from mte.families import family_of
from mte.tables import AVERAGE
from mte.tasks import get_task

# XTREME's nine tasks in its Table 2 order
XTREME_TASKS = ("xnli", "pawsx", "udpos", "panx", "xquad", "mlqa", "tydiqa", "bucc", "tatoeba")
# where the summary's published rows come from: XTREME's own task scores
SUMMARY_SOURCE = ("xtreme", "Table 2")


def language_score(score: dict[str, Any]) -> float:
    """A score file's number for the summary, in percent: the task's primary metric, and for
    QA the mean of F1 and exact match (as XTREME's score combines them)."""
    task = get_task(score["task"])
    cell = family_of(task).cell_metrics(task)
    return 100.0 * sum(score["metrics"][metric] for metric in cell) / len(cell)


def transfer_gap(per_language: dict[str, float], english: str = "en") -> float | None:
    """English score minus the mean over the other languages (XTREME, Table 3); None where the
    task has no English score or no other language."""
    others = [value for language, value in per_language.items() if language != english]
    if english not in per_language or not others:
        return None
    return per_language[english] - sum(others) / len(others)


def xtreme_summary(scores: list[dict[str, Any]], tasks: list[str]) -> pd.DataFrame:
    """Rows model x setting: per task the mean over its languages (mean over seeds), the
    unweighted mean over the tasks, and ``gap_{task}``, the transfer gap. A setting that not
    every task runs (tasks may have their own settings) has no average, so no row."""
    frame = pd.DataFrame(
        [
            {
                "model": s["model"],
                "setting": s["setting"],
                "seed": s["seed"],
                "task": s["task"],
                "language": s["language"],
                "value": language_score(s),
            }
            for s in scores
        ]
    )
    records = []
    for (model, setting), group in frame.groupby(["model", "setting"], sort=False):
        if set(tasks) - set(group["task"]):
            continue
        record: dict[str, Any] = {"model": model, "setting": setting}
        seeds = group["seed"].nunique()
        for task in tasks:
            rows = group[group["task"] == task]
            per_seed = rows.groupby("seed")["value"].mean()
            record[task] = per_seed.mean()
            per_language = rows.groupby("language")["value"].mean().to_dict()
            record[f"gap_{task}"] = transfer_gap(per_language)
        record[AVERAGE] = sum(record[task] for task in tasks) / len(tasks)
        record["seeds"] = seeds
        records.append(record)
    if not records:
        raise ValueError(f"no model and setting has scores for every task of {', '.join(tasks)}")
    columns = ["model", "setting", "seeds", *tasks, AVERAGE, *[f"gap_{t}" for t in tasks]]
    return pd.DataFrame(records).reindex(columns=columns)


def summary_with_references(
    table: pd.DataFrame, references: list[dict[str, Any]], tasks: list[str]
) -> pd.DataFrame:
    """``table`` with a published row (XTREME's Table 2 task scores; QA as (F1 + EM) / 2, so
    only where both were read) and a delta row after each model whose name has them. The
    published average is the mean of the published tasks when every task of the table has one.
    """
    from mte.references import find_references, label
    from mte.tables import interleave_published

    def task_score(model: str, setting: str, task: str) -> tuple[float | None, str | None]:
        metrics = family_of(get_task(task)).cell_metrics(get_task(task))
        found = []
        for metric in metrics:
            entries = [
                entry
                for entry in find_references(references, model, task, setting, metric)
                if (entry["paper"], entry["table"]) == SUMMARY_SOURCE
                and entry.get("average") is not None
            ]
            if not entries:
                return None, None
            found.append(entries[0])
        return sum(e["average"] for e in found) / len(found), label(found[0])

    def published_of(row: pd.Series) -> list[tuple[str, dict[str, Any], set[str]]]:
        published, source = {}, None
        for task in tasks:
            value, where = task_score(row["model"], row["setting"], task)
            if value is not None:
                published[task], source = value, where
        if not published:
            return []
        if len(published) == len(tasks):
            published[AVERAGE] = sum(published.values()) / len(tasks)
        return [(source, published, set())]

    return interleave_published(table, published_of)


def summary_title(tasks: list[str]) -> str:
    """The summary's title: a run without all nine tasks says which it averages and which are
    missing, so that its average is never read as XTREME's."""
    missing = [task for task in XTREME_TASKS if task not in tasks]
    if not missing:
        return "XTREME summary (QA: (F1 + EM) / 2; %)"
    return (
        f"Partial XTREME summary: the average is over {len(tasks)} of XTREME's "
        f"{len(XTREME_TASKS)} tasks ({', '.join(tasks)}); missing: {', '.join(missing)} "
        "(QA: (F1 + EM) / 2; %)"
    )


def summary_markdown(table: pd.DataFrame, tasks: list[str]) -> str:
    """The summary in Markdown: task scores and average, then the transfer gaps."""
    from mte.tables import _cell, _label

    titles = [get_task(t).title for t in tasks]
    lines = [f"# {summary_title(tasks)}", ""]
    lines += ["| model | setting | " + " | ".join(titles) + f" | {AVERAGE} |"]
    lines.append("|---|---|" + "---:|" * (len(tasks) + 1))
    for _, row in table.iterrows():
        cells = [_cell(row, column, None) for column in (*tasks, AVERAGE)]
        lines.append(f"| {row['model']} | {_label(row)} | " + " | ".join(cells) + " |")
    gap_tasks = [
        t for t in tasks if table.get(f"gap_{t}") is not None and table[f"gap_{t}"].notna().any()
    ]
    if gap_tasks:
        lines += [
            "",
            "## Cross-lingual transfer gap (English minus the mean of the other languages)",
            "",
        ]
        lines += ["| model | setting | " + " | ".join(get_task(t).title for t in gap_tasks) + " |"]
        lines.append("|---|---|" + "---:|" * len(gap_tasks))
        for _, row in (
            table[table["row"] == "ours"].iterrows() if "row" in table else table.iterrows()
        ):
            cells = [
                f"{row[f'gap_{t}']:.1f}" if pd.notna(row[f"gap_{t}"]) else "" for t in gap_tasks
            ]
            lines.append(f"| {row['model']} | {row['setting']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
