"""LAReQA's family: each language's questions search one pool of every configured language's
answer sentences; mAP@20."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from mte.families.base import PooledRetrievingFamily, ScoringFiles
from mte.tasks.spec import Task


class AnswerRetrieval(PooledRetrievingFamily):
    """LAReQA: each language's questions search one pool of every configured language's
    answer sentences (each with its paragraph), embedded once by the pool job; mAP@20 as
    XTREME-R's utils_lareqa computes it (mte.families.retrieval.answers)."""

    name = "answer_retrieval"
    schema_def = "retrieval_task"
    # evaluate.py lists no language of LAReQA: it reads no file of it
    submission_suffix: ClassVar[str | None] = None
    # XTREME-R scores a fine-tuned dual encoder's output here: no XTREME layer of its own
    xtreme_layers: ClassVar[dict[int, int]] = {}

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.answers import read_xquad_r

        return read_xquad_r(paths[0], language)

    def retrieve(self, model_dir, splits: dict[str, list], options: dict) -> list[dict]:
        """Each question's ranking of the pool (``options["pool"]``: its embedded files)."""
        from mte.families.retrieval.search import retrieve_answers

        return retrieve_answers(model_dir, splits, {**options, "xtreme_layers": self.xtreme_layers})

    def build_pool(self, model_dir, inputs: list, languages: list, options: dict) -> dict:
        """The pool's candidates, each question id's answers and the candidates' vectors per
        layer choice (mte.families.retrieval.search.embed_answer_pool), from every configured
        language's data (``inputs``, in the order of ``languages``)."""
        from mte.families.retrieval.search import embed_answer_pool
        from mte.io import read_jsonl

        per_language = {
            language: read_jsonl(path) for language, path in zip(languages, inputs, strict=True)
        }
        return embed_answer_pool(model_dir, per_language, options)

    def measure(self, task, pairs: list, files: ScoringFiles) -> dict[str, Any]:
        from mte.families.retrieval.answers import measure_answers

        return measure_answers(task, pairs, files.predictions)

    def sufficient_statistics(self, task):
        from mte.stats.metrics import Means

        return Means(task.primary_metric)  # a question's average precision

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        return [example["question"], *example["sentences"]]
