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
