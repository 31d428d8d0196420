"""XTREME's summary: one score per task, their mean, and the cross-lingual transfer gap."""

from __future__ import annotations

from typing import Any

import pandas as pd

from mte.tables import AVERAGE
from mte.tasks import get_task

# XTREME's nine tasks in its Table 2 order
XTREME_TASKS = ("xnli", "pawsx", "udpos", "panx", "xquad", "mlqa", "tydiqa", "bucc", "tatoeba")


def language_score(score: dict[str, Any]) -> float:
    """A score file's number for the summary, in percent: the task's primary metric, and for
    QA the mean of F1 and exact match (as XTREME's score combines them)."""
    task = get_task(score["task"])
    metrics = score["metrics"]
    if task.family == "qa":
        return 100.0 * (metrics["f1"] + metrics["exact_match"]) / 2
    return 100.0 * metrics[task.primary_metric]


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
    """``table`` with published rows (XTREME's Table 2 task scores, QA as (F1 + EM) / 2) and
    delta rows after each model whose name has them."""
    from mte.references import cell_score, find_reference
    from mte.tables import interleave_published

    def published_of(row: pd.Series) -> dict[str, Any] | None:
        entry = find_reference(references, row["model"], "xtreme_summary", row["setting"], "score")
        if entry is None:
            return None
        published = {t: cell_score(entry["values"][t]) for t in tasks if t in entry["values"]}
        if len(published) == len(tasks):
            published[AVERAGE] = sum(published.values()) / len(tasks)
        return published

    return interleave_published(table, published_of)


def summary_markdown(table: pd.DataFrame, tasks: list[str]) -> str:
    """The summary in Markdown: task scores and average, then the transfer gaps."""
    from mte.tables import _cell, _label

    titles = [get_task(t).title for t in tasks]
    lines = ["# XTREME summary (QA: (F1 + EM) / 2; %)", ""]
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
