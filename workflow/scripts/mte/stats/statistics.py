"""Bootstrap confidence intervals and paired significance tests over test examples.

Every metric we report with an interval is a function of sums of per-example statistics (see
mte.stats.metrics, where each is defined once). A resample of the test set is then a vector of
example weights, and its metric is ``metric(weights @ stats)``: exact, and fast enough for thousands
of resamples. Metrics that are not such a function (Spearman's rank correlation, BUCC's mining F1)
get no interval.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from mte.stats.metrics import SufficientStatistics

# resampling in chunks bounds memory: a (chunk x examples) weight matrix at a time
CHUNK = 100


def has_statistics(kind: SufficientStatistics | None, metric: str) -> bool:
    """Whether ``metric`` is a function of the sums of ``kind``'s per-example rows."""
    return kind is not None and metric in kind.metrics


def metric_of_sums(kind: SufficientStatistics, metric: str, sums: np.ndarray) -> np.ndarray:
    """The metric from summed statistics (vectorised over leading axes of ``sums``); a metric
    without them is a ValueError."""
    return kind.of_sums(metric, np.asarray(sums, float))


def resample_seed(parallel_test_sets: bool, seed: int, language: str) -> list[int]:
    """The bootstrap seed of one language's test set.

    Parallel test sets (XNLI, PAWS-X, XQuAD: the same items in every language) share the
    resamples of their items, so that an average over languages resamples items, not each
    language independently; other tasks' languages are independent samples and get their own.
    Either way two systems, or two seeds of one, see the same resamples of one test set."""
    if parallel_test_sets:
        return [seed]
    return [seed, zlib.crc32(language.encode("utf-8"))]


def bootstrap_replicates(
    kind: SufficientStatistics,
    metric: str,
    stats: np.ndarray,
    resamples: int,
    seed: int | list[int],
) -> np.ndarray:
    """The metric on ``resamples`` resamples (with replacement) of the examples.

    The resamples depend only on ``seed`` and the number of examples, so two systems (or two
    seeds of one system) scored on the same test set are resampled identically.
    """
    stats = np.asarray(stats, float)
    n = len(stats)
    rng = np.random.default_rng(seed)
    values = []
    for start in range(0, resamples, CHUNK):
        size = min(CHUNK, resamples - start)
        weights = rng.multinomial(n, np.full(n, 1.0 / n), size=size)
        values.append(metric_of_sums(kind, metric, weights @ stats))
    return np.concatenate(values)


def percentile_interval(replicates: np.ndarray, confidence: float) -> tuple[float, float]:
    """The percentile bootstrap interval: the central ``confidence`` mass of the replicates."""
    tail = (1 - confidence) / 2
    low, high = np.quantile(np.asarray(replicates, float), [tail, 1 - tail])
    return float(low), float(high)


def paired_randomization(
    kind: SufficientStatistics,
    metric: str,
    pairs: list[tuple[np.ndarray, np.ndarray]],
    trials: int,
    seed: int,
) -> dict[str, float]:
    """Approximate randomization test of two systems on the same test sets.

    ``pairs``: per test set (language), the per-example statistics of system A and of system
    B, rows aligned by example. Under the null hypothesis the two systems' outputs for an example
    are exchangeable: each trial swaps them for every example with probability 1/2. The statistic
    is the difference of the mean metric over the test sets (one test set: of the metric).
    Returns the observed difference (A - B) and the two-sided p-value
    ``(1 + #{|d_trial| >= |d_observed|}) / (1 + trials)``.
    """
    weight = 1.0 / len(pairs)
    return paired_randomization_weighted(
        [(kind, {metric: weight}, a, b) for a, b in pairs], trials, seed
    )


