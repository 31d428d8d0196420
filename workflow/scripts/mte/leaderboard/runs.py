"""A run folder as a leaderboard reads it: the index of its score files (``scores.csv``, written
by the describe_run rule) and, per task x language, the seeds' values, bootstrap replicates and
per-example statistics."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mte.errors import InputError
from mte.registry import family_of, get_task
from mte.stats.statistics import mean_replicates

# the run folder's index of its score files, written by the describe_run rule
SCORES_INDEX = "scores.csv"


INDEX_COLUMNS = ("task", "model", "setting", "seed", "language", "path")


def scores_index(records: Sequence[dict[str, Any]], paths: Sequence[str]) -> pd.DataFrame:
    """A run's score files (``paths``, relative to the folder that holds ``results/``) by task,
    model, setting, seed and language: what a leaderboard reads of the run."""
    rows = [
        {**{key: record[key] for key in INDEX_COLUMNS[:-1]}, "path": str(path)}
        for record, path in zip(records, paths, strict=True)
    ]
    return pd.DataFrame(rows, columns=list(INDEX_COLUMNS)).sort_values(
        list(INDEX_COLUMNS[:5]), kind="stable"
    )


@dataclass
class Run:
    """A run folder's score records, with where they were read."""

    folder: Path
    name: str
    scores: list[dict[str, Any]]


def read_run(folder: str | Path) -> Run:
    """The score records a run folder's index names. The index's paths are relative to the
    folder that holds ``results/`` (the folder's third parent), so a results tree copied from
    another machine reads as it was written."""
    folder = Path(folder)
    index = folder / SCORES_INDEX
    if not index.is_file():
        raise InputError(
            index,
            None,
            f"{folder} is not a run folder: it has no {SCORES_INDEX} (the index that snakemake's "
            "describe_run job writes into results/runs/<run>/; rerun snakemake for that run)",
        )
    table = pd.read_csv(index, dtype=str, keep_default_na=False)
    missing = [column for column in INDEX_COLUMNS if column not in table.columns]
    if missing:
        raise InputError(index, 1, f"the header lacks {', '.join(missing)}")
    root = folder.resolve().parents[2]
    scores = []
    for line, path in enumerate(table["path"], start=2):
        file = root / path
        if not file.is_file():
            raise InputError(index, line, f"names {path}, which is not at {file}")
        scores.append(json.loads(file.read_text(encoding="utf-8")))
    if not scores:
        raise InputError(index, None, "names no score file")
    return Run(folder, folder.name, scores)


@dataclass
class LanguageCell:
    """One task x language of a row: per metric the value (a fraction) and bootstrap
    replicates averaged over the row's seeds, the per-example statistics averaged over seeds,
    and the test file's checksum (None where the seeds were scored on different files)."""

    task: str
    language: str
    scores: list[dict[str, Any]]
    _replicates: dict[str, np.ndarray | None] = field(default_factory=dict)

    def value(self, metric: str) -> float:
        return float(np.mean([s["metrics"][metric] for s in self.scores]))

    def replicates(self, metric: str) -> np.ndarray | None:
        """The metric's replicates averaged over seeds: each score file's stored ones for its
        interval's metric, else drawn again from its per-example statistics with the seed and
        number of resamples it recorded (the same resamples, so a QA cell's F1 and exact
        match replicates pair up)."""
        if metric not in self._replicates:
            task = get_task(self.task)
            kind = family_of(task).sufficient_statistics(task)
            self._replicates[metric] = mean_replicates(self.scores, [metric], kind)
        return self._replicates[metric]

    @cached_property
    def example_stats(self) -> np.ndarray | None:
        found = [s.get("example_stats") for s in self.scores]
        if any(not f for f in found):
            return None
        arrays = [np.asarray(f, float) for f in found]
        if len({a.shape for a in arrays}) != 1:
            return None
        return np.mean(arrays, axis=0)

    @cached_property
    def test_items(self) -> str | None:
        """The checksum of the scored test file (the last data record of the provenance)."""
        found = {_test_checksum(s) for s in self.scores}
        return found.pop() if len(found) == 1 else None

    @property
    def confidence(self) -> float | None:
        found = [(s.get("interval") or {}).get("confidence") for s in self.scores]
        return found[0] if found and found[0] is not None else None


def _test_checksum(score: dict[str, Any]) -> str | None:
    data = (score.get("provenance") or {}).get("data") or []
    return data[-1].get("sha256_jsonl") if data else None
