"""Bootstrap intervals and the paired randomization test, against hand-worked values, exact
tests and coverage on synthetic data with a known true accuracy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest

from mte.registry import TASKS, family_of
from mte.stats.metrics import Confusion, Moments
from mte.stats.statistics import (
    bootstrap_replicates,
    interval_record,
    metric_of_sums,
    paired_randomization,
    percentile_interval,
)

XNLI, MRPC, COLA, STSB = (TASKS[name] for name in ("xnli", "mrpc", "cola", "stsb"))
PANX, XQUAD, TATOEBA = TASKS["panx"], TASKS["xquad"], TASKS["tatoeba"]


def kind(task):
    """The task's kind of per-example statistics, as its family defines it."""
    return family_of(task).sufficient_statistics(task)


def test_metrics_from_sums_match_hand_worked_values() -> None:
    # gold 1 1 1 0 0, predicted 1 1 0 0 1: TP 2, FN 1, TN 1, FP 1
    gold, predicted = ["1", "1", "1", "0", "0"], ["1", "1", "0", "0", "1"]
    sums = Confusion(MRPC.labels).rows(gold, predicted).sum(0)
    assert metric_of_sums(kind(MRPC), "accuracy", sums) == pytest.approx(3 / 5)
    # F1 = 2TP / (2TP + FP + FN) = 4 / 6
    assert metric_of_sums(kind(MRPC), "f1", sums) == pytest.approx(4 / 6)
    # MCC = (TP*TN - FP*FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)) = (2 - 1) / sqrt(3*3*2*2)
    assert metric_of_sums(kind(COLA), "mcc", sums) == pytest.approx(1 / 6)
    # Pearson of x = 1 2 3 and y = 1 2 2: sum dx*dy = 1, sum dx² = 2, sum dy² = 2/3
    sums = Moments().rows([1.0, 2.0, 2.0], [1.0, 2.0, 3.0]).sum(0)
    assert metric_of_sums(kind(STSB), "pearson", sums) == pytest.approx(1 / math.sqrt(4 / 3))
    # entities: 3 correct of 4 predicted and 6 gold -> P 3/4, R 1/2, F1 0.6
    entity_sums = np.array([[2, 3, 4], [1, 1, 2]]).sum(0)
    assert metric_of_sums(kind(PANX), "f1", entity_sums) == pytest.approx(0.6)
    assert metric_of_sums(kind(PANX), "precision", entity_sums) == pytest.approx(0.75)
    # QA: per-question (F1, EM, 1) rows -> means
    qa = np.array([[0.5, 0.0, 1], [1.0, 1.0, 1], [0.0, 0.0, 1]]).sum(0)
    assert metric_of_sums(kind(XQUAD), "f1", qa) == pytest.approx(0.5)
    assert metric_of_sums(kind(XQUAD), "exact_match", qa) == pytest.approx(1 / 3)


def test_metrics_without_example_statistics_are_refused() -> None:
    with pytest.raises(ValueError, match="no per-example statistics for metric 'spearman'"):
        metric_of_sums(kind(STSB), "spearman", np.zeros(6))
    assert interval_record(kind(TASKS["bucc"]), "f1", np.zeros((3, 1)), 100, 1, 0.95) is None


def _accuracy_stats(correct: np.ndarray) -> np.ndarray:
    """Tatoeba-style rows (hit, 1)."""
    return np.column_stack([correct.astype(float), np.ones(len(correct))])


def test_bootstrap_interval_covers_the_true_accuracy_about_95_percent() -> None:
    truth, examples, experiments = 0.7, 400, 400
    data = np.random.default_rng(0)
    covered = 0
    for experiment in range(experiments):
        stats = _accuracy_stats(data.random(examples) < truth)
        replicates = bootstrap_replicates(kind(TATOEBA), "accuracy", stats, 400, seed=experiment)
        low, high = percentile_interval(replicates, 0.95)
        covered += low <= truth <= high
    # binomial spread of 400 experiments at 95%: sd 1.1 points
    assert 0.91 <= covered / experiments <= 0.985


