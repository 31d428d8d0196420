"""Metrics, written from the benchmarks' definitions, each defined once: the kinds of
per-example statistics that the families share, and the plain metrics built on them.

A metric we report with an interval is a function of column sums of per-example statistics:
accuracy, MCC and binary F1 of a confusion matrix (one one-hot cell per example), Pearson's r
of (x, y, x², y², xy, 1), micro precision/recall/F1 of (correct, guessed, gold) counts (entities
per sentence: mte.families.tagging.metrics), and means (QA F1/EM, hits, correct tokens) of a
column over a count column. Each kind
of statistics below builds the per-example rows and computes its metrics from their sums. The
point value is the metric of the sums over all examples, and the bootstrap and randomisation
tests (mte.stats.statistics) evaluate the same function on resampled sums: one definition serves all
three. Spearman's rank correlation, seqeval's POS F1 and BUCC's mining F1 have no such
decomposition and say so where they are defined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def _divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    # numerator / denominator, 0 where the denominator is 0 (no prediction, no gold entity)
    return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), 0.0)


def _f1(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    return _divide(2 * precision * recall, precision + recall)


def same_length(gold: Sequence[Any], predicted: Sequence[Any]) -> None:
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold labels but {len(predicted)} predictions")


class SufficientStatistics:
    """Per-example rows whose column sums determine ``metrics``.

    ``of_sums(metric, sums)`` is vectorised over leading axes of ``sums`` (a stack of
    resampled sums gives a vector of values); ``value(metric, rows)`` is the point value."""

    metrics: tuple[str, ...] = ()

    def of_sums(self, metric: str, sums: np.ndarray) -> np.ndarray:
        if metric not in self.metrics:
            raise ValueError(f"no per-example statistics for metric '{metric}'")
        return getattr(self, f"_{metric}")(np.asarray(sums, float))

    def value(self, metric: str, rows: np.ndarray) -> float:
        rows = np.asarray(rows, float)
        if len(rows) == 0:
            raise ValueError(f"{metric} of an empty set is undefined")
        return float(self.of_sums(metric, rows.sum(axis=0)))

    def values(self, rows: np.ndarray, metrics: Sequence[str] | None = None) -> dict[str, float]:
        rows = np.asarray(rows, float)
        if len(rows) == 0:
            raise ValueError("metrics of an empty set are undefined")
        sums = rows.sum(axis=0)
        return {metric: float(self.of_sums(metric, sums)) for metric in metrics or self.metrics}


class Confusion(SufficientStatistics):
    """One one-hot confusion cell per example, column ``gold * C + predicted`` (C labels):
    accuracy, Matthews correlation and the positive class's F1."""

    metrics = ("accuracy", "mcc", "f1")

    def __init__(self, labels: Sequence[Any], positive: Any = "1") -> None:
        self.labels = list(labels)
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.positive = positive

    def rows(self, gold: Sequence[Any], predicted: Sequence[Any]) -> np.ndarray:
        same_length(gold, predicted)
        size = len(self.labels)
        cells = [self.index[g] * size + self.index[p] for g, p in zip(gold, predicted, strict=True)]
        rows = np.zeros((len(cells), size * size))
        rows[np.arange(len(cells)), cells] = 1
        return rows

    def _matrix(self, sums: np.ndarray) -> np.ndarray:
        size = len(self.labels)
        return sums.reshape(*sums.shape[:-1], size, size)

    def _accuracy(self, sums: np.ndarray) -> np.ndarray:
        matrix = self._matrix(sums)
        return np.trace(matrix, axis1=-2, axis2=-1) / matrix.sum(axis=(-2, -1))

    def _mcc(self, sums: np.ndarray) -> np.ndarray:
        # the multi-class form (Gorodkin 2004), which for two classes is
        # (TP*TN - FP*FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)); 0 when a marginal is empty,
        # as GLUE's scikit-learn scorer returns
        matrix = self._matrix(sums)
        n = matrix.sum(axis=(-2, -1))
        correct = np.trace(matrix, axis1=-2, axis2=-1)
        true, pred = matrix.sum(axis=-1), matrix.sum(axis=-2)
        covariance = correct * n - (true * pred).sum(axis=-1)
        spread = (n * n - (pred * pred).sum(axis=-1)) * (n * n - (true * true).sum(axis=-1))
        return _divide(covariance, np.sqrt(spread))

    def _f1(self, sums: np.ndarray) -> np.ndarray:
        # F1 of the positive class (MRPC, QQP: "1"); 0 when there is no true positive
        if self.positive not in self.index:
            return np.zeros(sums.shape[:-1])
        matrix = self._matrix(sums)
        positive = self.index[self.positive]
        tp = matrix[..., positive, positive]
        fp = matrix[..., :, positive].sum(axis=-1) - tp
        fn = matrix[..., positive, :].sum(axis=-1) - tp
        return np.where(tp > 0, _divide(2 * tp, 2 * tp + fp + fn), 0.0)


class Moments(SufficientStatistics):
    """(x, y, x², y², xy, 1) per example, x the prediction and y the gold score: Pearson's r
    (STS-B). Undefined (NaN, as scipy's pearsonr that GLUE's scorer calls) when either side
    is constant."""

    metrics = ("pearson",)

    def rows(self, gold: Sequence[float], predicted: Sequence[float]) -> np.ndarray:
        same_length(gold, predicted)
        x, y = np.asarray(predicted, float), np.asarray(gold, float)
        return np.stack([x, y, x * x, y * y, x * y, np.ones_like(x)], axis=1).reshape(-1, 6)

    def _pearson(self, sums: np.ndarray) -> np.ndarray:
        x, y, xx, yy, xy, n = (sums[..., i] for i in range(6))
        covariance = n * xy - x * y
        spread = (n * xx - x * x) * (n * yy - y * y)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(
                spread > 0, covariance / np.sqrt(np.where(spread > 0, spread, 1)), np.nan
            )


