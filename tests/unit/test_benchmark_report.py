"""benchmarks/report.py: three runs of a benchmark become one row, each figure that differs as
the median of the runs with their lowest and highest (values worked out by hand below)."""

from __future__ import annotations

import sys

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import report  # noqa: E402  (a script folder, not a package)


def test_three_runs_print_as_median_and_range_and_ratios_are_taken_per_run() -> None:
    runs = [
        {"speedup": 1.5, "seconds": {"ours": 10.0, "peer": 15.0}, "examples": 1000, "same": True},
        {"speedup": 2.1, "seconds": {"ours": 8.0, "peer": 20.0}, "examples": 1000, "same": True},
        {"speedup": 1.8, "seconds": {"ours": 12.0, "peer": 18.0}, "examples": 1000, "same": False},
    ]
    combined = report.combine(runs)
    # equal in every run: the value itself
    assert combined["examples"] == 1000
    # median 1.8 of 1.5, 2.1, 1.8; the range 1.5 to 2.1
    assert f"{combined['speedup']:.2f}x" == "1.80 (1.50 to 2.10)x"
    # a ratio is per run (1.5, 2.5, 1.5), then its median: not 18 / 10 of the medians
    ratio = combined["seconds"]["peer"] / combined["seconds"]["ours"]
    assert f"{ratio:.2f}" == "1.50 (1.50 to 2.50)"
    assert f"{100 * combined['speedup']:.0f}%" == "180 (150 to 210)%"
    # not a number, and not the same in every run: said so, with the counts
    assert str(combined["same"]) == "True in 2, False in 1 of 3 runs"


def test_lists_combine_entry_by_entry_and_one_run_is_kept_as_it_is() -> None:
    combined = report.combine([{"peaks": [100, 200]}, {"peaks": [110, 200]}, {"peaks": [90, 200]}])
    first, second = combined["peaks"]
    assert f"{first:d}" == "100 (90 to 110)" and second == 200
    assert report.combine([{"a": 0.5}]) == {"a": 0.5}


def test_every_process_of_every_run_is_one_list_for_a_range_over_all_of_them() -> None:
    # three runs of two processes: the first process's peaks differ, the second's do not
    combined = report.combine([{"peaks": [100, 200]}, {"peaks": [110, 200]}, {"peaks": [90, 200]}])
    assert sorted(report.every(combined["peaks"])) == [90, 100, 110, 200]
    assert report.every([1.5, 2.5]) == [1.5, 2.5]


def test_a_key_only_some_runs_have_is_combined_over_those_and_the_rest_as_before() -> None:
    # an earlier run's record noted where its CPU was read from; the later script's does not
    runs = [
        {"machine": {"cpu_model": "AMD EPYC", "cpu_from": "the jobs"}, "seconds": 4233.0},
        {"machine": {"cpu_model": "AMD EPYC"}, "seconds": 4271.0},
    ]
    combined = report.combine(runs)
    # median of two: their mean, (4233 + 4271) / 2 = 4252
    assert f"{combined['seconds']:.0f}" == "4252 (4233 to 4271)"
    assert combined["machine"] == {"cpu_model": "AMD EPYC", "cpu_from": "the jobs"}
