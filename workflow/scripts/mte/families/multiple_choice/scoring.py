"""Scoring chosen answers: every prediction names one of its item's choices; accuracy, with a
(correct, 1) row per item behind its interval."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import IntegrityError
from mte.stats.align import some
from mte.stats.metrics import Means, hit_rows


def check_choices(pairs: list, predictions_path: str | Path) -> None:
    bad = sorted(
        {
            repr(p["label"])
            for g, p in pairs
            if not isinstance(p["label"], int)
            or isinstance(p["label"], bool)
            or not 0 <= p["label"] < len(g["choices"])
        }
    )
    if bad:
        raise IntegrityError(
            f"{predictions_path}: predicted choice(s) {some(bad)} name no choice of their item"
        )


def measure_choices(pairs: list) -> dict[str, Any]:
    rows = hit_rows([g["label"] == p["label"] for g, p in pairs])
    return {"n": len(pairs), "metrics": Means("accuracy").values(rows), "example_stats": rows}
