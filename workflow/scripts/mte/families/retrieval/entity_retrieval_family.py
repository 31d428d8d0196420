"""Mewsli-X's family: each language's mentions search the candidate set of entity descriptions;
the reciprocal rank at 20 that XTREME-R reports as mAP@20."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from mte.families.retrieval.answer_retrieval_family import AnswerRetrieval


class EntityRetrieval(AnswerRetrieval):
    """Mewsli-X: each language's mentions search the candidate set (about a million entity
    descriptions in the release), embedded once by the pool job; the mean reciprocal rank at
    20 that XTREME-R reports as mAP@20 (mte.families.retrieval.entity_links)."""

    name = "entity_retrieval"
    pool_file = "candidate_set_entities.jsonl"
    # {"mention id": [20 entity ids]}
    submission_suffix: ClassVar[str | None] = "json"

    def retrieve(self, model_dir, splits: dict[str, list], options: dict) -> list[dict]:
        """Each mention's ranking of the candidate set (``options["pool"]``)."""
        from mte.families.retrieval.search import retrieve_entities

        return retrieve_entities(
            model_dir, splits, {**options, "xtreme_layers": self.xtreme_layers}
        )

    def submission_predictions(self, task, predictions, gold, score) -> str:
        from mte.families.retrieval.submission import entity_predictions

        return entity_predictions(predictions, gold)

    def submission_labels(self, task, gold) -> str:
        from mte.families.retrieval.submission import entity_labels

        return entity_labels(gold)

    def score_submission(self, task, labels, predictions, language):
        from mte.families.retrieval.submission import score_entity_files

        return score_entity_files(labels, predictions)

    def read_files(self, task, paths: list[Path], language: str, split: str) -> list[dict]:
        from mte.families.retrieval.entity_links import read_entity_links, read_mentions

        labels = self.companion_files(task, paths[0])
        gold = read_entity_links(labels[0]) if labels else None
        return read_mentions(paths[0], language, gold)

    def companion_files(self, task, path: Path) -> list[Path]:
        """XTREME-R's processed mentions (wikinews_mentions/{split}-{lang}.jsonl) keep the
        test labels apart: wikinews_labels/{split}-{lang}.json beside their folder."""
        labels = path.parent.parent / "wikinews_labels" / f"{path.stem}.json"
        return [labels] if path.parent.name == "wikinews_mentions" and labels.is_file() else []

    def build_pool(self, model_dir, inputs: list, languages: list, options: dict) -> dict:
        from mte.families.retrieval.search import embed_entity_pool
        from mte.io import sha256_file

        pool = embed_entity_pool(model_dir, inputs[0], options)
        pool["source"] = {"file": str(inputs[0]), "sha256": sha256_file(inputs[0])}
        return pool

    def check_task_config(self, task, task_cfg: dict[str, Any], key: str) -> None:
        from mte.errors import ConfigError

        candidates = Path(task_cfg.get("path") or ".") / self.pool_file
        if task_cfg.get("source") == "files" and not candidates.is_file():
            raise ConfigError(
                f"{key}.path",
                f"{task.title} searches the candidate set {candidates}, which does not exist "
                "(get-mewsli-x.sh writes it beside the mention files)",
            )
