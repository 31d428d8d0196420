"""What every family's features share: the header (task, ids, labels, padding id), pair
encoding with truncation counts, and saving, loading and joining feature files. Each family
tokenises its own examples (mte.families.<family>.features)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from mte.taskspec import Task

TOKENIZE_BATCH = 1000


def feature_header(
    tokenizer: Any, examples: list[dict[str, Any]], task: Task, max_length: int, label_names
) -> dict[str, Any]:
    """What every family's features begin with: the task, the example ids, the label names
    and the padding id (so that fine-tuning and prediction pad without loading the tokenizer,
    which takes seconds)."""
    return {
        "family": task.family,
        "task": task.name,
        "ids": [e["id"] for e in examples],
        "label_names": list(label_names),
        "max_length": max_length,
        "pad_id": tokenizer.pad_token_id,
    }


def encode_pairs(
    tokenizer: Any, text_a: list[str], text_b: list[str] | None, max_length: int
) -> tuple[Any, list[bool]]:
    """Encode sentence pairs (or single sentences), the longer side truncated first, and say
    which of them truncation cut."""
    encoded = tokenizer(text_a, text_b, truncation="longest_first", max_length=max_length)
    encodings = getattr(encoded, "encodings", None)
    if encodings is not None:  # a fast tokenizer keeps what truncation cut off
        return encoded, [bool(encoding.overflowing) for encoding in encodings]
    full = tokenizer(text_a, text_b, truncation=False)["input_ids"]
    return encoded, [len(ids) > max_length for ids in full]


def concat_features(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Several languages' features as one training set (multilingual fine-tuning)."""
    if len(parts) == 1:
        return parts[0]
    merged = {key: value for key, value in parts[0].items() if not isinstance(value, list)}
    merged["label_names"] = parts[0]["label_names"]
    offset = 0
    for part in parts:
        if part["label_names"] != merged["label_names"]:
            raise ValueError("features with different label sets cannot be concatenated")
        for key, value in part.items():
            if isinstance(value, list) and key != "label_names":
                if key == "window_example":
                    value = [index + offset for index in value]
                merged.setdefault(key, []).extend(value)
        offset += len(part["ids"])
    return merged


def save_features(features: dict[str, Any], path: str | Path) -> None:
    """Write features with ``torch.save`` (plain lists: loadable with ``weights_only``)."""
    from mte.io import atomic_path

    with atomic_path(path) as tmp:
        torch.save(features, tmp)


def load_features(path: str | Path) -> dict[str, Any]:
    """Read features written by :func:`save_features`."""
    return torch.load(path, weights_only=True)
