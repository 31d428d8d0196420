"""Scoring sentence(-pair) predictions: every predicted label one of the task's (a finite score
for regression), then the task's metrics and the per-example statistics behind their intervals."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from mte.align import some
from mte.errors import IntegrityError
from mte.families.pairs.metrics import sentence_metrics
from mte.metrics import SufficientStatistics
from mte.taskspec import Task


def check_labels(task: Task, pairs: list, predictions_path: str | Path) -> None:
    unknown = sorted({p["label"] for _, p in pairs if p["label"] not in task.labels})
    if unknown:
        raise IntegrityError(
            f"{predictions_path}: predicted label(s) {some(unknown)} are not labels of "
            f"{task.title} ({', '.join(task.labels)})"
        )


def check_scores(pairs: list, predictions_path: str | Path) -> None:
    bad = [
        p["id"]
        for _, p in pairs
        if not isinstance(p.get("score"), (int, float)) or not math.isfinite(p["score"])
    ]
    if bad:
        raise IntegrityError(f"{predictions_path}: no finite score for id(s) {some(bad)}")


def measure_pairs(
    task: Task, pairs: list, predicted_field: str, statistics: SufficientStatistics
) -> dict[str, Any]:
    """The task's metrics (accuracy; MCC; F1 and accuracy; Pearson and Spearman) of the
    prediction records' ``predicted_field`` against the gold labels."""
    gold = [g["label"] for g, _ in pairs]
    predicted = [p[predicted_field] for _, p in pairs]
    return {
        "n": len(pairs),
        "metrics": sentence_metrics(task, statistics, gold, predicted),
        "example_stats": statistics.rows(gold, predicted),
    }
