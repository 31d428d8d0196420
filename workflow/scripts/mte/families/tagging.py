"""Sequence tagging: named entities (CoNLL, PAN-X; entity P/R/F1) and parts of speech (UD;
token accuracy). A task says which with ``tagging_scheme``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.families.base import TaskFamily


class Tagging(TaskFamily):
    name = "tagging"
    schema_def = "tagging_task"
    unlabelled_fields = 1
    has_translations = True

    def model_head(self):
        from mte.heads import TaggingHead

        return TaggingHead()

    def read_files(self, task, paths: list[Path], language: str) -> list[dict[str, Any]]:
        from mte.readers.tagging import read_tagging

        return read_tagging(paths, task)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.readers.hub import tagging_examples_from_hub

        return tagging_examples_from_hub(dataset, task)

    def after_read(self, task, examples, origin: dict[str, Any]) -> None:
        from mte.readers.tagging import count_empty_tokens

        if empty := count_empty_tokens(examples):
            origin["empty_tokens"] = empty  # kept as words with no text; the job's log says so

    def tokenize(self, tokenizer, examples, task, options: dict) -> dict[str, Any]:
        from mte.features import tokenize_tagging

        return tokenize_tagging(
            tokenizer, examples, task, options["max_length"], options["label_subword"]
        )

    def score(self, task, predictions, gold, paths: dict) -> dict[str, Any]:
        from mte.scoring import score_tagging

        return score_tagging(task, predictions, gold, paths["predictions"], paths["gold"])

    def sufficient_statistics(self, task):
        from mte.metrics import tagging_statistics

        return tagging_statistics(task)

    def segments(self, example: dict[str, Any]) -> list[str]:
        return [" ".join(example["tokens"])]

    def check_spec(self, task) -> None:
        if task.tagging_scheme not in ("entities", "tags"):
            raise ValueError(
                f"task '{task.name}': tagging_scheme must be 'entities' (NER) or 'tags' (POS), "
                f"not {task.tagging_scheme!r}"
            )


FAMILY_CLASSES = (Tagging,)
