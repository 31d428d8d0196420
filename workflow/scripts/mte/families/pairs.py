"""Sentence and sentence-pair classification (XNLI, PAWS-X, GLUE) and regression (STS-B)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.families.base import TaskFamily


class PairClassification(TaskFamily):
    name = "pair_classification"
    schema_def = "classification_task"
    unlabelled_fields = 2
    model_translatable = True
    has_translations = True

    def model_head(self):
        from mte.heads import ClassificationHead

        return ClassificationHead()

    def read_files(self, task, paths: list[Path], language: str) -> list[dict[str, Any]]:
        from mte.readers.pairs import read_pairs

        return read_pairs(paths[0], task, language)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.readers.hub import pair_examples_from_hub

        return pair_examples_from_hub(dataset, task)

    def tokenize(self, tokenizer, examples, task, options: dict) -> dict[str, Any]:
        from mte.features import tokenize_pairs

        return tokenize_pairs(tokenizer, examples, task, options["max_length"])

    def score(self, task, predictions, gold, paths: dict) -> dict[str, Any]:
        from mte.scoring import score_classification

        return score_classification(task, predictions, gold, paths["predictions"], paths["gold"])

    def sufficient_statistics(self, task):
        from mte.metrics import Confusion

        return Confusion(task.labels)

    def segments(self, example: dict[str, Any]) -> list[str]:
        return [example[f] for f in ("text_a", "text_b", "text") if isinstance(example.get(f), str)]


class Regression(PairClassification):
    name = "regression"
    float_labels = True

    def model_head(self):
        from mte.heads import RegressionHead

        return RegressionHead()

    def score(self, task, predictions, gold, paths: dict) -> dict[str, Any]:
        from mte.scoring import score_regression

        return score_regression(task, predictions, gold, paths["predictions"], paths["gold"])

    def sufficient_statistics(self, task):
        from mte.metrics import Moments

        return Moments()  # Spearman's ranks have none


FAMILY_CLASSES = (
    PairClassification,
    Regression,
)
