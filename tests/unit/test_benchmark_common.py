"""benchmarks/_common.py: the commit a benchmark's result records (a stand-in repository)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import _common  # noqa: E402  (a script folder, not a package)


def git(folder: Path, *args: str) -> str:
    command = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


def test_the_commit_is_recorded_and_a_change_to_a_tracked_file_is_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "script.py").write_text("first\n")
    git(tmp_path, "add", "script.py")
    git(tmp_path, "commit", "-q", "-m", "first")
    monkeypatch.setattr(_common, "REPO", tmp_path)
    commit = git(tmp_path, "rev-parse", "--short", "HEAD")
    assert _common.code_revision() == commit
    (tmp_path / "untracked.txt").write_text("not the code\n")
    assert _common.code_revision() == commit
    (tmp_path / "script.py").write_text("changed\n")
    assert _common.code_revision() == f"{commit} + changes"


def test_outside_a_checkout_no_commit_is_claimed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_common, "REPO", tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert _common.code_revision() is None
