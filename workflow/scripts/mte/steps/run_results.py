"""A run's results in one file, ``results/runs/{run}/results.json``, the way users of
lm-evaluation-harness expect one: every score of the run (task x language x model x setting x
seed) with its value, interval, metric, n and a digest of its provenance, and the models behind
them; the score files stay the full record (per-example statistics, the whole provenance)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

# the file's layout, raised when a field changes meaning
FORMAT = "mte-results/1"


def provenance_digest(provenance: dict[str, Any]) -> str:
    """SHA-256 of a score's provenance as canonical JSON (keys sorted): two scores with the
    same digest were made from the same model, data, code, packages and settings."""
    text = json.dumps(provenance, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def result_record(score: dict[str, Any], path: str) -> dict[str, Any]:
    """One score as results.json lists it (values as fractions, as the score file has them)."""
    interval = score.get("interval") or {}
    metric = interval.get("metric") or next(iter(score["metrics"]))
    return {
        "task": score["task"],
        "language": score["language"],
        "model": score["model"],
        "setting": score["setting"],
        "seed": score["seed"],
        "split": score.get("split"),
        "metric": metric,
        "value": score["metrics"][metric],
        "interval": {key: interval.get(key) for key in ("low", "high", "confidence", "resamples")}
        if interval
        else None,
        "n": score.get("n"),
        "metrics": score["metrics"],
        "provenance_digest": provenance_digest(score.get("provenance") or {}),
        "code_digest": ((score.get("provenance") or {}).get("code") or {}).get("digest"),
        "score_file": path,
    }


def run_results(run: str, scores: Sequence[dict[str, Any]], paths: Sequence[str]) -> dict:
    """The run's results.json: its records sorted by task, model, setting, seed and language,
    and each model's provenance record once."""
    records = [result_record(score, path) for score, path in zip(scores, paths, strict=True)]
    records.sort(key=lambda r: (r["task"], r["model"], r["setting"], str(r["seed"]), r["language"]))
    models: dict[str, dict[str, Any]] = {}
    for score in scores:
        models.setdefault(score["model"], (score.get("provenance") or {}).get("model") or {})
    return {
        "format": FORMAT,
        "run": run,
        "about": "every score of the run; value, interval and metrics are fractions (the "
        "tables print percent); metric is the one the interval is of (the task's primary "
        "one); provenance_digest is the SHA-256 of the score file's provenance as canonical "
        "JSON; score_file holds everything else (per-example statistics, the provenance)",
        "models": models,
        "results": records,
    }
