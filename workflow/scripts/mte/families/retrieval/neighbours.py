"""Sentence retrieval without fine-tuning: Tatoeba nearest neighbours and BUCC bitext mining.

Embeddings are unit length, so cosine similarity is a dot product; the neighbours are the exact
search of mte.stats.ranking (blocked, bounded memory, ties to the lower index), shared with
LAReQA and Mewsli-X, so 20k x 20k sentences never sit in memory at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from mte.stats.ranking import exact_top_k

# Artetxe & Schwenk (2019): k nearest neighbours in each direction set the margin's scale
NEIGHBOURHOOD = 4


def nearest(queries: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Index of the most similar key of every query (cosine; ties go to the lower index)."""
    return exact_top_k(queries, keys, 1)[1][:, 0]


def xtreme_layer(num_hidden_layers: int, known: dict[int, int] | None = None) -> int:
    """The hidden-state index of the ``xtreme`` layer choice: XTREME's own for a depth its
    scripts name (``known``, a family's: Tatoeba's, BUCC's), else 7 for a 12-layer model and
    the middle layer otherwise (no XTREME choice: LAReQA, Mewsli-X, other depths)."""
    if known and num_hidden_layers in known:
        return known[num_hidden_layers]
    return 7 if num_hidden_layers == 12 else num_hidden_layers // 2


def resolve_layers(
    choices: Iterable[str | int],
    model_layer: int | None,
    num_layers: int,
    xtreme_layers: dict[int, int] | None = None,
) -> dict:
    """``{"model": 12, "xtreme": 8, "3": 3}``: each configured choice and the hidden-state
    index it pools (0 is the embedding output, ``num_layers`` the last layer)."""
    resolved = {}
    for choice in choices:
        if choice == "model":
            resolved["model"] = num_layers if model_layer is None else model_layer
        elif choice == "xtreme":
            resolved["xtreme"] = xtreme_layer(num_layers, xtreme_layers)
        else:
            layer = int(choice)
            if not 0 <= layer <= num_layers:
                raise ValueError(f"layer {layer} is outside 0..{num_layers}")
            resolved[str(layer)] = layer
    return resolved


def tatoeba_records(
    examples: list[dict[str, Any]], embeddings: dict[str, tuple[np.ndarray, np.ndarray]]
) -> list[dict[str, Any]]:
    """Per pair: the id of the English sentence nearest to its foreign sentence (``xx_to_en``,
    XTREME's direction) and of the foreign sentence nearest to its English one (``en_to_xx``),
    per layer choice. ``embeddings``: layer choice -> (foreign, English) matrices."""
    ids = [example["id"] for example in examples]
    records = [{"id": i, "xx_to_en": {}, "en_to_xx": {}} for i in ids]
    for choice, (foreign, english) in embeddings.items():
        for record, found in zip(records, nearest(foreign, english), strict=True):
            record["xx_to_en"][choice] = ids[found]
        for record, found in zip(records, nearest(english, foreign), strict=True):
            record["en_to_xx"][choice] = ids[found]
    return records


def margin_candidates(
    source: np.ndarray, target: np.ndarray, k: int = NEIGHBOURHOOD
) -> list[tuple[int, int, float]]:
    """Candidate pairs with their ratio-margin scores (Artetxe & Schwenk 2019, "max" retrieval).

    score(x, y) = cos(x, y) / (mean cos of x's k nearest targets / 2 + mean cos of y's k
    nearest sources / 2). Every source proposes its best-scoring target among its k nearest,
    every target its best source; the proposals are taken best first, skipping any whose source
    or target was already taken.
    """
    x2y_sim, x2y_ind = exact_top_k(source, target, k)
    y2x_sim, y2x_ind = exact_top_k(target, source, k)
    x2y_mean, y2x_mean = x2y_sim.mean(axis=1), y2x_sim.mean(axis=1)
    fwd = x2y_sim / ((x2y_mean[:, None] + y2x_mean[x2y_ind]) / 2)
    bwd = y2x_sim / ((y2x_mean[:, None] + x2y_mean[y2x_ind]) / 2)
    fwd_best = x2y_ind[np.arange(len(source)), fwd.argmax(axis=1)]
    bwd_best = y2x_ind[np.arange(len(target)), bwd.argmax(axis=1)]
    proposals = [
        *((float(fwd[i].max()), i, int(fwd_best[i])) for i in range(len(source))),
        *((float(bwd[j].max()), int(bwd_best[j]), j) for j in range(len(target))),
    ]
    # a stable sort on the score alone keeps forward proposals ahead of equal backward ones
    proposals.sort(key=lambda item: -item[0])
    taken_source, taken_target, candidates = set(), set(), []
    for score, i, j in proposals:
        if i not in taken_source and j not in taken_target:
            taken_source.add(i)
            taken_target.add(j)
            candidates.append((i, j, score))
    return candidates


def best_threshold(scored: list[tuple[Any, float]], gold: set) -> tuple[float, float]:
    """The score threshold that maximises F1 of the pairs scoring at least it (BUCC dev).

    ``scored``: (pair, score). Walking the pairs best first, each prefix is one threshold; the
    threshold returned lies halfway between the best prefix's last score and the next one, as
    LASER's and XTREME's BUCC scripts choose it. Returns (threshold, F1 there).
    """
    ranked = sorted(scored, key=lambda item: -item[1])
    correct, best_f1, threshold = 0, 0.0, float("inf")
    for extracted, (pair, score) in enumerate(ranked, start=1):
        correct += pair in gold
        if correct:
            precision, recall = correct / extracted, correct / len(gold)
            f1 = 2 * precision * recall / (precision + recall)
            if f1 > best_f1:
                best_f1 = f1
                following = ranked[extracted][1] if extracted < len(ranked) else score
                threshold = (score + following) / 2
    return threshold, best_f1


def mining_prf(scored: list[tuple[Any, float]], gold: set, threshold: float) -> dict[str, float]:
    """Precision, recall and F1 of the pairs scoring at least ``threshold`` against ``gold``."""
    extracted = {pair for pair, score in scored if score >= threshold}
    correct = len(extracted & gold)
    precision = correct / len(extracted) if extracted else 0.0
    recall = correct / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if correct else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}
