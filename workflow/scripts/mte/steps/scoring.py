"""Scoring one run's predictions for one language: the task's family scores them against
the gold examples (only when they match one to one), then the score file's record with the
bootstrap interval and the per-example statistics that paired tests resample."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.families.base import ScoringFiles
from mte.io import read_jsonl
from mte.registry import family_of
from mte.stats.statistics import interval_record, resample_seed
from mte.tasks.spec import Task


def score_files(
    task: Task,
    predictions_path: str | Path,
    gold_path: str | Path,
    language: str,
    dev_gold_path: str | Path | None = None,
    eval_split: str = "test",
    answer_field: str = "label",
) -> dict[str, Any]:
    """Read a predictions file and its gold file, and score them with the task's family
    (BUCC also reads the dev split, whose gold sets the threshold). ``answer_field``: the
    records' field read as the predicted label (in-context predictions also have
    ``label_norm``, the choice by length-normalised log-likelihood)."""
    family = family_of(task)
    predictions, gold = read_jsonl(predictions_path), read_jsonl(gold_path)
    if answer_field != "label":
        predictions = [{**p, "label": p.get(answer_field)} for p in predictions]
    dev_gold = None
    if family.extra_eval_splits:
        if dev_gold_path is None:
            raise ValueError(f"{task.title} scoring needs the dev split")
        dev_gold = read_jsonl(dev_gold_path)
    files = ScoringFiles(predictions_path, gold_path, language, eval_split, dev_gold, dev_gold_path)
    return family.score(task, predictions, gold, files)


def score_record(
    task: Task,
    predictions_path: str | Path,
    gold_path: str | Path,
    run: dict[str, Any],
    split: str,
    statistics: dict[str, Any],
    dev_gold_path: str | Path | None = None,
) -> dict[str, Any]:
    """One run's score file: the metrics, the bootstrap interval of the primary metric and the
    per-example statistics that paired tests resample.

    ``run``: model, setting, seed and language; ``statistics``: resamples, seed, confidence.
    """
    language = run["language"]
    result = score_files(
        task, predictions_path, gold_path, language, dev_gold_path=dev_gold_path, eval_split=split
    )
    stats = result.pop("example_stats", None)
    interval = _interval(task, stats, language, statistics)
    more = {}
    if _has_length_normalised(predictions_path):
        # lm-evaluation-harness's acc_norm beside acc: the same items, the choice by
        # log-likelihood per character
        normalised = score_files(
            task, predictions_path, gold_path, language, eval_split=split,
            answer_field="label_norm",
        )  # fmt: skip
        normalised_stats = normalised.pop("example_stats", None)
        more["length_normalised"] = {
            "metrics": normalised["metrics"],
            "interval": _interval(task, normalised_stats, language, statistics),
        }
    return {
        "task": task.name,
        "language": language,
        "model": run["model"],
        "setting": run["setting"],
        "seed": int(run["seed"]),
        "split": split,
        **result,
        "interval": interval,
        # per test example, in gold order: what paired significance tests resample
        "example_stats": None if stats is None else stats.tolist(),
        **more,
    }


def _interval(
    task: Task, stats: Any, language: str, statistics: dict[str, Any]
) -> dict[str, Any] | None:
    """The bootstrap interval of the primary metric from per-example statistics."""
    if stats is None:
        return None
    seed = resample_seed(task.parallel_test_sets, statistics["seed"], language)
    kind = family_of(task).sufficient_statistics(task)
    return interval_record(
        kind,
        task.primary_metric,
        stats,
        statistics["resamples"],
        seed,
        statistics["confidence"],
    )


def _has_length_normalised(predictions_path: str | Path) -> bool:
    """In-context predictions of a choice task: every record has ``label_norm``."""
    records = read_jsonl(predictions_path)
    return bool(records) and all("label_norm" in record for record in records)