def test_bootstrap_interval_is_reproducible_with_its_seed() -> None:
    stats = _accuracy_stats(np.arange(300) % 3 == 0)
    first = interval_record(kind(TATOEBA), "accuracy", stats, 500, seed=7, confidence=0.95)
    again = interval_record(kind(TATOEBA), "accuracy", stats, 500, seed=7, confidence=0.95)
    other = interval_record(kind(TATOEBA), "accuracy", stats, 500, seed=8, confidence=0.95)
    assert first == again
    assert (first["low"], first["high"]) != (other["low"], other["high"])
    assert first["low"] < 1 / 3 < first["high"]
    # the normal approximation's half width for p = 1/3, n = 300 is 5.3 points
    assert first["high"] - first["low"] == pytest.approx(2 * 1.96 * math.sqrt(2 / 9 / 300), 0.2)


def test_paired_randomization_matches_the_exact_sign_test() -> None:
    # 100 examples: both right on 60, both wrong on 32; A alone right on 7, B alone on 1
    a = np.array([1] * 60 + [0] * 32 + [1] * 7 + [0] * 1)
    b = np.array([1] * 60 + [0] * 32 + [0] * 7 + [1] * 1)
    result = paired_randomization(
        kind(TATOEBA), "accuracy", [(_accuracy_stats(a), _accuracy_stats(b))], trials=20000, seed=3
    )
    assert result["difference"] == pytest.approx(0.06)
    # only the 8 discordant examples can move: the exact two-sided sign test,
    # P(X <= 1) + P(X >= 7) for X ~ Binomial(8, 1/2) = 2 * 9 / 256
    exact = binomtest(1, 8, 0.5).pvalue
    assert exact == pytest.approx(18 / 256)
    assert result["p_value"] == pytest.approx(exact, abs=0.01)


def test_paired_randomization_of_identical_systems_is_not_significant() -> None:
    stats = _accuracy_stats(np.arange(50) % 2 == 0)
    result = paired_randomization(kind(TATOEBA), "accuracy", [(stats, stats)], trials=500, seed=1)
    assert result == {"difference": 0.0, "p_value": 1.0}


def test_paired_randomization_on_an_average_over_languages() -> None:
    # language 1: A better on 10 discordant examples; language 2: identical systems
    a1 = np.array([1] * 10 + [1] * 40)
    b1 = np.array([0] * 10 + [1] * 40)
    same = np.arange(50) % 2 == 0
    pairs = [
        (_accuracy_stats(a1), _accuracy_stats(b1)),
        (_accuracy_stats(same), _accuracy_stats(same)),
    ]
    result = paired_randomization(kind(TATOEBA), "accuracy", pairs, trials=20000, seed=5)
    # the mean difference is (10/50 + 0) / 2; only the 10 discordant examples move, so the
    # p-value is the sign test's for 10 of 10: 2 / 2^10
    assert result["difference"] == pytest.approx(0.1)
    assert result["p_value"] == pytest.approx(2 / 1024, abs=0.002)


def test_classification_intervals_of_confusion_metrics() -> None:
    gold = ["entailment", "neutral", "contradiction"] * 40
    predicted = ["entailment", "neutral", "neutral"] * 40
    rows = Confusion(XNLI.labels).rows(gold, predicted)
    record = interval_record(kind(XNLI), "accuracy", rows, 300, 1, 0.9)
    assert record["metric"] == "accuracy"
    assert record["low"] < 2 / 3 < record["high"]
    assert len(record["replicates"]) == 300


def test_parallel_test_sets_share_resamples_across_languages() -> None:
    from mte.stats.statistics import resample_seed

    # XNLI's languages hold the same items: one set of resamples for all
    assert resample_seed(True, 5, "de") == resample_seed(True, 5, "fr") == [5]
    assert XNLI.parallel_test_sets and not PANX.parallel_test_sets
    # PAN-X's languages are independent samples: each its own, the same on every call
    assert resample_seed(False, 5, "de") != resample_seed(False, 5, "fr")
    assert resample_seed(False, 5, "de") == resample_seed(False, 5, "de")
    stats = _accuracy_stats(np.arange(40) % 2 == 0)
    german = bootstrap_replicates(kind(PANX), "f1", np.column_stack([stats[:, :1]] * 3), 50, [5, 1])
    assert german.shape == (50,)
