"""Metrics, written from the benchmarks' definitions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def accuracy(gold: Sequence[Any], predicted: Sequence[Any]) -> float:
    """Fraction of positions where ``predicted`` equals ``gold`` (sequences of equal length)."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold labels but {len(predicted)} predictions")
    if not gold:
        raise ValueError("accuracy of an empty set is undefined")
    return sum(g == p for g, p in zip(gold, predicted, strict=True)) / len(gold)


def _split_tag(tag: str) -> tuple[str, str]:
    """``B-PER`` -> (``B``, ``PER``); ``O`` -> (``O``, ``""``)."""
    if tag == "O":
        return "O", ""
    prefix, _, kind = tag.partition("-")
    return prefix, kind


def _chunk_ends(prev: str, prev_kind: str, tag: str, kind: str) -> bool:
    # conlleval's endOfChunk
    return (
        prev in ("E", "S")
        or (prev in ("B", "I") and tag in ("B", "S", "O"))
        or (prev != "O" and prev_kind != kind)
    )


def _chunk_starts(prev: str, prev_kind: str, tag: str, kind: str) -> bool:
    # conlleval's startOfChunk: an I- after O or after another type opens a chunk too
    return (
        tag in ("B", "S")
        or (prev in ("E", "S", "O") and tag in ("E", "I"))
        or (tag != "O" and prev_kind != kind)
    )


def entities(tags: Sequence[str]) -> set[tuple[str, int, int]]:
    """The chunks ``(type, first, last)`` of one sentence's IOB/IOBES tags, as conlleval (and
    seqeval's default mode, which XTREME uses) delimit them."""
    chunks = set()
    prev, prev_kind, begin = "O", "", 0
    for position, tag in enumerate([*tags, "O"]):
        current, kind = _split_tag(tag)
        if _chunk_ends(prev, prev_kind, current, kind):
            chunks.add((prev_kind, begin, position - 1))
        if _chunk_starts(prev, prev_kind, current, kind):
            begin = position
        prev, prev_kind = current, kind
    return chunks


def _prf(correct: int, predicted: int, gold: int) -> dict[str, float]:
    precision = correct / predicted if predicted else 0.0
    recall = correct / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def entity_prf(
    gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]
) -> dict[str, float]:
    """Micro-averaged entity precision, recall and F1 over all sentences (CoNLL's measure):
    a predicted entity counts only when its type and both boundaries match a gold entity."""
    correct = guessed = expected = 0
    for gold_tags, guess_tags in zip(gold, predicted, strict=True):
        gold_chunks, guess_chunks = entities(gold_tags), entities(guess_tags)
        correct += len(gold_chunks & guess_chunks)
        guessed += len(guess_chunks)
        expected += len(gold_chunks)
    return _prf(correct, guessed, expected)


def token_f1(gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]) -> float:
    """Token-level micro F1 over the tokens not tagged ``O``: a token is a true positive when
    its predicted tag (prefix and type) equals a gold tag other than ``O``."""
    correct = guessed = expected = 0
    for gold_tags, guess_tags in zip(gold, predicted, strict=True):
        for g, p in zip(gold_tags, guess_tags, strict=True):
            correct += g == p != "O"
            guessed += p != "O"
            expected += g != "O"
    return _prf(correct, guessed, expected)["f1"]


def tagging_metrics(
    task: Any, gold: list[list[str]], predicted: list[list[str]]
) -> dict[str, float]:
    """The task's metrics: NER entity P/R/F1 plus token-level F1; POS token accuracy plus the
    seqeval F1 that XTREME's script reports for POS (seqeval reads a UPOS tag's first letter
    as a chunk prefix; the number is kept for comparison with the paper, labelled as such)."""
    if task.tagging_scheme == "entities":
        return {**entity_prf(gold, predicted), "token_f1": token_f1(gold, predicted)}
    import warnings

    from seqeval.metrics import f1_score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "NOUN seems not to be NE tag"
        seqeval_f1 = f1_score(gold, predicted)
    flat_gold = [tag for tags in gold for tag in tags]
    flat_guess = [tag for tags in predicted for tag in tags]
    return {"accuracy": accuracy(flat_gold, flat_guess), "seqeval_f1": seqeval_f1}


def matthews_corrcoef(gold: Sequence[Any], predicted: Sequence[Any]) -> float:
    """Matthews correlation (CoLA), in its multi-class form (Gorodkin 2004), which for two
    classes is (TP*TN - FP*FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)); 0 when a marginal is
    empty, as GLUE's scikit-learn scorer returns."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold labels but {len(predicted)} predictions")
    n = len(gold)
    correct = sum(g == p for g, p in zip(gold, predicted, strict=True))
    classes = set(gold) | set(predicted)
    true_counts = {c: sum(g == c for g in gold) for c in classes}
    pred_counts = {c: sum(p == c for p in predicted) for c in classes}
    covariance = correct * n - sum(true_counts[c] * pred_counts[c] for c in classes)
    spread_pred = n * n - sum(v * v for v in pred_counts.values())
    spread_true = n * n - sum(v * v for v in true_counts.values())
    if spread_pred == 0 or spread_true == 0:
        return 0.0
    return covariance / (spread_pred * spread_true) ** 0.5


def binary_f1(gold: Sequence[Any], predicted: Sequence[Any], positive: Any = "1") -> float:
    """F1 of the positive class (MRPC, QQP: label 1, "paraphrase"/"duplicate"); 0 when there
    is no true positive."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold labels but {len(predicted)} predictions")
    pairs = list(zip(gold, predicted, strict=True))
    tp = sum(g == positive and p == positive for g, p in pairs)
    fp = sum(g != positive and p == positive for g, p in pairs)
    fn = sum(g == positive and p != positive for g, p in pairs)
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def pearson(gold: Sequence[float], predicted: Sequence[float]) -> float:
    """Pearson correlation (STS-B), with scipy as GLUE's scorer uses."""
    from scipy.stats import pearsonr

    return float(pearsonr(gold, predicted).statistic)


def spearman(gold: Sequence[float], predicted: Sequence[float]) -> float:
    """Spearman rank correlation (ties take their average rank), with scipy as GLUE does."""
    from scipy.stats import spearmanr

    return float(spearmanr(gold, predicted).statistic)


SENTENCE_METRICS = {
    "accuracy": accuracy,
    "mcc": matthews_corrcoef,
    "f1": binary_f1,
    "pearson": pearson,
    "spearman": spearman,
}


def sentence_metrics(task: Any, gold: Sequence[Any], predicted: Sequence[Any]) -> dict[str, float]:
    """Every metric of a sentence(-pair) classification or regression task, by name."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold labels but {len(predicted)} predictions")
    return {name: SENTENCE_METRICS[name](gold, predicted) for name in task.metrics}
