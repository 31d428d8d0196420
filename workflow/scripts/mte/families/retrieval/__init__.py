"""Retrieval with the pretrained encoder, no fine-tuning: Tatoeba (nearest neighbour accuracy)
and BUCC 2018 (bitext mining F1, its threshold set on the dev split)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.families.base import TaskFamily
from mte.taskspec import Task


class Retrieval(TaskFamily):
    name = "retrieval"
    schema_def = "retrieval_task"
    retrieval = True

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.readers import read_tatoeba

        return read_tatoeba(paths[0])

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.retrieval.readers import tatoeba_from_hub

        return tatoeba_from_hub(dataset, name)

    def companion_files(self, task, path: Path) -> list[Path]:
        from mte.families.retrieval.readers import TATOEBA_SIBLINGS, siblings

        return siblings(path, TATOEBA_SIBLINGS)

    # the function of mte.families.retrieval.search that embeds and searches a task's splits
    search: str = "retrieve_tatoeba"

    def retrieve(self, model_dir, splits: dict[str, list], options: dict) -> list[dict]:
        """Nearest neighbours (Tatoeba: ``splits`` holds the evaluated split) or candidate
        pairs of every split (BUCC: dev sets the threshold the evaluated split uses)."""
        from mte.families.retrieval import search

        return getattr(search, self.search)(model_dir, splits, options)

    def measure(self, task, pairs: list, paths: dict) -> dict[str, Any]:
        from mte.families.retrieval.scoring import measure_neighbours

        return measure_neighbours(task, pairs, paths["predictions"])

    def sufficient_statistics(self, task):
        from mte.metrics import Means

        return Means("accuracy")  # a hit per sentence

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        return [example[f] for f in ("text_a", "text_b", "text") if isinstance(example.get(f), str)]


class Mining(Retrieval):
    name = "mining"
    extra_eval_splits = ("dev",)
    per_example_statistics = False
    search = "mine_bucc"

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.readers import read_bucc

        return read_bucc(paths[0])

    def companion_files(self, task, path: Path) -> list[Path]:
        from mte.families.retrieval.readers import BUCC_SIBLINGS, siblings

        return siblings(path, BUCC_SIBLINGS)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        from mte.families.retrieval.readers import bucc_from_hub

        return bucc_from_hub(dataset, name, language)

    def align(self, predictions: list[dict], gold: list[dict], paths: dict) -> list:
        """Candidate pairs are not gold examples one to one: the split's records and the
        candidates are one pair, each candidate checked against its split's sentences when
        measured."""
        if "dev_gold" not in paths:
            raise ValueError("BUCC scoring needs the dev split")
        return [(gold, predictions)]

    def measure(self, task, pairs: list, paths: dict) -> dict[str, Any]:
        from mte.families.retrieval.scoring import measure_mining

        ((gold, candidates),) = pairs
        return measure_mining(
            task,
            candidates,
            gold,
            paths["dev_gold"],
            paths["predictions"],
            paths["gold"],
            paths["dev_gold_path"],
            paths["eval_split"],
        )

    def sufficient_statistics(self, task):
        return None  # F1 at a threshold chosen on dev: no per-example decomposition


class AnswerRetrieval(Retrieval):
    """LAReQA: each language's questions search one pool of every configured language's
    answer sentences (each with its paragraph), embedded once by the pool job; mAP@20 as
    XTREME-R's utils_lareqa computes it (mte.families.retrieval.answers)."""

    name = "answer_retrieval"
    pooled = True
    search = "retrieve_answers"

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.answers import read_xquad_r

        return read_xquad_r(paths[0], language)

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        raise NotImplementedError(f"{task.title} is read from its released files only")

    def companion_files(self, task, path: Path) -> list[Path]:
        return []

    def build_pool(self, model_dir, per_language: dict[str, list], options: dict) -> dict:
        """The pool's candidates, each question id's answers and the candidates' vectors per
        layer choice (mte.families.retrieval.search.embed_answer_pool)."""
        from mte.families.retrieval.search import embed_answer_pool

        return embed_answer_pool(model_dir, per_language, options)

    def measure(self, task, pairs: list, paths: dict) -> dict[str, Any]:
        from mte.families.retrieval.answers import measure_answers

        return measure_answers(task, pairs, paths["predictions"])

    def sufficient_statistics(self, task):
        from mte.metrics import Means

        return Means(task.primary_metric)  # a question's average precision

    def segments(self, task: Task, example: dict[str, Any]) -> list[str]:
        return [example["question"], *example["sentences"]]


FAMILY_CLASSES = (
    Retrieval,
    Mining,
    AnswerRetrieval,
)
