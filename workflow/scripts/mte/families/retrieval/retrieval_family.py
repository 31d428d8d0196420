"""Tatoeba's family: each foreign sentence's nearest English sentence (and the reverse), embedded
by the pretrained encoder or another task's fine-tune; accuracy per layer choice."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from mte.families.base import RetrievingFamily, ScoringFiles
from mte.tasks.spec import Task


class Retrieval(RetrievingFamily):
    name = "retrieval"
    schema_def = "retrieval_task"

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.readers import read_tatoeba

        return read_tatoeba(paths[0])

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.retrieval.readers import tatoeba_from_hub

        return tatoeba_from_hub(dataset, name)

    def companion_files(self, task, path: Path) -> list[Path]:
        from mte.families.retrieval.readers import TATOEBA_SIBLINGS, siblings

        return siblings(path, TATOEBA_SIBLINGS)

    # the layer choice `xtreme`: XTREME's hidden-state index per model depth. Its scripts pass
    # --specific_layer 7 (scripts/run_tatoeba.sh: 13 for XLM-R large), an index into the hidden
    # states after the embedding output (third_party/evaluate_retrieval.py keeps
    # all_layer_outputs[-num_layers:]): hidden state 8 of a 12-layer model, 14 of XLM-R large
    xtreme_layers: ClassVar[dict[int, int]] = {12: 8, 24: 14}

    def retrieve(self, model_dir, splits: dict[str, list], options: dict) -> list[dict]:
        """Nearest neighbours of the evaluated split (``splits`` holds it)."""
        from mte.families.retrieval.search import retrieve_tatoeba

        return retrieve_tatoeba(model_dir, splits, {**options, "xtreme_layers": self.xtreme_layers})

    def measure(self, task, pairs: list, files: ScoringFiles) -> dict[str, Any]:
        from mte.families.retrieval.scoring import measure_neighbours

        return measure_neighbours(task, pairs, files.predictions)

    def sufficient_statistics(self, task):
        from mte.stats.metrics import Means

        return Means("accuracy")  # a hit per sentence

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        return [example[f] for f in ("text_a", "text_b", "text") if isinstance(example.get(f), str)]

    # Tatoeba: the line of the English sentence found, one a line
    submission_suffix: ClassVar[str | None] = "tsv"

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families.retrieval.submission import tatoeba_predictions

        return tatoeba_predictions(predictions, gold)

    def submission_labels(self, task, gold) -> str:
        from mte.families.retrieval.submission import tatoeba_labels

        return tatoeba_labels(gold)

    def score_submission(self, task, labels, predictions, language):
        from mte.families.retrieval.submission import score_index_files

        return score_index_files(labels, predictions)
