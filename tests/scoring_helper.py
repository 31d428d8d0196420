"""Scoring records in tests as the workflow does: the task's family's one skeleton (align,
validate, measure), with the paths its messages name."""

from __future__ import annotations

from typing import Any

from mte.families.base import ScoringFiles
from mte.registry import family_of
from mte.tasks.spec import Task


def score(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str = "p",
    gold_path: str = "g",
    language: str = "en",
    **more: Any,
) -> dict[str, Any]:
    """``family_of(task).score`` with its paths: predictions, gold, language, and ``more``
    (BUCC: dev_gold, dev_gold_path, eval_split)."""
    files = ScoringFiles(predictions_path, gold_path, language, **more)
    return family_of(task).score(task, predictions, gold, files)
