"""Ranking metrics of the retrieval benchmarks that rank a pool per query, each question's value
its own (the per-example statistic behind an interval):

- average precision at k, LAReQA's (Roy et al. 2020; XTREME-R's ``utils_lareqa``): the ranking
  cut to its first k, each relevant item counted at its first place only, the sum of the
  precisions at the hits divided by the number of relevant items or k, whichever is smaller;
- reciprocal rank at k, Mewsli-X's (XTREME-R's ``utils_mewslix``, which its ``evaluate.py``
  reports as "map@20": with one gold entity per mention, average precision is the reciprocal
  rank): one over the place of the gold entity among the first k, 0 if it is not there.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence

import numpy as np


def average_precision_at_k(
    relevant: Collection[Hashable], ranking: Sequence[Hashable], k: int
) -> float:
    """LAReQA's AP@k of one query: ``relevant`` the items that answer it (at least one),
    ``ranking`` the retrieved items, best first."""
    if not relevant:
        raise ValueError("average precision needs at least one relevant item")
    top = list(ranking[:k])
    hits, total = 0, 0.0
    for place, item in enumerate(top, start=1):
        # an item repeated in the ranking counts at its first place only
        if item in relevant and item not in top[: place - 1]:
            hits += 1
            total += hits / place
    return total / min(len(relevant), k)


def reciprocal_rank_at_k(gold: Hashable, ranking: Sequence[Hashable], k: int) -> float:
    """Mewsli-X's reciprocal rank of one mention: 1 / the place of ``gold`` among the first k
    of ``ranking``, 0 where it is not among them."""
    for place, item in enumerate(ranking[:k], start=1):
        if item == gold:
            return 1.0 / place
    return 0.0


# the most scores (queries x pool rows) held at once by top_k: 2**24 float32, 64 MiB (with the
# selection's temporaries, a few times that)
SCORES_AT_ONCE = 2**24
# queries scored together against each block of the pool: the pool is read once per this many
# queries, so that its blocks, not the queries, bound the memory
QUERIES_AT_ONCE = 1024


def top_k(
    queries: np.ndarray,
    pool: np.ndarray,
    k: int,
    chunk: int | None = None,
    scores_at_once: int = SCORES_AT_ONCE,
) -> np.ndarray:
    """The indices of :func:`exact_top_k`: the ``k`` best pool rows of each query, best first."""
    return exact_top_k(queries, pool, k, chunk, scores_at_once)[1]


def exact_top_k(
    queries: np.ndarray,
    pool: np.ndarray,
    k: int,
    chunk: int | None = None,
    scores_at_once: int = SCORES_AT_ONCE,
) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` pool rows of largest inner product with each query row, best first (exact
    search): (scores, indices). Of rows with equal scores the lower pool index comes first, at
    the k-th place too, so that the lists do not depend on how the pool is blocked. Queries are
    taken ``chunk`` at a time (default :data:`QUERIES_AT_ONCE`) against blocks of the pool of
    ``scores_at_once`` scores, whose best k join the best k so far: memory beyond the pool
    stays bounded however large the pool grows, and the pool is read once per chunk. The
    products are torch's (the retrieval benchmarks' embeddings come from torch; its matrix
    product is what their similarities have always been computed with)."""
    k = min(k, pool.shape[0])
    dtype = np.result_type(queries, pool)
    found = np.empty((queries.shape[0], k), dtype=np.int64)
    scores_found = np.empty((queries.shape[0], k), dtype=dtype)
    if k == 0:
        return scores_found, found
    chunk = chunk or min(max(1, queries.shape[0]), QUERIES_AT_ONCE)
    block = max(k, scores_at_once // chunk)
    for start in range(0, queries.shape[0], chunk):
        part = queries[start : start + chunk]
        best = np.empty((part.shape[0], 0), dtype=np.int64)
        # negated scores throughout: argpartition and lexsort put the smallest first
        negated = np.empty((part.shape[0], 0), dtype=dtype)
        for offset in range(0, pool.shape[0], block):
            scores = np.negative(_products(part, pool[offset : offset + block], dtype))
            picked = _block_best(scores, k)
            indices = np.concatenate([best, picked + offset], axis=1)
            values = np.concatenate([negated, np.take_along_axis(scores, picked, axis=1)], axis=1)
            order = np.lexsort((indices, values), axis=1)[:, :k]
            best = np.take_along_axis(indices, order, axis=1)
            negated = np.take_along_axis(values, order, axis=1)
        found[start : start + chunk] = best
        scores_found[start : start + chunk] = np.negative(negated)
    return scores_found, found


def _products(queries: np.ndarray, pool: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``queries @ pool.T`` in ``dtype``, by torch."""
    import torch

    left = torch.from_numpy(np.ascontiguousarray(queries, dtype=dtype))
    right = torch.from_numpy(np.ascontiguousarray(pool, dtype=dtype))
    return (left @ right.T).numpy()


def _block_best(negated: np.ndarray, k: int) -> np.ndarray:
    """Per row, the columns of the ``k`` smallest ``negated`` scores (any order), the lower
    column taken among those equal to the k-th: argpartition alone picks among them as its
    selection happens to fall."""
    columns = negated.shape[1]
    if k >= columns:
        return np.broadcast_to(np.arange(columns), negated.shape).copy()
    best = np.argpartition(negated, k - 1, axis=1)[:, :k]
    kth = np.take_along_axis(negated, best, axis=1).max(axis=1, keepdims=True)
    # a row where more columns than k reach the k-th score: those columns ordered again
    for row in np.flatnonzero(np.count_nonzero(negated <= kth, axis=1) > k):
        candidates = np.flatnonzero(negated[row] <= kth[row])
        best[row] = candidates[np.lexsort((candidates, negated[row, candidates]))[:k]]
    return best
