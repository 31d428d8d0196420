"""Pairing predictions with gold examples one to one: the first step of every family's
scoring (mte.families.base.TaskFamily.score)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from mte.errors import IntegrityError

SHOWN = 5


def some(items: list[Any]) -> str:
    """The first few of ``items`` for a message, and how many more there are."""
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
            problems.append(f"duplicated {name} ids in {path}: {some(duplicated)}")
    by_id = {r["id"]: r for r in predictions}
    gold_ids = {r["id"] for r in gold}
    missing = [r["id"] for r in gold if r["id"] not in by_id]
    extra = [r["id"] for r in predictions if r["id"] not in gold_ids]
    if missing:
        problems.append(
            f"{len(missing)} gold ids have no prediction in {predictions_path}: {some(missing)}"
        )
    if extra:
        problems.append(
            f"{len(extra)} predicted ids are not in the gold file {gold_path}: {some(extra)}"
        )
    if problems:
        raise IntegrityError("; ".join(problems))
    return [(example, by_id[example["id"]]) for example in gold]
