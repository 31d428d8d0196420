"""What every family's features share: the header (task, ids, labels, padding id), the
tokenizer's pair layout (special tokens around and between two segments), pair encoding with
truncation counts, and saving, loading and joining feature files. Each family
tokenises its own examples (mte.families.<family>.features)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from mte.hub.sentencepiece import native_pieces
from mte.tasks.spec import Task

TOKENIZE_BATCH = 1000


@dataclass(frozen=True)
class PairTemplate:
    """Where a tokenizer puts its special tokens around a (question, context) pair:
    ``prefix + question + middle + context + suffix``, and the segment id of each part (None
    when the model takes no segment ids)."""

    prefix: list[int]
    middle: list[int]
    suffix: list[int]
    segments: tuple[int, int, int, int, int] | None

    @property
    def added(self) -> int:
        return len(self.prefix) + len(self.middle) + len(self.suffix)

    def context_offset(self, question_length: int) -> int:
        """Position of the first context sub-token in a window."""
        return len(self.prefix) + question_length + len(self.middle)

    def ids(self, question: list[int], context: list[int]) -> list[int]:
        return [*self.prefix, *question, *self.middle, *context, *self.suffix]

    def segment_ids(self, question: list[int], context: list[int]) -> list[int] | None:
        if self.segments is None:
            return None
        lengths = (len(self.prefix), len(question), len(self.middle), len(context))
        lengths += (len(self.suffix),)
        return [s for s, n in zip(self.segments, lengths, strict=True) for _ in range(n)]


def pair_template(tokenizer: Any) -> PairTemplate:
    """The tokenizer's pair layout, read off the encoding of a one-word pair (transformers 5's
    fast tokenizers no longer expose ``build_inputs_with_special_tokens``)."""
    first = tokenizer("a", add_special_tokens=False)["input_ids"]
    second = tokenizer("b", add_special_tokens=False)["input_ids"]
    encoded = tokenizer("a", "b")
    ids = list(encoded["input_ids"])
    at_first = next(i for i in range(len(ids)) if ids[i : i + len(first)] == first)
    after_first = at_first + len(first)
    at_second = next(i for i in range(after_first, len(ids)) if ids[i : i + len(second)] == second)
    after_second = at_second + len(second)
    segments = None
    if "token_type_ids" in tokenizer.model_input_names and "token_type_ids" in encoded:
        types = list(encoded["token_type_ids"])
        segments = (
            types[0] if at_first else 0,
            types[at_first],
            types[after_first] if at_second > after_first else types[at_first],
            types[at_second],
            types[after_second] if after_second < len(ids) else types[at_second],
        )
    return PairTemplate(ids[:at_first], ids[after_first:at_second], ids[after_second:], segments)


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


def kept_lengths(first: int, second: int | None, remove: int) -> tuple[int, int | None]:
    """How many sub-tokens of each side transformers 2.x's ``longest_first`` truncation keeps
    when ``remove`` must go: one at a time from the longer side, from the second when the two
    are equal (``truncate_sequences``; the fast tokenizers share the cut between the sides
    differently when it is odd)."""
    for _ in range(max(remove, 0)):
        if second is None or first > second:
            first -= 1
        else:
            second -= 1
    return first, second


def _encode_as_transformers2(
    tokenizer: Any, text_a: list[str], text_b: list[str] | None, max_length: int
) -> tuple[dict[str, list], list[bool]]:
    """Pairs encoded whole, then cut as :func:`kept_lengths` says, special tokens kept."""
    native = native_pieces(tokenizer)
    if native is not None and "token_type_ids" not in tokenizer.model_input_names:
        return _native_transformers2(tokenizer, native, text_a, text_b, max_length)
    full = tokenizer(text_a, text_b, truncation=False)
    encoded: dict[str, list] = {key: [] for key in ("input_ids", "token_type_ids") if key in full}
    cut = []
    for index, encoding in enumerate(full.encodings):
        sides = encoding.sequence_ids
        lengths = (sides.count(0), sides.count(1) if text_b is not None else None)
        keep = kept_lengths(*lengths, len(sides) - max_length)
        seen = [0, 0]
        positions = []
        for position, side in enumerate(sides):
            if side is not None:
                seen[side] += 1
                if seen[side] > keep[side]:
                    continue
            positions.append(position)
        for key, values in encoded.items():
            values.append([full[key][index][p] for p in positions])
        cut.append(len(positions) < len(sides))
    return encoded, cut


def _native_transformers2(
    tokenizer: Any, native: Any, text_a: list[str], text_b: list[str] | None, max_length: int
) -> tuple[dict[str, list], list[bool]]:
    """:func:`_encode_as_transformers2` from the native pieces of each side (one pass of the
    SentencePiece library each) and the tokenizer's layout: the same ids."""
    firsts = native.encode(text_a)
    if text_b is None:
        prefix, suffix = single_layout(tokenizer)
        seconds, middle = [None] * len(firsts), []
    else:
        template = pair_template(tokenizer)
        prefix, middle, suffix = template.prefix, template.middle, template.suffix
        seconds = native.encode(text_b)
    added = len(prefix) + len(middle) + len(suffix)
    input_ids, cut = [], []
    for first, second in zip(firsts, seconds, strict=True):
        total = added + len(first) + (len(second) if second is not None else 0)
        keep_first, keep_second = kept_lengths(
            len(first), len(second) if second is not None else None, total - max_length
        )
        ids = [*prefix, *first[: max(keep_first, 0)]]
        if second is not None:
            ids += [*middle, *second[: max(keep_second, 0)]]
        input_ids.append(ids + suffix)
        cut.append(total > max_length)
    return {"input_ids": input_ids}, cut


@functools.lru_cache(maxsize=8)
def single_layout(tokenizer: Any) -> tuple[list[int], list[int]]:
    """The special tokens an encoder's tokenizer puts before and after one sequence, read off
    the encoding of a one-word text; read once per tokenizer (LAReQA embeds its texts one at
    a time, and the two encodings would cost more than the text's own)."""
    word = tokenizer("a", add_special_tokens=False)["input_ids"]
    ids = list(tokenizer("a")["input_ids"])
    at = next(i for i in range(len(ids)) if ids[i : i + len(word)] == word)
    return ids[:at], ids[at + len(word) :]


def encode_pairs(
    tokenizer: Any,
    text_a: list[str],
    text_b: list[str] | None,
    max_length: int,
    truncation: str = "fast",
) -> tuple[Any, list[bool]]:
    """Encode sentence pairs (or single sentences), the longer side truncated first, and say
    which of them truncation cut. ``truncation``: ``fast`` as the fast tokenizer cuts,
    ``transformers2`` as XTREME's run_classify.py cut (:func:`kept_lengths`)."""
    if truncation == "transformers2":
        return _encode_as_transformers2(tokenizer, text_a, text_b, max_length)
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
