"""Materialise one task x language x split from its source into canonical examples."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from mte.errors import ConfigError
from mte.io import sha256_file
from mte.readers.hub import load_hub_split, pair_examples_from_hub
from mte.readers.pairs import read_pairs
from mte.tasks import Task

# Where each split lies in a task's released layouts, tried in order ({lang} is filled in).
FILE_CANDIDATES: dict[str, dict[str, tuple[str, ...]]] = {
    "pair_classification": {
        # XTREME's processed files; MultiNLI (the XNLI English training set); the original
        # XNLI 1.0 release with a language column.
        "train": (
            "train-{lang}.tsv",
            "multinli_1.0_train.jsonl",
            "multinli_1.0_train.txt",
            "train.tsv",
        ),
        "dev": ("dev-{lang}.tsv", "xnli.dev.tsv"),
        "test": ("test-{lang}.tsv", "xnli.test.tsv"),
    },
}


def demo_dir(task: Task) -> Path:
    """The folder of the demo data shipped inside the package for ``task``."""
    return Path(str(resources.files("mte") / "demo" / task.name))


def candidate_files(task: Task, task_cfg: dict[str, Any], language: str, split: str) -> list[Path]:
    """The files that may hold ``split`` of ``language``, in the order they are tried."""
    if task_cfg["source"] == "demo":
        return [demo_dir(task) / f"{split}-{language}.tsv"]
    base = Path(task_cfg.get("path") or ".")
    explicit = (task_cfg.get("files") or {}).get(split)
    templates = (explicit,) if explicit else FILE_CANDIDATES[task.family][split]
    return [base / template.format(lang=language) for template in templates]


def resolve_file(task: Task, task_cfg: dict[str, Any], language: str, split: str) -> Path:
    """The first existing candidate file, or a :class:`ConfigError` naming what was tried."""
    candidates = candidate_files(task, task_cfg, language, split)
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    key = f"tasks.{task.name}.{'files' if task_cfg.get('files') else 'path'}"
    if task_cfg["source"] == "demo":
        key = f"tasks.{task.name}.languages"
    tried = ", ".join(str(c) for c in candidates)
    raise ConfigError(
        key, f"no {split} file for {task.title} language '{language}' (looked for: {tried})"
    )


def materialize(
    task: Task, task_cfg: dict[str, Any], language: str, split: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Read ``split`` of ``language`` from the task's configured source.

    Returns the canonical examples and a provenance record (source, file and checksum, or hub
    id, config and revision).
    """
    source = task_cfg["source"]
    if source in ("demo", "files"):
        path = resolve_file(task, task_cfg, language, split)
        examples = read_pairs(path, task, language)
        origin = {"source": source, "file": str(path), "sha256": sha256_file(path)}
    elif source == "hub":
        hub_split = task.hub_splits[split]
        revision = task_cfg.get("revision")
        dataset = load_hub_split(task.hub_id, language, hub_split, revision)
        examples = pair_examples_from_hub(dataset, task)
        origin = {
            "source": "hub",
            "id": task.hub_id,
            "config": language,
            "split": hub_split,
            "revision": revision,
            "fingerprint": getattr(dataset, "_fingerprint", None),
        }
    else:
        raise ConfigError(f"tasks.{task.name}.source", f"unknown source '{source}'")
    return examples, origin
