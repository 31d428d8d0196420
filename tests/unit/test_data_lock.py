"""The data lock (mte.hub.lock, mte.config.datalock): its entries, the refusal of other bytes
under the same pin with both sums, an accepted update, and the data key that follows it."""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path

import pytest
import yaml

from mte.config.checks import check_configuration
from mte.config.datalock import check_local_data, record_downloads
from mte.config.plan import build_plan
from mte.config.plan.keys import data_key, data_lock_path, source_key
from mte.hub.lock import (
    DataLockError,
    accepted_digest,
    check_download,
    entry_of,
    merge_task,
    read_lock,
    write_lock,
)
from mte.io import write_json, write_jsonl

SCHEMA = Path(__file__).resolve().parents[2] / "config" / "schema.yaml"
TEMPLATE = "resources/data/{task}/{data}/{lang}/{split}.meta.json"


def _meta_of(config: dict):
    """The workflow's data_meta: a download's data record, in the task's data folder."""
    return lambda task, lang, split: TEMPLATE.format(
        task=task, data=data_key(task, config), lang=lang, split=split
    )


def _meta(examples: list[dict], path: Path, **origin) -> dict:
    """A download's data record, as download.py writes it beside its examples."""
    data = path.with_name(path.name.replace(".meta.json", ".jsonl"))
    data.parent.mkdir(parents=True, exist_ok=True)
    count = write_jsonl(data, examples)
    record = {"source": "files", "count": count, **origin}
    record["sha256_jsonl"] = hashlib.sha256(data.read_bytes()).hexdigest()
    write_json(path, record)
    return record


EXAMPLES = [{"id": "1", "text_a": "a", "text_b": "b", "label": "entailment"}]


def test_an_entry_holds_the_commit_the_examples_and_each_file_read() -> None:
    meta = {
        "commit": "c" * 40,
        "count": 2,
        "sha256_jsonl": "e" * 64,
        "files_read": {"de/test-00000-of-00001.parquet": "sha256:" + "f" * 64},
        "files": [{"file": "/somewhere/test-de.tsv", "sha256": "a" * 64}],
    }
    assert entry_of(meta) == {
        "commit": "c" * 40,
        "examples": {"sha256": "e" * 64, "count": 2},
        "files": {
            "de/test-00000-of-00001.parquet": "sha256:" + "f" * 64,
            "test-de.tsv": "sha256:" + "a" * 64,
        },
    }


def _entry(sha: str, file_digest: str = "sha256:" + "1" * 64) -> dict:
    return {
        "commit": "c" * 40,
        "examples": {"sha256": sha, "count": 3},
        "files": {"de/test.parquet": file_digest},
    }


def test_other_bytes_under_the_same_pin_stop_with_both_sums(tmp_path: Path) -> None:
    lock = read_lock(None)
    merge_task(lock, "xnli", "hub-11111111", {"de/test": _entry("a" * 64)}, accept=False)
    path = tmp_path / "run.lock"
    write_lock(path, lock, "run.yaml")
    same = check_download(
        str(path), "xnli", "hub-11111111", "de/test", _entry("a" * 64), "x", False
    )
    assert same == "matched"
    new = check_download(str(path), "xnli", "hub-11111111", "en/test", _entry("b" * 64), "x", False)
    assert new == "recorded"
    # another source (the config pinned another revision): a new data folder, not a check
    other = check_download(
        str(path), "xnli", "hub-22222222", "de/test", _entry("b" * 64), "x", False
    )
    assert other == "recorded"
    with pytest.raises(DataLockError) as caught:
        check_download(
            str(path), "xnli", "hub-11111111", "de/test",
            _entry("b" * 64, "sha256:" + "2" * 64), "resources/data/xnli/de/test.jsonl", False,
        )  # fmt: skip
    message = str(caught.value)
    assert f"sha256 {'b' * 64} (3), the lock has {'a' * 64} (3)" in message
    assert f"file de/test.parquet: sha256:{'2' * 64}, the lock has sha256:{'1' * 64}" in message
    assert str(path) in message and "resources/data/xnli/de/test.jsonl (removed)" in message
    assert "update_lock=true" in message
    assert f"same source and pins (commit read {'c' * 40}, the lock's {'c' * 40})" in message
    accepted = check_download(
        str(path), "xnli", "hub-11111111", "de/test", _entry("b" * 64), "x", True
    )
    assert accepted == "accepted"


def test_a_source_without_commits_is_refused_without_a_word_of_commits(tmp_path: Path) -> None:
    # the bundled demo and local files are read without a commit: one label changed in a file
    demo = {"commit": None, "examples": {"sha256": "a" * 64, "count": 3}, "files": {}}
    lock = read_lock(None)
    merge_task(lock, "xnli", "demo", {"de/test": demo}, accept=False)
    path = tmp_path / "run.lock"
    write_lock(path, lock, "run.yaml")
    changed = {**demo, "examples": {"sha256": "b" * 64, "count": 3}}
    with pytest.raises(DataLockError) as caught:
        check_download(str(path), "xnli", "demo", "de/test", changed, "x", False)
    message = str(caught.value).replace(str(path), "LOCK")  # its folder names this test
    assert "records for the same source: examples: sha256 " in message
    assert "commit" not in message and "None" not in message


