"""Tokenisation of canonical examples into model-specific features (cached per language)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from mte.errors import InputError
from mte.families import family_of
from mte.tasks import Task

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


def tokenize_pairs(
    tokenizer: Any, examples: list[dict[str, Any]], task: Task, max_length: int
) -> dict[str, Any]:
    """Encode ``text_a``/``text_b`` pairs (or single sentences, ``text_b`` None), truncating
    the longer side first to ``max_length``.

    Returns plain lists (``ids``, ``input_ids``, optional ``token_type_ids``, ``labels`` as
    indices into ``task.labels``, or float scores for a regression task) and how many inputs
    were truncated, which the log reports.
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
        encoded, cut = encode_pairs(tokenizer, text_a, text_b, max_length)
        truncated += sum(cut)
        features["input_ids"].extend(encoded["input_ids"])
        if keep_types:
            features["token_type_ids"].extend(encoded["token_type_ids"])
    for position, example in enumerate(examples):
        if family_of(task).float_labels:
            features["labels"].append(float(example["label"]))
            continue
        if example["label"] not in label_index:
            raise InputError("<examples>", position + 1, f"unknown label {example['label']!r}")
        features["labels"].append(label_index[example["label"]])
    features["truncated"] = truncated
    return features


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


def _word_pieces(tokenizer: Any, words: list[str]) -> list[list[int]]:
    """Sub-token ids of each word, as the tokenizer splits a pre-split sentence.

    A word that tokenizes to nothing (e.g. a control character the normaliser deletes) gets
    the unknown token, so that every word has a position to carry its label and prediction.
    """
    encoded = tokenizer(words, is_split_into_words=True, add_special_tokens=False)
    pieces: list[list[int]] = [[] for _ in words]
    for token_id, word in zip(encoded["input_ids"], encoded.word_ids(), strict=True):
        if word is not None:
            pieces[word].append(token_id)
    for word_pieces in pieces:
        if not word_pieces:
            word_pieces.append(tokenizer.unk_token_id)
    return pieces


def _empty_piece_ids(tokenizer: Any) -> set[int]:
    """Ids of pieces with no surface form: the bare SentencePiece word marker."""
    marker = tokenizer.convert_tokens_to_ids("\u2581")
    return {marker} if marker is not None and marker != tokenizer.unk_token_id else set()


def tokenize_tagging(
    tokenizer: Any,
    examples: list[dict[str, Any]],
    task: Task,
    max_length: int,
    label_subword: str = "first",
) -> dict[str, Any]:
    """Encode tagged sentences into windows of at most ``max_length`` sub-tokens.

    Each word's label sits on one sub-token (the first, or with ``first_nonempty`` the first
    that is not a bare word marker); other sub-tokens get -100 and are ignored by the loss. A
    sentence longer than a window is split between words into consecutive windows, so every
    word is labelled and predicted exactly once; nothing is truncated, except the sub-tokens
    after the first of a single word longer than a whole window.
    """
    tag_index = {tag: index for index, tag in enumerate(task.labels)}
    empty = _empty_piece_ids(tokenizer) if label_subword == "first_nonempty" else set()
    room = max_length - 2  # <s> ... </s>
    features: dict[str, Any] = {
        **feature_header(tokenizer, examples, task, max_length, task.labels),
        "label_subword": label_subword,
        "word_labels": [],
        "input_ids": [],
        "labels": [],
        "window_example": [],
        "window_positions": [],
    }
    split_sentences = 0
    for index, example in enumerate(examples):
        if len(example["tokens"]) != len(example["tags"]):
            raise InputError("<examples>", index + 1, "tokens and tags differ in number")
        word_labels = [tag_index[tag] for tag in example["tags"]]
        features["word_labels"].append(word_labels)
        pieces = _word_pieces(tokenizer, example["tokens"])
        windows, current, used = [], [], 0
        for word, word_pieces in enumerate(pieces):
            word_pieces = word_pieces[:room]
            pieces[word] = word_pieces
            if current and used + len(word_pieces) > room:
                windows.append(current)
                current, used = [], 0
            current.append(word)
            used += len(word_pieces)
        if current or not pieces:
            windows.append(current)
        split_sentences += len(windows) > 1
        for words in windows:
            input_ids = [tokenizer.cls_token_id]
            labels = [-100]
            positions = []
            for word in words:
                word_pieces = pieces[word]
                offset = next((i for i, piece in enumerate(word_pieces) if piece not in empty), 0)
                positions.append(len(input_ids) + offset)
                labels += [-100] * len(word_pieces)
                labels[positions[-1]] = word_labels[word]
                input_ids += word_pieces
            input_ids.append(tokenizer.sep_token_id)
            labels.append(-100)
            features["input_ids"].append(input_ids)
            features["labels"].append(labels)
            features["window_example"].append(index)
            features["window_positions"].append(positions)
    features["split_sentences"] = split_sentences
    return features


def tokenize_examples(
    tokenizer: Any,
    examples: list[dict[str, Any]],
    task: Task,
    max_length: int,
    label_subword: str = "first",
    doc_stride: int = 128,
    training: bool = False,
) -> dict[str, Any]:
    """Features of the task's family (``training``: the split that fine-tunes)."""
    options = {
        "max_length": max_length,
        "label_subword": label_subword,
        "doc_stride": doc_stride,
        "training": training,
    }
    return family_of(task).tokenize(tokenizer, examples, task, options)


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
