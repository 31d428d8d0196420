"""BUCC 2018's family: bitext mining by ratio margin, its threshold set on the dev split; F1."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from mte.families.base import ScoringFiles
from mte.families.retrieval.retrieval_family import Retrieval


class Mining(Retrieval):
    name = "mining"
    # scripts/run_bucc2018.sh passes --specific_layer 7 for every model: hidden state 8
    xtreme_layers: ClassVar[dict[int, int]] = {12: 8, 24: 8}
    extra_eval_splits = ("dev",)
    per_example_statistics = False

    def retrieve(self, model_dir, splits: dict[str, list], options: dict) -> list[dict]:
        """Candidate pairs of every split (dev sets the threshold the evaluated split uses)."""
        from mte.families.retrieval.search import mine_bucc

        return mine_bucc(model_dir, splits, {**options, "xtreme_layers": self.xtreme_layers})

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.readers import read_bucc

        return read_bucc(paths[0])

    def companion_files(self, task, path: Path) -> list[Path]:
        from mte.families.retrieval.readers import BUCC_SIBLINGS, siblings

        return siblings(path, BUCC_SIBLINGS)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.retrieval.readers import bucc_from_hub

        return bucc_from_hub(dataset, name, language)

    def align(self, predictions: list[dict], gold: list[dict], files: ScoringFiles) -> list:
        """Candidate pairs are not gold examples one to one: the split's records and the
        candidates are one pair, each candidate checked against its split's sentences when
        measured."""
        if files.dev_gold is None:
            raise ValueError("BUCC scoring needs the dev split")
        return [(gold, predictions)]

    def measure(self, task, pairs: list, files: ScoringFiles) -> dict[str, Any]:
        from mte.families.retrieval.scoring import measure_mining

        ((gold, candidates),) = pairs
        return measure_mining(
            task,
            candidates,
            gold,
            files.dev_gold,
            files.predictions,
            files.gold,
            files.dev_gold_path,
            files.eval_split,
        )

    def sufficient_statistics(self, task):
        return None  # F1 at a threshold chosen on dev: no per-example decomposition

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families.retrieval.submission import bucc_predictions

        return bucc_predictions(predictions, score)

    def submission_labels(self, task, gold) -> str:
        from mte.families.retrieval.submission import bucc_labels

        return bucc_labels(gold)

    def score_submission(self, task, labels, predictions, language):
        from mte.families.retrieval.submission import score_pair_files

        return score_pair_files(labels, predictions)
