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


def top_k(queries: np.ndarray, pool: np.ndarray, k: int, chunk: int | None = None) -> np.ndarray:
    """The indices of the ``k`` pool rows of largest inner product with each query row, best
    first (exact search; the selected rows ordered by score, then by pool index). Queries are
    taken ``chunk`` at a time, by default as many as keep the score matrix under
    :data:`SCORES_AT_ONCE` entries, so that memory beyond the pool stays bounded however large
    the pool grows."""
    chunk = chunk or max(1, SCORES_AT_ONCE // max(1, pool.shape[0]))
    k = min(k, pool.shape[0])
    found = np.empty((queries.shape[0], k), dtype=np.int64)
    for start in range(0, queries.shape[0], chunk):
        scores = queries[start : start + chunk] @ pool.T
        if k < pool.shape[0]:
            best = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        else:
            best = np.broadcast_to(np.arange(pool.shape[0]), scores.shape)
        picked = np.take_along_axis(scores, best, axis=1)
        order = np.lexsort((best, -picked), axis=1)
        found[start : start + chunk] = np.take_along_axis(best, order, axis=1)
    return found
