"""Scoring sentence(-pair) predictions: every predicted label one of the task's (a finite score
for regression), then the task's metrics and the per-example statistics behind their intervals."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from mte.errors import IntegrityError
from mte.families.pairs.metrics import sentence_metrics
from mte.stats.align import some
from mte.stats.metrics import Confusion, SufficientStatistics
from mte.tasks.spec import Task


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
    result = {
        "n": len(pairs),
        "metrics": sentence_metrics(task, statistics, gold, predicted),
        "example_stats": statistics.rows(gold, predicted),
    }
    if isinstance(statistics, Confusion):
        # what the analyses read: which labels are taken for which
        result["breakdown"] = {"confusion": confusion_matrix(task.labels, gold, predicted)}
    return result


def confusion_matrix(labels, gold, predicted) -> dict[str, Any]:
    """Counts of (gold, predicted) labels: ``matrix[i][j]`` examples of gold ``labels[i]``
    predicted as ``labels[j]``."""
    index = {label: i for i, label in enumerate(labels)}
    matrix = [[0] * len(labels) for _ in labels]
    for g, p in zip(gold, predicted, strict=True):
        matrix[index[g]][index[p]] += 1
    return {"labels": list(labels), "matrix": matrix}
