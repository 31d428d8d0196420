"""The dual encoder's family: a fine-tune on query-answer pairs that LAReQA and Mewsli-X embed
with (``encoder``). It lives beside the retrieval families: its readers share their text code
(LAReQA's sentence breaks, Mewsli-X's mention queries)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from mte.families.base import FineTuningFamily, ScoringFiles
from mte.tasks.spec import FamilyOptions, Task


@dataclass(frozen=True)
class DualEncoderOptions(FamilyOptions):
    # the pairs a task's files hold: "squad" (SQuAD v1.1 JSON: a question and its answer's
    # sentence with the paragraph, run_retrieval_qa.py) or "mention_entity" (Mewsli-X's
    # MentionEntityPair lines: a mention and its entity's description, run_retrieval_el.py)
    pairs: str = "squad"


class DualEncoder(FineTuningFamily):
    """A dual encoder's fine-tune on query-answer pairs, for a pooled retrieval task to embed
    with (``encoder``): LAReQA's on SQuAD v1.1, Mewsli-X's on Wikipedia's mention-entity
    pairs, as XTREME-R's run_retrieval_qa.py and run_retrieval_el.py train them
    (mte.families.retrieval.dual_encoder). A training set only: its tasks are never scored."""

    name = "dual_encoder"
    schema_def = "dual_encoder_task"
    options_type = DualEncoderOptions
    dual_encoder = True
    # never scored: no per-example statistics
    per_example_statistics = False
    # what its features hold besides the answers' max_length: the questions' own cut
    tokens_keys: ClassVar[tuple[str, ...]] = ("max_query_length",)

    def check_spec(self, task: Task) -> None:
        if task.options.pairs not in ("squad", "mention_entity"):
            raise ValueError(
                f"{task.name}: pairs {task.options.pairs!r} is not squad or mention_entity"
            )

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        if task.options.pairs == "mention_entity":
            from mte.families.retrieval.entity_links import read_mention_entity_pairs

            return read_mention_entity_pairs(paths[0], language)
        from mte.families.retrieval.dual_encoder import read_squad_pairs

        return read_squad_pairs(paths[0], language)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.retrieval.dual_encoder import squad_pairs_from_hub

        if task.options.pairs != "squad":
            return super().read_hub(task, dataset, name, language)
        return squad_pairs_from_hub(dataset, name, language)

    def tokenize(self, tokenizer: Any, examples: list[dict], task: Task, options: dict) -> dict:
        from mte.families.retrieval.dual_encoder import tokenize_pairs
        from mte.modelling.features import feature_header

        header = feature_header(tokenizer, examples, task, options["max_length"], ())
        return tokenize_pairs(tokenizer, examples, header, options)

    def model_head(self, task: Task) -> Any:
        from mte.families.retrieval.dual_encoder import DualEncoderHead

        return DualEncoderHead(task)

    def measure(self, task, pairs: list, files: ScoringFiles) -> dict[str, Any]:
        raise NotImplementedError(f"{task.title} is a training set only: it is never scored")

    def sufficient_statistics(self, task):
        return None

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        from mte.families.retrieval.dual_encoder import answer_text

        return [example["question"], answer_text(example)]
