"""Scoring predictions against gold examples, only when they match one to one."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from mte.errors import IntegrityError
from mte.metrics import accuracy, tagging_metrics
from mte.tasks import Task

SHOWN = 5


def _some(items: list[str]) -> str:
    shown = ", ".join(repr(i) for i in items[:SHOWN])
    return shown + (f" and {len(items) - SHOWN} more" if len(items) > SHOWN else "")


def align(
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Pair each gold example with its prediction; any mismatch of ids is an error.

    Missing, extra and duplicated ids are all reported, with the files they concern.
    """
    problems = []
    for name, records, path in (
        ("prediction", predictions, predictions_path),
        ("gold", gold, gold_path),
    ):
        duplicated = sorted(i for i, n in Counter(r["id"] for r in records).items() if n > 1)
        if duplicated:
            problems.append(f"duplicated {name} ids in {path}: {_some(duplicated)}")
    by_id = {r["id"]: r for r in predictions}
    gold_ids = {r["id"] for r in gold}
    missing = [r["id"] for r in gold if r["id"] not in by_id]
    extra = [r["id"] for r in predictions if r["id"] not in gold_ids]
    if missing:
        problems.append(
            f"{len(missing)} gold ids have no prediction in {predictions_path}: {_some(missing)}"
        )
    if extra:
        problems.append(
            f"{len(extra)} predicted ids are not in the gold file {gold_path}: {_some(extra)}"
        )
    if problems:
        raise IntegrityError("; ".join(problems))
    return [(example, by_id[example["id"]]) for example in gold]


def score_classification(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
) -> dict[str, Any]:
    """Accuracy of a classification task; every predicted label must be one of the task's."""
    pairs = align(predictions, gold, predictions_path, gold_path)
    unknown = sorted({p["label"] for _, p in pairs if p["label"] not in task.labels})
    if unknown:
        raise IntegrityError(
            f"{predictions_path}: predicted label(s) {_some(unknown)} are not labels of "
            f"{task.title} ({', '.join(task.labels)})"
        )
    return {
        "n": len(pairs),
        "metrics": {
            "accuracy": accuracy([g["label"] for g, _ in pairs], [p["label"] for _, p in pairs])
        },
    }


def score_tagging(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
) -> dict[str, Any]:
    """Entity (NER) or token (POS) metrics; every sentence needs one known tag per word."""
    pairs = align(predictions, gold, predictions_path, gold_path)
    for example, prediction in pairs:
        if len(prediction["tags"]) != len(example["tokens"]):
            raise IntegrityError(
                f"{predictions_path}: sentence {example['id']!r} has {len(example['tokens'])} "
                f"words in {gold_path} but {len(prediction['tags'])} predicted tags"
            )
    unknown = sorted({t for _, p in pairs for t in p["tags"] if t not in task.labels})
    if unknown:
        raise IntegrityError(
            f"{predictions_path}: predicted tag(s) {_some(unknown)} are not tags of {task.title}"
        )
    gold_tags = [example["tags"] for example, _ in pairs]
    predicted = [prediction["tags"] for _, prediction in pairs]
    return {
        "n": len(pairs),
        "words": sum(len(tags) for tags in gold_tags),
        "metrics": tagging_metrics(task, gold_tags, predicted),
    }


def score_qa(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
    language: str,
) -> dict[str, Any]:
    """F1 and exact match with the task's official answer normalisation for ``language``."""
    from mte.qa_metrics import qa_normalizer, qa_scores

    pairs = align(predictions, gold, predictions_path, gold_path)
    not_text = [p["id"] for _, p in pairs if not isinstance(p.get("answer"), str)]
    if not_text:
        raise IntegrityError(f"{predictions_path}: no answer string for id(s) {_some(not_text)}")
    metrics = qa_scores(
        [p["answer"] for _, p in pairs],
        [g["answers"]["text"] for g, _ in pairs],
        qa_normalizer(task, language),
    )
    return {"n": len(pairs), "metrics": metrics}


def score_files(
    task: Task, predictions_path: str | Path, gold_path: str | Path, language: str
) -> dict[str, Any]:
    """Read a predictions file and its gold file, and score them with the task's family."""
    from mte.io import read_jsonl

    predictions, gold = read_jsonl(predictions_path), read_jsonl(gold_path)
    if task.family == "qa":
        return score_qa(task, predictions, gold, predictions_path, gold_path, language)
    scorer = score_tagging if task.family == "tagging" else score_classification
    return scorer(task, predictions, gold, predictions_path, gold_path)