class Counts(SufficientStatistics):
    """(correct, guessed, gold) counts per example: micro precision, recall and F1."""

    metrics = ("precision", "recall", "f1")

    def _precision(self, sums: np.ndarray) -> np.ndarray:
        return _divide(sums[..., 0], sums[..., 1])

    def _recall(self, sums: np.ndarray) -> np.ndarray:
        return _divide(sums[..., 0], sums[..., 2])

    def _f1(self, sums: np.ndarray) -> np.ndarray:
        return _f1(self._precision(sums), self._recall(sums))


class Means(SufficientStatistics):
    """Per-example values and a count in the last column: each metric is its column's sum over
    the count's (QA: (F1, EM, 1) per question; hits: (hit, 1); POS: (correct tokens, tokens))."""

    def __init__(self, *columns: str) -> None:
        self.metrics = columns

    def rows(self, values: Sequence[Sequence[float]], counts: Sequence[float]) -> np.ndarray:
        return np.column_stack([np.asarray(values, float).reshape(len(counts), -1), counts])

    def of_sums(self, metric: str, sums: np.ndarray) -> np.ndarray:
        if metric not in self.metrics:
            raise ValueError(f"no per-example statistics for metric '{metric}'")
        sums = np.asarray(sums, float)
        return sums[..., self.metrics.index(metric)] / sums[..., -1]


def hit_rows(hits: Sequence[bool]) -> np.ndarray:
    """(hit, 1) per example: the rows of an accuracy over examples."""
    return Means("accuracy").rows(np.asarray(hits, float), np.ones(len(hits)))


def _labels_of(gold: Sequence[Any], predicted: Sequence[Any]) -> list[Any]:
    return sorted(set(gold) | set(predicted), key=repr)


def accuracy(gold: Sequence[Any], predicted: Sequence[Any]) -> float:
    """Fraction of positions where ``predicted`` equals ``gold`` (sequences of equal length)."""
    same_length(gold, predicted)
    if not gold:
        raise ValueError("accuracy of an empty set is undefined")
    hits = [g == p for g, p in zip(gold, predicted, strict=True)]
    return Means("accuracy").value("accuracy", hit_rows(hits))


def matthews_corrcoef(gold: Sequence[Any], predicted: Sequence[Any]) -> float:
    """Matthews correlation (CoLA), in its multi-class form (see :class:`Confusion`)."""
    statistics = Confusion(_labels_of(gold, predicted))
    return statistics.value("mcc", statistics.rows(gold, predicted))


def binary_f1(gold: Sequence[Any], predicted: Sequence[Any], positive: Any = "1") -> float:
    """F1 of the positive class (MRPC, QQP: label 1, "paraphrase"/"duplicate"); 0 when there
    is no true positive."""
    statistics = Confusion(_labels_of(gold, predicted), positive)
    return statistics.value("f1", statistics.rows(gold, predicted))


def pearson(gold: Sequence[float], predicted: Sequence[float]) -> float:
    """Pearson correlation (STS-B), from the moments of :class:`Moments`."""
    statistics = Moments()
    return statistics.value("pearson", statistics.rows(gold, predicted))


def spearman(gold: Sequence[float], predicted: Sequence[float]) -> float:
    """Spearman rank correlation (ties take their average rank), with scipy as GLUE does.
    Ranks are not sums of per-example statistics: no interval."""
    from scipy.stats import spearmanr

    return float(spearmanr(gold, predicted).statistic)


def card_metrics(predictions: Sequence[Any], golds: Sequence[Any], branch: str) -> dict[str, Any]:
    """The seed evaluation card's ``compute_metrics(preds, golds, task)``, line for line, shown
    beside the official metrics and never replacing them.

    ``predictions`` and ``golds``: one output each, as the card's "Input / output format"
    names them (a BIO tag per token for NER, an answer string for MLQA, a label otherwise),
    compared with ``==`` and nothing normalised. ``branch`` 'NER' or 'MLQA': ``exact_match``
    is the share of equal pairs; precision divides the equal pairs by the predictions that are
    non-empty (``if p``: an ``O`` tag is one), recall by the non-empty golds, each over at
    least 1, and F1 is their harmonic mean over at least 1e-9. Any other branch: ``accuracy``,
    the share of equal pairs. ``matched``, ``predicted`` and ``gold`` are the counts behind
    them.
    """
    if len(predictions) != len(golds):
        # the card's zip() would drop the extra outputs silently
        raise ValueError(f"{len(predictions)} predictions for {len(golds)} gold outputs")
    if not golds:
        raise ValueError("no gold outputs: the card's recipe divides by their number")
    matched = sum(p == g for p, g in zip(predictions, golds, strict=True))
    counts = {"branch": branch, "examples": len(golds), "matched": matched}
    if branch not in ("NER", "MLQA"):
        return {**counts, "accuracy": matched / len(golds)}
    predicted, gold = sum(1 for p in predictions if p), sum(1 for g in golds if g)
    precision, recall = matched / max(1, predicted), matched / max(1, gold)
    return {
        **counts,
        "predicted": predicted,
        "gold": gold,
        "exact_match": matched / len(golds),
        "precision": precision,
        "recall": recall,
        "f1": 2 * precision * recall / max(1e-9, precision + recall),
    }
