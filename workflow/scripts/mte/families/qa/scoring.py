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


def squad_labels(gold: list[dict[str, Any]]) -> str:
    """SQuAD v1.1's JSON of the gold questions, one article a context in the test file's
    order (evaluate.py reads ``data``: articles, paragraphs, questions and their answers)."""
    from mte.families._leaderboard_files import json_text

    articles: list[dict[str, Any]] = []
    for example in gold:
        qa = {
            "id": example["id"],
            "question": example["question"],
            "answers": [
                {"text": text, "answer_start": start}
                for text, start in zip(
                    example["answers"]["text"], example["answers"]["answer_start"], strict=True
                )
            ],
        }
        if articles and articles[-1]["paragraphs"][0]["context"] == example["context"]:
            articles[-1]["paragraphs"][0]["qas"].append(qa)
        else:
            paragraph = {"context": example["context"], "qas": [qa]}
            articles.append({"title": example.get("title", ""), "paragraphs": [paragraph]})
    return json_text({"version": "1.1", "data": articles})


def _label_answers(data: Any, path: Path) -> dict[str, list[str]]:
    """Each question id of a SQuAD label file with its gold answer texts."""
    from mte.errors import InputError

    answers: dict[str, list[str]] = {}
    try:
        for article in data:
            for paragraph in article["paragraphs"]:
                for qa in paragraph["qas"]:
                    answers[qa["id"]] = [answer["text"] for answer in qa["answers"]]
    except (KeyError, TypeError) as err:
        raise InputError(path, None, f"not SQuAD's layout (data, paragraphs, qas: {err})") from None
    return answers


def score_answer_files(task: Task, labels_path: Path, predictions_path: Path, language: str):
    """A submission's answers against SQuAD's label JSON: evaluate.py's ``squad_em_f1``
    (XQuAD, TyDiQA-GoldP) or ``mlqa_em_f1`` (MLQA's normalisation for ``language``)."""
    from mte.errors import InputError
    from mte.families._leaderboard_files import SubmissionScore, read_json_object, same_keys

    gold = _label_answers(read_json_object(labels_path), labels_path)
    predicted = read_json_object(predictions_path)
    if not isinstance(predicted, dict) or not all(isinstance(a, str) for a in predicted.values()):
        raise InputError(predictions_path, None, "expected one JSON object: id -> answer string")
    same_keys(gold, predicted, labels_path, predictions_path)
    unanswered = [key for key, texts in gold.items() if not texts]
    if unanswered:
        raise IntegrityError(f"{labels_path}: question(s) {some(unanswered)} have no answer")
    per_question = qa_example_scores(
        [predicted[key] for key in gold], list(gold.values()), qa_normalizer(task, language)
    )
    statistics = Means("exact_match", "f1")
    rows = statistics.rows([(em, f1) for f1, em in per_question], np.ones(len(per_question)))
    values = statistics.values(rows) if len(rows) else {"exact_match": 0.0, "f1": 0.0}
    return SubmissionScore(
        {name: 100 * values[name] for name in ("exact_match", "f1")},
        len(gold),
        statistics,
        rows,
        {"exact_match": "exact_match", "f1": "f1"},
    )
