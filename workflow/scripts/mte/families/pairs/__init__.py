"""Sentence and sentence-pair classification (XNLI, PAWS-X, GLUE, SIB-200) and regression
(STS-B): examples ``id, text_a, text_b (or None), label``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mte.families.base import FineTuningFamily, ScoringFiles
from mte.tasks.spec import FamilyOptions, Task


@dataclass(frozen=True)
class PairOptions(FamilyOptions):
    """Where a pair task's texts and labels are in its files and hub rows."""

    # header names of (text_a, text_b or None, label) in the task's header-named TSV files
    table_columns: tuple[str, str | None, str] = ("sentence1", "sentence2", "gold_label")
    # files without a header: (number of fields, text_a field, text_b field or None, label field)
    headerless_fields: tuple[int, int, int | None, int] | None = None
    # the column naming an example in header-named files and hub rows, where it is none of the
    # usual ones (files: pairID, id, index; hub: id, idx)
    id_column: str = ""
    # spellings of a label in released files and hub rows that mean one of the task's labels
    label_aliases: dict[str, str] = field(default_factory=dict)
    # the hub dataset's text columns, in the canonical order (text_a, text_b)
    hub_text_columns: tuple[str, ...] = ()
    # the hub rows' label column; a ClassLabel maps ids to names, a string column is the name
    hub_label_column: str = "label"
    # what a hub row whose label is -1 (the old loading scripts' mark of a label missing or
    # not a label in the release) becomes: "" an error; "xtreme": as XTREME's reader treats a
    # row without a label - a test row is labelled with the first label (its processors give
    # "0" to a test line without one), a training or dev row, which it cannot read, is left
    # out; each counted in the data record and the download's log
    hub_missing_label: str = ""
    # header-named files written with CSV quoting (pandas' to_csv: a field holding a quote is
    # "... ""word"" ..."): read as the writer wrote them; else fields are split on TAB only
    csv_quoting: bool = False


class PairClassification(FineTuningFamily):
    name = "pair_classification"
    schema_def = "classification_task"
    options_type = PairOptions
    unlabelled_fields = 2
    model_translatable = True
    has_translations = True
    # the prediction record's field compared with the gold label
    predicted_field = "label"
    # XNLI's and PAWS-X's label names, one a line
    submission_suffix = "tsv"

    def model_head(self, task: Task):
        from mte.families.pairs.heads import ClassificationHead

        return ClassificationHead(task)

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.pairs.readers import read_pairs

        return read_pairs(paths[0], task, language)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        return self.read_hub_noted(task, dataset, name, language)[0]

    def read_hub_noted(self, task, dataset, name: str, language: str):
        from mte.families.pairs.readers import pair_examples_from_hub

        notes: dict[str, Any] = {}
        examples = pair_examples_from_hub(dataset, task, notes=notes)
        return examples, notes

    def tokenize(self, tokenizer, examples, task, options: dict) -> dict[str, Any]:
        from mte.families.pairs.features import tokenize_pairs

        return tokenize_pairs(
            tokenizer,
            examples,
            task,
            options["max_length"],
            self.float_labels,
            # run_classify.py's encode_plus truncates as transformers 2.x did
            truncation="transformers2" if options["tokenization"] == "paper" else "fast",
        )

    def validate(self, task, pairs: list, files: ScoringFiles) -> None:
        from mte.families.pairs.scoring import check_labels

        check_labels(task, pairs, files.predictions)

    def measure(self, task, pairs: list, files: ScoringFiles) -> dict[str, Any]:
        from mte.families.pairs.scoring import measure_pairs

        return measure_pairs(task, pairs, self.predicted_field, self.sufficient_statistics(task))

    def card_outputs(self, task, pairs: list) -> tuple[list, list, str] | None:
        # the card's "discrete class label", scored by its accuracy branch (XNLI, GLUE)
        predicted = [p[self.predicted_field] for _, p in pairs]
        return predicted, [g["label"] for g, _ in pairs], "XNLI"

    def sufficient_statistics(self, task):
        from mte.stats.metrics import Confusion

        return Confusion(task.labels)

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        return [example[f] for f in ("text_a", "text_b", "text") if isinstance(example.get(f), str)]

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families._leaderboard_files import lines_text
        from mte.stats.align import align

        pairs = align(predictions, gold, "the predictions", "the test file")
        self.validate(task, pairs, ScoringFiles("the predictions", "the test file", ""))
        return lines_text([p[self.predicted_field] for _, p in pairs])

    def submission_labels(self, task, gold) -> str:
        from mte.families._leaderboard_files import lines_text

        return lines_text([g["label"] for g in gold])

    def score_submission(self, task, labels, predictions, language):
        from mte.families._leaderboard_files import accuracy_score, read_values, same_count

        gold, guesses = read_values(labels), read_values(predictions)
        same_count(gold, guesses, labels, predictions, "labels")
        return accuracy_score(gold, guesses)


class Regression(PairClassification):
    name = "regression"
    float_labels = True
    predicted_field = "score"
    submission_suffix = None  # GLUE's STS-B: no leaderboard of XTREME's

    def model_head(self, task: Task):
        from mte.families.pairs.heads import RegressionHead

        return RegressionHead(task)

    def validate(self, task, pairs: list, files: ScoringFiles) -> None:
        from mte.families.pairs.scoring import check_scores

        check_scores(pairs, files.predictions)

    def card_outputs(self, task, pairs: list) -> None:
        # the card's accuracy would compare similarity scores with ==: it names no such output
        return None

    def sufficient_statistics(self, task):
        from mte.stats.metrics import Moments

        return Moments()  # Spearman's ranks have none


FAMILY_CLASSES = (
    PairClassification,
    Regression,
)
