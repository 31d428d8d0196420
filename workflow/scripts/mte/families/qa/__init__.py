"""Extractive question answering (SQuAD v1.1, XQuAD, MLQA, TyDiQA-GoldP): F1 and exact match
of answer spans, as SQuAD v1.1's evaluation script (MLQA: its per-language normalisation).
Examples ``id, question, context, answers{text, answer_start}``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mte.errors import ConfigError
from mte.families.base import FineTuningFamily, ScoringFiles
from mte.tasks.spec import FamilyOptions, Task

# sub-tokens a QA window must keep beside the overlap, for the question and new context
QUESTION_ROOM = 32
NORMALIZATIONS = ("squad", "mlqa")
# how a context is cut into windows and an answer decoded: Hugging Face's run_qa.py example or
# XTREME's run_squad.py (mte.families.qa.squad_windows; its answers: .squad_answers)
WINDOWS = ("run_qa", "run_squad")
# the special tokens of a question-context pair: XLM-R's <s> q </s></s> c </s> (BERT's: 3)
MOST_PAIR_SPECIALS = 4


@dataclass(frozen=True)
class QAOptions(FamilyOptions):
    # answer normalisation: "squad" (v1.1) or "mlqa" (v1, per language)
    normalization: str = "squad"
    # hub configs that mix languages: a language's examples are those whose id starts with
    # this prefix (google/xtreme's "tydiqa": "arabic-2387335860751143628-1")
    hub_id_prefixes: dict[str, str] = field(default_factory=dict)


class QuestionAnswering(FineTuningFamily):
    name = "qa"
    schema_def = "qa_task"
    options_type = QAOptions
    translation_extension = "json"
    has_translations = True
    hub_configs_required = True
    # {"question id": "answer"}; its labels SQuAD's JSON
    submission_suffix = "json"

    def model_head(self, task: Task):
        from mte.families.qa.heads import QuestionAnsweringHead

        return QuestionAnsweringHead(task)

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.qa.readers import read_squad_json

        return [example for path in paths for example in read_squad_json(path)]

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.qa.readers import qa_examples_from_hub

        prefix = task.options.hub_id_prefixes.get(language, "")
        return qa_examples_from_hub(dataset, name, prefix)

    def tokenize(self, tokenizer, examples, task, options: dict) -> dict[str, Any]:
        from mte.families.qa.features import tokenize_qa

        if options["windows"] == "run_squad":
            from mte.families.qa.squad_windows import tokenize_run_squad

            return tokenize_run_squad(
                tokenizer,
                examples,
                task,
                options["max_length"],
                options["doc_stride"],
                options["max_query_length"],
                options["training"],
                options["do_lower_case"],
            )
        return tokenize_qa(
            tokenizer,
            examples,
            task,
            options["max_length"],
            options["doc_stride"],
            options["training"],
        )

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families._leaderboard_files import json_text
        from mte.families.qa.scoring import check_answers
        from mte.stats.align import align

        pairs = align(predictions, gold, "the predictions", "the test file")
        check_answers(pairs, "the predictions", "the test file")
        return json_text({g["id"]: p["answer"] for g, p in pairs})

    def submission_labels(self, task, gold) -> str:
        from mte.families.qa.scoring import squad_labels

        return squad_labels(gold)

    def score_submission(self, task, labels, predictions, language):
        from mte.families.qa.scoring import score_answer_files

        return score_answer_files(task, labels, predictions, language)

    def validate(self, task, pairs: list, files: ScoringFiles) -> None:
        from mte.families.qa.scoring import check_answers

        check_answers(pairs, files.predictions, files.gold)

    def measure(self, task, pairs: list, files: ScoringFiles) -> dict[str, Any]:
        from mte.families.qa.scoring import measure_answers

        return measure_answers(task, pairs, files.language)

    def card_outputs(self, task, pairs: list) -> tuple[list, list, str]:
        from mte.families.qa.scoring import card_answers

        return card_answers(pairs)

    def sufficient_statistics(self, task):
        from mte.stats.metrics import Means

        return Means("f1", "exact_match")  # per question, as SQuAD v1.1 averages them

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        return [example["question"], example["context"]]

    def table_metrics(self, task) -> dict[str, str]:
        # the papers print QA cells as F1 / EM
        return {"": "f1", "_em": "exact_match"}

    def cell_metrics(self, task) -> tuple[str, ...]:
        # XTREME's task score of QA is the mean of F1 and exact match (evaluate.py: avg_metric)
        return task.summary_metrics or ("f1", "exact_match")

    def check_spec(self, task) -> None:
        if task.options.normalization not in NORMALIZATIONS:
            raise ValueError(
                f"task '{task.name}': its answer normalisation must be one of "
                f"{', '.join(NORMALIZATIONS)}, not {task.options.normalization!r}"
            )

    def check_task_config(self, task, task_cfg, key: str) -> None:
        if "hyperparameters" not in task_cfg:
            return
        stride, length = task_cfg["doc_stride"], task_cfg["hyperparameters"]["max_length"]
        if task_cfg.get("windows") == "run_squad":
            # each window must reach where the next begins, whatever the question's length
            room = length - task_cfg["max_query_length"] - MOST_PAIR_SPECIALS
            if not 0 < stride <= room:
                raise ConfigError(
                    f"{key}.doc_stride",
                    f"run_squad windows start doc_stride sub-tokens apart: it must be between "
                    f"1 and {room} (max_length {length} less max_query_length "
                    f"{task_cfg['max_query_length']} and {MOST_PAIR_SPECIALS} special tokens), "
                    f"not {stride}",
                )
            return
        if stride + QUESTION_ROOM >= length:
            raise ConfigError(
                f"{key}.doc_stride",
                f"{stride} sub-tokens of overlap leave fewer than {QUESTION_ROOM} of a "
                f"{length}-token window for the question and new context",
            )


FAMILY_CLASSES = (QuestionAnswering,)
