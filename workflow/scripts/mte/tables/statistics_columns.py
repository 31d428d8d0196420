"""The statistics columns of a task's table: bootstrap intervals of every cell and of the
average (``{column}_low`` / ``_high``), and paired randomization tests against a baseline row
(``{column}_p``), from the score files' per-example statistics."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mte.stats.metrics import SufficientStatistics
from mte.tables.task_table import AVERAGE

# where a cell's p-value against the baseline row is below alpha, its number is marked
SIGNIFICANT = "*"


@dataclass(frozen=True)
class Marks:
    """What printed cells show beyond the number: bootstrap intervals (at ``confidence``) and
    significance marks (p < ``alpha`` against the ``baseline`` row)."""

    intervals: bool = False
    confidence: float = 0.95
    alpha: float | None = None
    baseline: tuple[str, str] | None = None


Cell = tuple[str, str, str]


def _seed_means(
    scores: list[dict[str, Any]], values: Callable[[dict[str, Any]], Any]
) -> dict[Cell, np.ndarray]:
    """Per (model, setting, language): ``values`` of its score files averaged over seeds.
    A cell where a seed has none, or where the seeds' arrays differ in shape, is left out."""
    grouped: dict[Cell, list[Any]] = {}
    for s in scores:
        grouped.setdefault((s["model"], s["setting"], s["language"]), []).append(values(s))
    means = {}
    for cell, found in grouped.items():
        if all(v is not None and len(v) for v in found):
            arrays = [np.asarray(v, float) for v in found]
            if len({a.shape for a in arrays}) == 1:
                means[cell] = np.mean(arrays, axis=0)
    return means


def _with_row_columns(
    table: pd.DataFrame, columns: Callable[[pd.Series], dict[str, Any]]
) -> pd.DataFrame:
    """``table`` plus the columns that ``columns`` gives each row."""
    records = [columns(row) for _, row in table.iterrows()]
    return pd.concat([table, pd.DataFrame(records, index=table.index)], axis=1)


def with_intervals(
    table: pd.DataFrame, scores: list[dict[str, Any]], languages: list[str]
) -> pd.DataFrame:
    """``table`` plus ``{column}_low`` / ``{column}_high``: the bootstrap interval of each cell
    and of the average, in percent.

    A cell's replicates are its score files' replicates averaged over seeds (all seeds resample
    the same examples), the average's the mean of its languages' replicates: so the interval is
    that of the number printed. A cell without replicates (no per-example statistics) has none.
    """
    from mte.stats.statistics import percentile_interval

    replicates = _seed_means(scores, lambda s: (s.get("interval") or {}).get("replicates"))
    confidences = [s["interval"]["confidence"] for s in scores if s.get("interval")]

    def intervals(row: pd.Series) -> dict[str, Any]:
        found = {
            lang: replicates[(row["model"], row["setting"], lang)]
            for lang in languages
            if (row["model"], row["setting"], lang) in replicates
        }
        if len(found) == len(languages):
            found[AVERAGE] = np.mean([found[lang] for lang in languages], axis=0)
        record = {}
        for column, values in found.items():
            low, high = percentile_interval(values, confidences[0])
            record[f"{column}_low"], record[f"{column}_high"] = 100 * low, 100 * high
        return record

    return _with_row_columns(table, intervals)


def with_significance(
    table: pd.DataFrame,
    scores: list[dict[str, Any]],
    test: Callable[[list[tuple[np.ndarray, np.ndarray]]], float],
    languages: list[str],
    baseline: tuple[str, str],
) -> pd.DataFrame:
    """``table`` plus ``{column}_p``: for every row but the baseline's, the p-value of a paired
    test against the baseline row (``test``: per test set the two systems' per-example
    statistics -> p-value), per language and on the average.

    Each side is its per-example statistics averaged over its seeds. Cells whose systems were
    not scored on the same examples (different counts) get no p-value.
    """
    stats = _seed_means(scores, lambda s: s.get("example_stats"))

    def p_values(row: pd.Series) -> dict[str, Any]:
        if (row["model"], row["setting"]) == tuple(baseline):
            return {}
        pairs = {}
        for lang in languages:
            a = stats.get((row["model"], row["setting"], lang))
            b = stats.get((baseline[0], baseline[1], lang))
            if a is not None and b is not None and a.shape == b.shape:
                pairs[lang] = (a, b)
        record = {f"{lang}_p": test([pair]) for lang, pair in pairs.items()}
        if len(pairs) == len(languages):
            record[f"{AVERAGE}_p"] = test(list(pairs.values()))
        return record

    return _with_row_columns(table, p_values)


def with_statistics(
    table: pd.DataFrame,
    scores: list[dict[str, Any]],
    kind: SufficientStatistics | None,
    metric: str,
    languages: list[str],
    options: dict[str, Any],
) -> tuple[pd.DataFrame, Marks]:
    """Intervals for every row and, with more than one row, p-values of ``metric`` (a paired
    approximate randomization test on the rows of ``kind``) against the baseline row (the
    config's ``statistics.baseline``, else the first row); and the marks to print. A metric
    without per-example statistics gets no p-values."""
    from mte.stats.statistics import has_statistics, paired_randomization

    table = with_intervals(table, scores, languages)
    rows = list(zip(table["model"], table["setting"], strict=True))
    chosen = options.get("baseline")
    baseline = (chosen["model"], chosen["setting"]) if chosen else rows[0]
    compared = len(rows) > 1 and baseline in rows
    if compared and has_statistics(kind, metric):

        def test(pairs: list[tuple[np.ndarray, np.ndarray]]) -> float:
            tested = paired_randomization(kind, metric, pairs, options["trials"], options["seed"])
            return tested["p_value"]

        table = with_significance(table, scores, test, languages, baseline)
    marks = Marks(
        intervals=options["intervals_in_tables"],
        confidence=options["confidence"],
        alpha=options["alpha"] if compared else None,
        baseline=baseline if compared else None,
    )
    return table, marks


def legend(table: pd.DataFrame, marks: Marks) -> list[str]:
    """What the brackets and marks of a table mean, printed under it."""
    notes = []
    if marks.intervals and any(c.endswith("_low") for c in table.columns):
        notes.append(
            f"[low, high]: bootstrap {100 * marks.confidence:g}% interval over test examples"
        )
    if marks.alpha is not None and marks.baseline and any(c.endswith("_p") for c in table.columns):
        model, setting = marks.baseline
        notes.append(
            f"{SIGNIFICANT}: differs from {model}, {setting} "
            f"(paired approximate randomization test, p < {marks.alpha:g})"
        )
    return notes
