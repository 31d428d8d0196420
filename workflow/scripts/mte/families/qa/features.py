"""Questions and contexts into model features: windows of a long context, overlapping."""

from __future__ import annotations

from typing import Any

from mte.modelling.features import TOKENIZE_BATCH, feature_header
from mte.tasks.spec import Task


def _answer_tokens(
    offsets: list, sequence_ids: list, start_char: int, end_char: int
) -> tuple[int, int] | None:
    """First and last context token of the answer's characters, or None when the window
    does not hold the whole answer."""
    context = [i for i, s in enumerate(sequence_ids) if s == 1]
    first, last = context[0], context[-1]
    if not (offsets[first][0] <= start_char and offsets[last][1] >= end_char):
        return None
    start = first
    while start <= last and offsets[start][0] <= start_char:
        start += 1
    end = last
    while end >= first and offsets[end][1] >= end_char:
        end -= 1
    return start - 1, end + 1


def tokenize_qa(
    tokenizer: Any,
    examples: list[dict[str, Any]],
    task: Task,
    max_length: int,
    doc_stride: int,
    training: bool,
) -> dict[str, Any]:
    """Question + context windows of at most ``max_length`` sub-tokens, consecutive windows
    overlapping by ``doc_stride`` sub-tokens, so every part of a long context is seen.

    For training, only windows that hold the (first) gold answer are kept, labelled with its
    first and last token; for prediction every window is kept with the character offsets of
    its context tokens, to map a predicted span back to the original text.
    """
    features: dict[str, Any] = {
        **feature_header(tokenizer, examples, task, max_length, ()),
        "contexts": [e["context"] for e in examples],
        "answers": [e["answers"]["text"] for e in examples],
        "input_ids": [],
        "window_example": [],
        "offsets": [],
        "start_positions": [],
        "end_positions": [],
    }
    for begin in range(0, len(examples), TOKENIZE_BATCH):
        batch = examples[begin : begin + TOKENIZE_BATCH]
        encoded = tokenizer(
            [e["question"] for e in batch],
            [e["context"] for e in batch],
            truncation="only_second",
            max_length=max_length,
            stride=doc_stride,
            return_overflowing_tokens=True,
            return_offsets_mapping=True,
        )
        for window, local in enumerate(encoded["overflow_to_sample_mapping"]):
            example = batch[local]
            offsets = encoded["offset_mapping"][window]
            sequence_ids = encoded.sequence_ids(window)
            if training:
                answers = example["answers"]
                if not answers["text"]:
                    continue
                start_char = answers["answer_start"][0]
                span = _answer_tokens(
                    offsets, sequence_ids, start_char, start_char + len(answers["text"][0])
                )
                if span is None:
                    continue
                features["start_positions"].append(span[0])
                features["end_positions"].append(span[1])
            features["input_ids"].append(encoded["input_ids"][window])
            features["window_example"].append(begin + local)
            features["offsets"].append(
                [list(o) if s == 1 else None for o, s in zip(offsets, sequence_ids, strict=True)]
            )
    return features
