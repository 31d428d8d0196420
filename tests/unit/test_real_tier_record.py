"""The real tier's committed record (tests/real/readme_section.py): a run of some experiments
replaces only theirs, and each keeps the commit, date and machine that measured it."""

from __future__ import annotations

from tests.real.readme_section import merged_record


def _experiment(commit: str, seconds: float) -> dict:
    return {"commit": commit, "date": "2026-12-02T00:00:00+00:00", "seconds": seconds, "tasks": {}}


def test_a_partial_run_replaces_only_its_own_experiments() -> None:
    machine = {"platform": "Linux", "cpus": 2}
    record = {
        "experiments": {"xnli": _experiment("a" * 40, 60.0), "conll": _experiment("a" * 40, 30.0)},
        "machine": machine,
    }
    summary = {"experiments": {"xnli": _experiment("b" * 40, 90.0)}, "machine": machine}
    merged = merged_record(summary, record)
    assert merged["experiments"]["xnli"]["commit"] == "b" * 40
    assert merged["experiments"]["conll"]["commit"] == "a" * 40
    assert merged["experiments"]["xnli"]["machine"] == machine
    assert merged["seconds"] == 120.0  # 90 + 30
    # the first record: the summary alone
    assert list(merged_record(summary, None)["experiments"]) == ["xnli"]
