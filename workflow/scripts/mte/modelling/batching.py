"""Padding features into tensors, and the length-sorted order used for inference."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch


def collate(
    features: dict[str, Any], indices: Sequence[int], pad_id: int
) -> dict[str, torch.Tensor]:
    """Pad the examples at ``indices`` to the longest of them (padding per batch, not global)."""
    input_ids, attention_mask = pad_rows([features["input_ids"][i] for i in indices], pad_id)
    width = input_ids.shape[1]
    batch = {"input_ids": input_ids, "attention_mask": attention_mask}
    if "token_type_ids" in features:
        token_types = torch.zeros((len(indices), width), dtype=torch.long)
        for r, i in enumerate(indices):
            row = features["token_type_ids"][i]
            token_types[r, : len(row)] = torch.tensor(row, dtype=torch.long)
        batch["token_type_ids"] = token_types
    return batch


def pad_rows(rows: list[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Token id rows padded to the longest of them, and their attention mask."""
    width = max(len(row) for row in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for r, row in enumerate(rows):
        ids[r, : len(row)] = torch.tensor(row, dtype=torch.long)
        mask[r, : len(row)] = 1
    return ids, mask


def length_sorted_batches(
    features: dict[str, Any],
    batch_size: int,
    length: Callable[[Any], int] = len,
    longest_first: bool = False,
) -> list[list[int]]:
    """Batches of indices in order of length, so that little compute goes into padding.
    ``length`` measures one example's ``input_ids`` (several sequences for multiple choice);
    ``longest_first``: the longest batch first, so that one too long for the device's memory
    fails at once, not at the end (prompting's long contexts)."""
    ids = features["input_ids"]
    order = sorted(
        range(len(ids)), key=lambda i: -length(ids[i]) if longest_first else length(ids[i])
    )
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]