def paired_randomization_weighted(
    sets: list[tuple[SufficientStatistics, dict[str, float], np.ndarray, np.ndarray]],
    trials: int,
    seed: int,
) -> dict[str, float]:
    """The approximate randomization test of :func:`paired_randomization` for a statistic that
    is a weighted sum of metrics over test sets of different kinds: a leaderboard's suite
    average (XTREME's: per task the mean over its languages, QA as the mean of F1 and exact
    match, then the mean over tasks).

    ``sets``: per test set its statistics kind, ``{metric: weight}`` and the two systems'
    per-example statistics (rows aligned by example). The statistic is
    ``sum(weight * (metric(A) - metric(B)))``; each trial swaps the two systems' outputs for
    every example with probability 1/2, the same swaps for every metric of a test set.
    """
    rng = np.random.default_rng(seed)
    arrays = [
        (kind, weights, np.asarray(a, float), np.asarray(b, float)) for kind, weights, a, b in sets
    ]
    observed = sum(
        weight * (metric_of_sums(kind, metric, a.sum(0)) - metric_of_sums(kind, metric, b.sum(0)))
        for kind, weights, a, b in arrays
        for metric, weight in weights.items()
    )
    extreme = 0
    for start in range(0, trials, CHUNK):
        size = min(CHUNK, trials - start)
        differences = np.zeros(size)
        for kind, weights, a, b in arrays:
            swaps = rng.integers(0, 2, size=(size, len(a))).astype(float)
            moved = swaps @ (b - a)
            for metric, weight in weights.items():
                differences += weight * (
                    metric_of_sums(kind, metric, a.sum(0) + moved)
                    - metric_of_sums(kind, metric, b.sum(0) - moved)
                )
        # a tolerance, so that ties computed in another order still count as ties
        extreme += int(np.sum(np.abs(differences) >= abs(observed) - 1e-12))
    return {"difference": float(observed), "p_value": (1 + extreme) / (1 + trials)}


def interval_record(
    kind: SufficientStatistics | None,
    metric: str,
    stats: np.ndarray,
    resamples: int,
    seed: int | list[int],
    confidence: float,
) -> dict[str, Any] | None:
    """The bootstrap interval of ``metric`` (a task's primary metric), with its replicates
    (which give the intervals of averages over languages and seeds), or None where the metric
    has no per-example statistics."""
    if not has_statistics(kind, metric) or len(stats) == 0:
        return None
    replicates = bootstrap_replicates(kind, metric, stats, resamples, seed)
    low, high = percentile_interval(replicates, confidence)
    return {
        "metric": metric,
        "confidence": confidence,
        "resamples": resamples,
        "seed": seed,
        "low": low,
        "high": high,
        "replicates": [round(float(v), 6) for v in replicates],
    }


def mean_replicates(
    scores: list[dict], metrics: tuple[str, ...] | list[str], kind: SufficientStatistics | None
) -> np.ndarray | None:
    """The replicates of the mean of ``metrics`` over score files of one test set (a cell's
    seeds): each file's replicates of each metric (:func:`score_replicates`, all drawn from the
    same resamples) averaged; None where one lacks them or their numbers of resamples differ."""
    drawn = [score_replicates(score, metric, kind) for score in scores for metric in metrics]
    if not drawn or any(r is None for r in drawn) or len({r.shape for r in drawn}) != 1:
        return None
    return np.mean(drawn, axis=0)


def score_replicates(
    score: dict, metric: str, kind: SufficientStatistics | None
) -> np.ndarray | None:
    """A score file's bootstrap replicates of ``metric`` (a fraction): the stored ones for its
    interval's metric, else drawn again from its per-example statistics with the seed and
    number of resamples it recorded (the same resamples, so that a QA cell's F1 and exact
    match replicates pair up); None without an interval or statistics for the metric."""
    interval = score.get("interval")
    if not interval:
        return None
    if interval.get("metric") == metric and interval.get("replicates"):
        return np.asarray(interval["replicates"], float)
    stats = score.get("example_stats")
    if not stats or not has_statistics(kind, metric):
        return None
    seed = interval["seed"]
    return bootstrap_replicates(kind, metric, np.asarray(stats, float), interval["resamples"], seed)
