"""Ranking metrics against values worked out by hand from their definitions."""

from __future__ import annotations

import numpy as np
import pytest

from mte.stats.ranking import (
    average_precision_at_k,
    exact_top_k,
    reciprocal_rank_at_k,
    top_k,
)


def test_average_precision_at_k_by_hand() -> None:
    # relevant a, b, c; ranking x a y b z with k = 5: hits at places 2 and 4,
    # precisions 1/2 and 2/4; divisor min(3, 5) = 3: (0.5 + 0.5) / 3
    assert average_precision_at_k({"a", "b", "c"}, ["x", "a", "y", "b", "z"], 5) == pytest.approx(
        1 / 3
    )
    # k = 2 cuts the ranking to x a: one hit at place 2 (1/2), divisor min(3, 2) = 2: 1/4
    assert average_precision_at_k({"a", "b", "c"}, ["x", "a", "y", "b"], 2) == pytest.approx(0.25)
    # every relevant item first: 1
    assert average_precision_at_k({"a", "b"}, ["b", "a", "x"], 20) == pytest.approx(1.0)
    # nothing relevant among the first k: 0
    assert average_precision_at_k({"a"}, ["x", "y", "a"], 2) == 0.0


def test_a_relevant_item_ranked_twice_counts_once() -> None:
    # a a b: hits at places 1 and 3 (the second a is not a new hit): (1 + 2/3) / 2
    assert average_precision_at_k({"a", "b"}, ["a", "a", "b"], 20) == pytest.approx(5 / 6)


def test_average_precision_needs_a_relevant_item() -> None:
    with pytest.raises(ValueError, match="at least one relevant"):
        average_precision_at_k(set(), ["a"], 20)


def test_reciprocal_rank_at_k_by_hand() -> None:
    assert reciprocal_rank_at_k("Q2", ["Q1", "Q2", "Q3"], 20) == pytest.approx(0.5)
    assert reciprocal_rank_at_k("Q1", ["Q1"], 20) == 1.0
    # the gold entity at place 3, beyond k = 2: 0
    assert reciprocal_rank_at_k("Q3", ["Q1", "Q2", "Q3"], 2) == 0.0
    # no prediction for a mention: 0, as utils_mewslix scores a missing one
    assert reciprocal_rank_at_k("Q3", [], 20) == 0.0


def test_top_k_is_the_exact_search_of_a_full_sort() -> None:
    rng = np.random.default_rng(0)
    queries, pool = rng.normal(size=(37, 8)), rng.normal(size=(500, 8))
    full = np.argsort(-(queries @ pool.T), axis=1, kind="stable")[:, :20]
    assert (top_k(queries, pool, 20, chunk=5) == full).all()
    # k above the pool size: the whole pool, ordered
    assert (top_k(queries, pool[:7], 20) == np.argsort(-(queries @ pool[:7].T), axis=1)).all()


@pytest.mark.parametrize("k", [1, 20])
@pytest.mark.parametrize(("chunk", "scores_at_once"), [(None, 2**24), (5, 40), (3, 7)])
def test_ties_go_to_the_lower_pool_index_however_the_pool_is_blocked(
    k: int, chunk: int | None, scores_at_once: int
) -> None:
    """Small integer vectors: every score exact, and many equal, at the k-th place too. The
    lists are a stable full sort's (lower index first among equal scores) for one block and
    for blocks of 8 and 2 pool rows."""
    rng = np.random.default_rng(1)
    queries = rng.integers(-2, 3, size=(23, 4)).astype(np.float64)
    pool = rng.integers(-2, 3, size=(300, 4)).astype(np.float64)
    full = np.argsort(-(queries @ pool.T), axis=1, kind="stable")[:, :k]
    found = top_k(queries, pool, k, chunk=chunk, scores_at_once=scores_at_once)
    assert (found == full).all()


def test_top_k_orders_ties_by_pool_index() -> None:
    pool = np.array([[1.0], [2.0], [2.0], [0.5]])
    assert top_k(np.array([[1.0]]), pool, 3).tolist() == [[1, 2, 0]]


def test_exact_top_k_returns_the_scores_of_its_indices() -> None:
    """The scores beside the indices are the inner products of those rows, best first; small
    integer vectors keep every product exact, with ties at every place."""
    rng = np.random.default_rng(2)
    queries = rng.integers(-2, 3, size=(9, 3)).astype(np.float32)
    pool = rng.integers(-2, 3, size=(50, 3)).astype(np.float32)
    scores, indices = exact_top_k(queries, pool, 6, chunk=4, scores_at_once=12)
    products = queries @ pool.T
    assert (scores == np.take_along_axis(products, indices, axis=1)).all()
    assert (indices == np.argsort(-products, axis=1, kind="stable")[:, :6]).all()
    assert (np.diff(scores, axis=1) <= 0).all()
