"""Scoring tagged sentences: one known tag per word of every sentence, then entity (NER) or
token (POS) metrics and the per-sentence statistics behind their intervals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import IntegrityError
from mte.families.tagging.metrics import (
    accuracy_by_tag,
    entity_prf_by_type,
    tagging_metrics,
    tagging_statistics,
)
from mte.stats.align import some
from mte.tasks.spec import Task


def check_tags(
    task: Task, pairs: list, predictions_path: str | Path, gold_path: str | Path
) -> None:
    for example, prediction in pairs:
        if len(prediction["tags"]) != len(example["tokens"]):
            raise IntegrityError(
                f"{predictions_path}: sentence {example['id']!r} has {len(example['tokens'])} "
                f"words in {gold_path} but {len(prediction['tags'])} predicted tags"
            )
    unknown = sorted({t for _, p in pairs for t in p["tags"] if t not in task.labels})
    if unknown:
        raise IntegrityError(
            f"{predictions_path}: predicted tag(s) {some(unknown)} are not tags of {task.title}"
        )


def measure_tags(task: Task, pairs: list) -> dict[str, Any]:
    gold_tags = [example["tags"] for example, _ in pairs]
    predicted = [prediction["tags"] for _, prediction in pairs]
    # what the analyses read: NER per entity type, POS per tag and its commonest confusions
    breakdown = (
        {"entity_types": entity_prf_by_type(gold_tags, predicted)}
        if task.options.scheme == "entities"
        else accuracy_by_tag(gold_tags, predicted)
    )
    return {
        "n": len(pairs),
        "words": sum(len(tags) for tags in gold_tags),
        "metrics": tagging_metrics(task, gold_tags, predicted),
        "breakdown": breakdown,
        "example_stats": tagging_statistics(task).rows(gold_tags, predicted),
    }


def card_tags(task: Task, pairs: list) -> tuple[list[str], list[str], str] | None:
    """The seed card's NER outputs: a BIO tag per token, every sentence's tokens in one list
    (so an ``O`` counts as a prediction, and precision, recall, F1 and exact match all equal
    token accuracy); None for POS, a task the card does not name."""
    if task.options.scheme != "entities":
        return None
    predicted = [tag for _, prediction in pairs for tag in prediction["tags"]]
    return predicted, [tag for gold, _ in pairs for tag in gold["tags"]], "NER"


def score_tag_files(task: Task, labels_path: Path, predictions_path: Path):
    """A submission's tag file against its label file (evaluate.py's ``f1``: seqeval's
    precision, recall and F1 over the sentences, for PAN-X and UD-POS alike)."""
    from mte.families._leaderboard_files import SubmissionScore, read_tagged, same_count
    from mte.families.tagging.metrics import EntityCounts, SeqevalPosCounts

    gold, predicted = read_tagged(labels_path), read_tagged(predictions_path)
    same_count(gold, predicted, labels_path, predictions_path, "sentences")
    for number, (gold_tags, guess_tags) in enumerate(zip(gold, predicted, strict=True), 1):
        if len(gold_tags) != len(guess_tags):
            raise IntegrityError(
                f"{predictions_path}: sentence {number} has {len(guess_tags)} tags, but "
                f"{len(gold_tags)} in {labels_path}"
            )
    if task.options.scheme == "entities":
        statistics, names = EntityCounts(), ("precision", "recall", "f1")
        sources = {name: name for name in names}
    else:
        statistics = SeqevalPosCounts()
        sources = {name: f"seqeval_{name}" for name in ("precision", "recall", "f1")}
    rows = statistics.rows(gold, predicted)
    values = statistics.values(rows) if len(rows) else dict.fromkeys(statistics.metrics, 0.0)
    metrics = {name: 100 * values[source] for name, source in sources.items()}
    # evaluate.py's order: f1, precision, recall
    metrics = {name: metrics[name] for name in ("f1", "precision", "recall")}
    return SubmissionScore(metrics, len(gold), statistics, rows, sources)
