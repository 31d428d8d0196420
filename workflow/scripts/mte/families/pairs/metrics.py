"""The metrics of a sentence(-pair) task, by name (mte.stats.metrics defines each)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mte.stats.metrics import (
    SufficientStatistics,
    accuracy,
    binary_f1,
    matthews_corrcoef,
    pearson,
    same_length,
    spearman,
)
from mte.tasks.spec import Task

SENTENCE_METRICS: dict[str, Callable[[Sequence[Any], Sequence[Any]], float]] = {
    "accuracy": accuracy,
    "mcc": matthews_corrcoef,
    "f1": binary_f1,
    "pearson": pearson,
    "spearman": spearman,
}


def sentence_metrics(
    task: Task, statistics: SufficientStatistics, gold: Sequence[Any], predicted: Sequence[Any]
) -> dict[str, float]:
    """Every metric of a sentence(-pair) classification or regression task, by name: those of
    its ``statistics`` from the summed rows, the others (Spearman) from their own definition."""
    same_length(gold, predicted)
    rows = statistics.rows(gold, predicted)
    return {
        name: statistics.value(name, rows)
        if name in statistics.metrics
        else SENTENCE_METRICS[name](gold, predicted)
        for name in task.metrics
    }
