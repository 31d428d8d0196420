"""Sentence(-pair) examples into model features."""

from __future__ import annotations

from typing import Any

from mte.errors import InputError
from mte.modelling.features import TOKENIZE_BATCH, encode_pairs, feature_header
from mte.tasks.spec import Task


def tokenize_pairs(
    tokenizer: Any,
    examples: list[dict[str, Any]],
    task: Task,
    max_length: int,
    float_labels: bool = False,
    truncation: str = "fast",
) -> dict[str, Any]:
    """Encode ``text_a``/``text_b`` pairs (or single sentences, ``text_b`` None), truncating
    the longer side first to ``max_length``.

    Returns plain lists (``ids``, ``input_ids``, optional ``token_type_ids``, ``labels`` as
    indices into ``task.labels``, or with ``float_labels`` the float scores of a regression
    task) and how many inputs were truncated, which the log reports. ``truncation``: see
    :func:`mte.modelling.features.encode_pairs`.
    """
    label_index = {label: index for index, label in enumerate(task.labels)}
    features = feature_header(tokenizer, examples, task, max_length, task.labels)
    features.update(input_ids=[], labels=[])
    keep_types = "token_type_ids" in tokenizer.model_input_names
    if keep_types:
        features["token_type_ids"] = []
    truncated = 0
    for start in range(0, len(examples), TOKENIZE_BATCH):
        batch = examples[start : start + TOKENIZE_BATCH]
        text_a = [e["text_a"] for e in batch]
        pairs = [e.get("text_b") for e in batch]
        if any(b is None for b in pairs) and any(b is not None for b in pairs):
            raise InputError("<examples>", start + 1, "mixes sentence pairs and single sentences")
        text_b = None if pairs and pairs[0] is None else pairs
        encoded, cut = encode_pairs(tokenizer, text_a, text_b, max_length, truncation)
        truncated += sum(cut)
        features["input_ids"].extend(encoded["input_ids"])
        if keep_types:
            features["token_type_ids"].extend(encoded["token_type_ids"])
    for position, example in enumerate(examples):
        if float_labels:
            features["labels"].append(float(example["label"]))
            continue
        if example["label"] not in label_index:
            raise InputError("<examples>", position + 1, f"unknown label {example['label']!r}")
        features["labels"].append(label_index[example["label"]])
    features["truncated"] = truncated
    return features
