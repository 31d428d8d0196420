"""Multiple-choice examples into model features: every choice's input, joined as the spec's
templates say and encoded as a pair (the longer segment truncated first)."""

from __future__ import annotations

from typing import Any

from mte.modelling.features import encode_pairs, feature_header
from mte.tasks.spec import Task


def choice_inputs(task: Task, example: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The first and second segments of each choice's input."""
    options = task.options
    first = options.first.format(**example)
    seconds = [options.second.format(**example, choice=choice) for choice in example["choices"]]
    return [first] * len(seconds), seconds


def tokenize_choices(
    tokenizer: Any, examples: list[dict[str, Any]], task: Task, max_length: int
) -> dict[str, Any]:
    """Per example, the encoded input of each choice (``input_ids``: examples x choices x
    sub-tokens), the index of the right choice, and how many examples truncation cut."""
    features = feature_header(tokenizer, examples, task, max_length, ())
    features.update(input_ids=[], labels=[e["label"] for e in examples])
    keep_types = "token_type_ids" in tokenizer.model_input_names
    if keep_types:
        features["token_type_ids"] = []
    truncated = 0
    for example in examples:
        firsts, seconds = choice_inputs(task, example)
        encoded, cut = encode_pairs(tokenizer, firsts, seconds, max_length)
        truncated += any(cut)
        features["input_ids"].append(encoded["input_ids"])
        if keep_types:
            features["token_type_ids"].append(encoded["token_type_ids"])
    features["truncated"] = truncated
    return features
