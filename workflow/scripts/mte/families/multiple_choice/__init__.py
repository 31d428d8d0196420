"""Multiple choice: any number of choices, an optional passage or context, the question; the
model scores each choice's input (AutoModelForMultipleChoice) and the best one is the answer.
Accuracy, as XTREME-R's third_party/run_xcopa.py computes it.

An example holds ``id``, the text fields its spec names, ``choices`` and ``label`` (the index of
the right choice). The spec says how one choice's input is joined (:class:`ChoiceOptions`) and
may adapt each released record or hub row to the example (``Task.row_adapter``)."""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mte.families.base import FineTuningFamily, ScoringFiles
from mte.tasks.spec import FamilyOptions, Task


@dataclass(frozen=True)
class ChoiceOptions(FamilyOptions):
    """How a task's examples become the model's input: the first and the second segment of
    each choice's input, as templates of the example's fields (``{choice}``: the choice), e.g.
    COPA as run_xcopa.py joins it: ``"{premise} What was the {question}?"`` and ``"{choice}"``.
    The two segments are encoded as a pair, the longer truncated first."""

    first: str = ""
    second: str = "{choice}"
    # the example's texts a translation carries besides the choices (translate-test, BLEU);
    # each must be a non-empty string
    text_fields: tuple[str, ...] = ()
    # the records of one released file, (line number, record dict) each, given the file and the
    # split read from it (an assembled file may hold several); None: JSON lines
    records: Callable[[Path, str], Iterator[tuple[int, dict[str, Any]]]] | None = None
    # the last suffixes of the files ``records`` reads with each file (MCTest's ".ans")
    companion_suffixes: tuple[str, ...] = ()

    def fields(self) -> list[str]:
        """The example fields the two templates read."""
        found = []
        for template in (self.first, self.second):
            found += [name for _, name, _, _ in string.Formatter().parse(template) if name]
        return [name for name in dict.fromkeys(found) if name != "choice"]


class MultipleChoice(FineTuningFamily):
    name = "multiple_choice"
    schema_def = "classification_task"
    options_type = ChoiceOptions
    has_translations = True  # translate-test: the items translated into English (data-gmt)
    translation_extension = "jsonl"
    # XCOPA: one JSON object a line, the chosen answer its "label" (evaluate.py's read_xcopa)
    submission_suffix = "jsonl"

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families._leaderboard_files import jsonl_text
        from mte.families.multiple_choice.scoring import check_choices
        from mte.stats.align import align

        pairs = align(predictions, gold, "the predictions", "the test file")
        check_choices(pairs, "the predictions")
        return jsonl_text([{"id": g["id"], "label": p["label"]} for g, p in pairs])

    def submission_labels(self, task, gold) -> str:
        from mte.families._leaderboard_files import jsonl_text

        return jsonl_text([{"id": g["id"], "label": g["label"]} for g in gold])

    def score_submission(self, task, labels, predictions, language):
        from mte.families._leaderboard_files import (
            accuracy_score,
            read_jsonl_labels,
            same_count,
        )

        gold, chosen = read_jsonl_labels(labels), read_jsonl_labels(predictions)
        same_count(gold, chosen, labels, predictions, "items")
        return accuracy_score(gold, chosen)

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.multiple_choice.readers import read_choice_files

        return read_choice_files(task, paths, split)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.multiple_choice.readers import choice_examples_from_hub

        return choice_examples_from_hub(task, dataset, name)

    def companion_files(self, task, path: Path) -> list[Path]:
        return [path.with_suffix(suffix) for suffix in task.options.companion_suffixes]

    def tokenize(self, tokenizer, examples, task, options: dict) -> dict[str, Any]:
        from mte.families.multiple_choice.features import tokenize_choices

        return tokenize_choices(tokenizer, examples, task, options["max_length"])

    def model_head(self, task: Task):
        from mte.families.multiple_choice.heads import MultipleChoiceHead

        return MultipleChoiceHead(task)

    def validate(self, task, pairs: list, files: ScoringFiles) -> None:
        from mte.families.multiple_choice.scoring import check_choices

        check_choices(pairs, files.predictions)

    def measure(self, task, pairs: list, files: ScoringFiles) -> dict[str, Any]:
        from mte.families.multiple_choice.scoring import measure_choices

        return measure_choices(pairs)

    def card_outputs(self, task, pairs: list) -> tuple[list, list, str]:
        # the chosen answer is a discrete label: the card's accuracy branch
        return [p["label"] for _, p in pairs], [g["label"] for g, _ in pairs], "XNLI"

    def sufficient_statistics(self, task):
        from mte.stats.metrics import Means

        return Means("accuracy")  # (correct, 1) per item

    def segments(self, task, example: dict[str, Any]) -> list[str]:
        return [*(example[name] for name in task.options.text_fields), *example["choices"]]

    def check_spec(self, task) -> None:
        if not task.options.first:
            raise ValueError(f"task '{task.name}': its choice options name no first segment")
        missing = [name for name in task.options.text_fields if name not in task.options.fields()]
        if missing:
            raise ValueError(
                f"task '{task.name}': text field(s) {', '.join(missing)} are in no template"
            )


FAMILY_CLASSES = (MultipleChoice,)
