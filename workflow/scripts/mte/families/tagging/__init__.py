"""Sequence tagging: named entities (CoNLL, PAN-X; entity P/R/F1) and parts of speech (UD;
token accuracy). Examples ``id, tokens, tags``; a task's options say which scheme it tags."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mte.families.base import FineTuningFamily, ScoringFiles
from mte.tasks.spec import FamilyOptions, Task

SCHEMES = ("entities", "tags")


@dataclass(frozen=True)
class TaggingOptions(FamilyOptions):
    # "entities" (NER: seqeval entity P/R/F1) or "tags" (POS: token accuracy)
    scheme: str = ""
    # the hub rows' column of tag ids (a sequence of ClassLabel)
    hub_tag_column: str = ""
    # tags an older release of the data named otherwise: old name -> (the name now, the release
    # that used the old one); a file with an old name is refused with the advice to rename
    former_labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    # CoNLL-U multiword tokens: "words" (UD's syntactic words, the range line skipped) or
    # "fused" (XTREME's conversion of a release: one word with the fused form and its head
    # word's UPOS; mte.families.tagging.readers.xtreme_fused_words)
    conllu_multiword: str = "words"


class Tagging(FineTuningFamily):
    name = "tagging"
    schema_def = "tagging_task"
    options_type = TaggingOptions
    unlabelled_fields = 1
    has_translations = True
    # one tag a line, an empty line after each sentence
    submission_suffix = "tsv"

    def model_head(self, task: Task):
        from mte.families.tagging.heads import TaggingHead

        return TaggingHead(task)

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.tagging.readers import read_tagging

        return read_tagging(paths, task)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.tagging.readers import tagging_examples_from_hub

        return tagging_examples_from_hub(dataset, task)

    def after_read(self, task, examples, origin: dict[str, Any]) -> None:
        from mte.families.tagging.readers import count_empty_tokens

        if empty := count_empty_tokens(examples):
            origin["empty_tokens"] = empty  # kept as words with no text; the job's log says so

    def tokenize(self, tokenizer, examples, task, options: dict) -> dict[str, Any]:
        from mte.families.tagging.features import tokenize_tagging

        return tokenize_tagging(
            tokenizer,
            examples,
            task,
            options["max_length"],
            options["label_subword"],
            options["tokenization"],
        )

    def validate(self, task, pairs: list, files: ScoringFiles) -> None:
        from mte.families.tagging.scoring import check_tags

        check_tags(task, pairs, files.predictions, files.gold)

    def measure(self, task, pairs: list, files: ScoringFiles) -> dict[str, Any]:
        from mte.families.tagging.scoring import measure_tags

        return measure_tags(task, pairs)

    def card_outputs(self, task, pairs: list) -> tuple[list, list, str] | None:
        from mte.families.tagging.scoring import card_tags

        return card_tags(task, pairs)

    def sufficient_statistics(self, task):
        from mte.families.tagging.metrics import tagging_statistics

        return tagging_statistics(task)

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        return [" ".join(example["tokens"])]

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families.tagging.scoring import check_tags
        from mte.stats.align import align

        pairs = align(predictions, gold, "the predictions", "the test file")
        check_tags(task, pairs, "the predictions", "the test file")
        return "".join("".join(f"{tag}\n" for tag in p["tags"]) + "\n" for _, p in pairs)

    def submission_labels(self, task, gold) -> str:
        return "".join("".join(f"{tag}\n" for tag in g["tags"]) + "\n" for g in gold)

    def score_submission(self, task, labels, predictions, language):
        from mte.families.tagging.scoring import score_tag_files

        return score_tag_files(task, labels, predictions)

    def check_spec(self, task) -> None:
        if task.options.scheme not in SCHEMES:
            raise ValueError(
                f"task '{task.name}': its tagging scheme must be 'entities' (NER) or 'tags' "
                f"(POS), not {task.options.scheme!r}"
            )
        if task.options.conllu_multiword not in ("words", "fused"):
            raise ValueError(
                f"task '{task.name}': conllu_multiword must be 'words' or 'fused', not "
                f"{task.options.conllu_multiword!r}"
            )


FAMILY_CLASSES = (Tagging,)
