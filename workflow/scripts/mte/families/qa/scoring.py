"""Scoring answer strings: one per question, every question with a gold answer, then F1 and
exact match with the task's official normalisation for the language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mte.errors import IntegrityError
from mte.families.qa.metrics import qa_example_scores, qa_normalizer
from mte.stats.align import some
from mte.stats.metrics import Means
from mte.tasks.spec import Task


def check_answers(pairs: list, predictions_path: str | Path, gold_path: str | Path) -> None:
    not_text = [p["id"] for _, p in pairs if not isinstance(p.get("answer"), str)]
    if not_text:
        raise IntegrityError(f"{predictions_path}: no answer string for id(s) {some(not_text)}")
    unanswered = [g["id"] for g, _ in pairs if not g["answers"]["text"]]
    if unanswered:
        # SQuAD v1.1 and MLQA score a prediction against at least one gold answer
        raise IntegrityError(
            f"{gold_path}: question(s) {some(unanswered)} have no gold answer; SQuAD v1.1 "
            "scoring needs at least one"
        )


def measure_answers(task: Task, pairs: list, language: str) -> dict[str, Any]:
    """F1 and exact match with the task's official answer normalisation for ``language``."""
    per_question = qa_example_scores(
        [p["answer"] for _, p in pairs],
        [g["answers"]["text"] for g, _ in pairs],
        qa_normalizer(task, language),
    )
    statistics = Means("f1", "exact_match")
    rows = statistics.rows(per_question, np.ones(len(per_question)))
    return {"n": len(pairs), "metrics": statistics.values(rows), "example_stats": rows}


def card_answers(pairs: list) -> tuple[list[str], list[str], str]:
    """The seed card's MLQA outputs: each predicted answer string ("" where no span was found)
    and the gold answer string, the first reference where a question has several (the card's
    golds hold one string per question)."""
    predicted = [prediction["answer"] for _, prediction in pairs]
    return predicted, [gold["answers"]["text"][0] for gold, _ in pairs], "MLQA"