def test_a_digest_the_hub_did_not_give_is_not_compared(tmp_path: Path) -> None:
    lock = read_lock(None)
    merge_task(lock, "xnli", "hub-1", {"de/test": _entry("a" * 64)}, accept=False)
    path = tmp_path / "run.lock"
    write_lock(path, lock, "run.yaml")
    offline = _entry("a" * 64, file_digest="")
    assert check_download(str(path), "xnli", "hub-1", "de/test", offline, "x", False) == "matched"


def test_an_accepted_update_records_its_digest_and_says_what_changed() -> None:
    lock = read_lock(None)
    first, _ = merge_task(lock, "xnli", "hub-1", {"de/test": _entry("a" * 64)}, accept=False)
    assert first == ["xnli: 1 download(s) recorded"]
    # a first record never renames a data folder
    assert accepted_digest(lock, "xnli", "hub-1") is None
    # without accept, other bytes leave the lock as it is
    before = copy.deepcopy(lock)
    assert merge_task(lock, "xnli", "hub-1", {"de/test": _entry("b" * 64)}, accept=False) == (
        [],
        [],
    )
    assert lock == before
    lines, accepted = merge_task(lock, "xnli", "hub-1", {"de/test": _entry("b" * 64)}, True)
    assert accepted == ["de/test"]
    assert lines[0].startswith(f"xnli de/test: accepted: examples: sha256 {'b' * 64}")
    assert f"the lock has {'a' * 64}" in lines[0]
    digest = accepted_digest(lock, "xnli", "hub-1")
    assert digest is not None and f"data accepted as {digest}" in lines[1]
    assert lock["tasks"]["xnli"]["splits"]["de/test"]["examples"]["sha256"] == "b" * 64


def test_a_lock_that_is_not_one_names_its_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.lock"
    bad.write_text("format: mte-data-lock/1\ntasks: [\n", encoding="utf-8")
    with pytest.raises(DataLockError, match=r"bad\.lock, line \d+: not a data lock"):
        read_lock(bad)
    other = tmp_path / "other.lock"
    other.write_text("name: something else\n", encoding="utf-8")
    with pytest.raises(DataLockError, match=r"other\.lock: not a data lock"):
        read_lock(other)


def test_the_lock_sits_beside_the_run_config(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    default = tmp_path / "checkout/config/config.yaml"
    assert data_lock_path({}, [str(tmp_path / "config/xtreme.yaml")], default) == (
        "config/xtreme.lock"
    )
    # an overlay after the config: the config's lock
    files = [str(tmp_path / "config/xtreme-r.yaml"), str(tmp_path / "tiny.yaml")]
    assert data_lock_path({}, files, default) == "config/xtreme-r.lock"
    assert data_lock_path({}, [], default) == "checkout/config/config.lock"
    assert data_lock_path({"data_lock": "team/data.lock"}, [], default) == "team/data.lock"
    assert data_lock_path({"data_lock": False}, [], default) is None


def _config(tmp_path: Path, lock: Path) -> dict:
    folder = tmp_path / "pawsx"
    folder.mkdir(exist_ok=True)
    for name in ("train-en.tsv", "dev-en.tsv", "test-en.tsv"):
        (folder / name).write_text("a\tb\t1\n", encoding="utf-8")
    task = {"source": "files", "path": str(folder), "languages": ["en"]}
    return {
        "models": [{"name": "tiny", "source": "tiny"}],
        "tasks": {"pawsx": task},
        "settings": ["zero-shot"],
        "data_lock": str(lock),
    }


def test_an_accepted_update_changes_the_data_key_and_a_first_record_does_not(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    lock_path = tmp_path / "run.lock"
    config = _config(tmp_path, lock_path)
    check_configuration(config, SCHEMA)
    source = source_key("pawsx", config)
    assert data_key("pawsx", config) == source
    metas = {}
    for split in ("train", "dev", "test"):
        meta = Path(TEMPLATE.format(task="pawsx", data=source, lang="en", split=split))
        metas[split] = _meta(EXAMPLES, meta)
    lines = record_downloads(build_plan(config), _meta_of(config), "run.yaml", accept=False)
    assert lines == ["pawsx: 3 download(s) recorded"]
    written = yaml.safe_load(lock_path.read_text(encoding="utf-8"))
    assert written["tasks"]["pawsx"]["source"] == source
    assert set(written["tasks"]["pawsx"]["splits"]) == {"en/train", "en/dev", "en/test"}
    assert lock_path.read_text(encoding="utf-8").startswith("# The data lock of run.yaml")
    # recorded only: the key is what it was, and the data in its folder agrees
    assert data_key("pawsx", config) == source
    assert check_local_data(build_plan(config), _meta_of(config)) == (3, [])
    # nothing new: the lock is not written again
    assert record_downloads(build_plan(config), _meta_of(config), "run.yaml", accept=False) == []
    # the test split downloaded again with other bytes, accepted on purpose
    test_meta = Path(TEMPLATE.format(task="pawsx", data=source, lang="en", split="test"))
    _meta([{**EXAMPLES[0], "label": "contradiction"}], test_meta)
    agree, problems = check_local_data(build_plan(config), _meta_of(config))
    assert agree == 2 and len(problems) == 1
    assert "en/test.jsonl holds other data than the data lock" in problems[0]
    lines = record_downloads(build_plan(config), _meta_of(config), "run.yaml", accept=True)
    assert lines[0].startswith("pawsx en/test: accepted: examples: sha256")
    renamed = data_key("pawsx", config)
    assert renamed != source and renamed.startswith("files-")
    # the accepted bytes are not left under the folder named before
    assert not test_meta.exists() and not test_meta.with_name("test.jsonl").exists()
