"""tools/compare_results.py's file comparisons: what a before/after comparison holds equal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools import compare_results


def write(path: Path, record: dict) -> Path:
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_a_json_record_is_the_same_with_its_timings_aside(tmp_path: Path) -> None:
    old = write(tmp_path / "a.json", {"f1": 0.5, "steps": [{"seconds": 1.0, "loss": 2.0}]})
    timed_otherwise = write(
        tmp_path / "b.json", {"f1": 0.5, "steps": [{"seconds": 9.0, "loss": 2.0}]}
    )
    other_loss = write(tmp_path / "c.json", {"f1": 0.5, "steps": [{"seconds": 1.0, "loss": 2.5}]})
    assert compare_results.same_content(old, timed_otherwise)
    assert not compare_results.same_content(old, other_loss)


def test_a_tables_provenance_is_the_same_without_its_code_digests_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = {"scores": [{"task": "xnli", "code": "aaa", "sha256": "111"}]}
    old = write(tmp_path / "old.provenance.json", record)
    new_code = write(
        tmp_path / "new.provenance.json", {"scores": [{**record["scores"][0], "code": "bbb"}]}
    )
    new_data = write(
        tmp_path / "data.provenance.json",
        {"scores": [{**record["scores"][0], "code": "bbb", "sha256": "222"}]},
    )
    monkeypatch.setattr(compare_results, "SKIPPED_KEYS", set())
    assert not compare_results.same_provenance(old, new_code)
    monkeypatch.setattr(compare_results, "SKIPPED_KEYS", {"code"})
    assert compare_results.same_provenance(old, new_code)
    # every other key still counts
    assert not compare_results.same_provenance(old, new_data)


def test_without_keys_leaves_out_the_named_keys_at_any_depth() -> None:
    value = {"code": 1, "a": [{"code": 2, "b": 3}], "c": {"d": {"code": 4}}}
    kept = compare_results.without_keys(value, lambda key: key == "code")
    assert kept == {"a": [{"b": 3}], "c": {"d": {}}}
