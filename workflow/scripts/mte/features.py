"""Tokenisation of canonical examples into model-specific features (cached per language)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from mte.errors import InputError
from mte.tasks import Task

TOKENIZE_BATCH = 1000


def tokenize_pairs(
    tokenizer: Any, examples: list[dict[str, Any]], task: Task, max_length: int
) -> dict[str, Any]:
    """Encode ``text_a``/``text_b`` pairs, truncating the longer side first to ``max_length``.

    Returns plain lists (``ids``, ``input_ids``, optional ``token_type_ids``, ``labels`` as
    indices into ``task.labels``) and how many pairs were truncated, which the log reports.
    """
    label_index = {label: index for index, label in enumerate(task.labels)}
    features: dict[str, Any] = {
        "ids": [e["id"] for e in examples],
        "input_ids": [],
        "labels": [],
        "label_names": list(task.labels),
        "max_length": max_length,
    }
    keep_types = "token_type_ids" in tokenizer.model_input_names
    if keep_types:
        features["token_type_ids"] = []
    truncated = 0
    for start in range(0, len(examples), TOKENIZE_BATCH):
        batch = examples[start : start + TOKENIZE_BATCH]
        text_a = [e["text_a"] for e in batch]
        text_b = [e["text_b"] for e in batch]
        full = tokenizer(text_a, text_b, truncation=False)["input_ids"]
        encoded = tokenizer(text_a, text_b, truncation="longest_first", max_length=max_length)
        truncated += sum(len(ids) > max_length for ids in full)
        features["input_ids"].extend(encoded["input_ids"])
        if keep_types:
            features["token_type_ids"].extend(encoded["token_type_ids"])
    for position, example in enumerate(examples):
        if example["label"] not in label_index:
            raise InputError("<examples>", position + 1, f"unknown label {example['label']!r}")
        features["labels"].append(label_index[example["label"]])
    features["truncated"] = truncated
    return features


def save_features(features: dict[str, Any], path: str | Path) -> None:
    """Write features with ``torch.save`` (plain lists: loadable with ``weights_only``)."""
    from mte.io import atomic_path

    with atomic_path(path) as tmp:
        torch.save(features, tmp)


def load_features(path: str | Path) -> dict[str, Any]:
    """Read features written by :func:`save_features`."""
    return torch.load(path, weights_only=True)
