"""Atomic outputs: a job killed while writing leaves nothing Snakemake would take as done."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import mte.io

SLOW_WRITER = """
import sys, time
from mte.io import write_jsonl
def records():
    for i in range(1000):
        if i == 100:
            print("halfway", flush=True)
            time.sleep(60)
        yield {"id": str(i), "label": "neutral"}
write_jsonl(sys.argv[1], records())
"""


def test_predictions_killed_mid_write_leave_no_output(tmp_path: Path) -> None:
    out = tmp_path / "predictions" / "de.jsonl"
    scripts = Path(mte.io.__file__).parents[1]
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITER, str(out)],
        env={**os.environ, "PYTHONPATH": str(scripts)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "halfway"
    time.sleep(0.2)
    process.send_signal(signal.SIGKILL)
    assert process.wait() == -signal.SIGKILL
    assert not out.exists()
    # what was written went to a hidden temporary name, never to the output's
    leftovers = list(out.parent.iterdir())
    assert len(leftovers) == 1 and leftovers[0].name.startswith(".de.jsonl.")


def test_an_error_while_writing_leaves_no_output(tmp_path: Path) -> None:
    out = tmp_path / "scores.jsonl"

    def failing():
        yield {"id": "1"}
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        mte.io.write_jsonl(out, failing())
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_written_files_take_the_users_umask(tmp_path: Path, umask: int, mode: int) -> None:
    import stat

    from mte.io import write_json, write_jsonl

    previous = os.umask(umask)
    try:
        write_json(tmp_path / "scores.json", {"f1": 1.0})
        write_jsonl(tmp_path / "predictions.jsonl", [{"id": "1"}])
    finally:
        os.umask(previous)
    for name in ("scores.json", "predictions.jsonl"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_model_weights_get_the_users_umask_too(tmp_path: Path, umask: int, mode: int) -> None:
    """safetensors writes weights through a private file (0600): a model folder is widened to
    what the umask allows, as every other output is; nothing is narrowed."""
    import stat

    import torch
    from safetensors.torch import save_file

    from mte.io import with_umask_modes

    folder = tmp_path / "model"
    previous = os.umask(umask)
    try:
        (folder / "sub").mkdir(parents=True)
        save_file({"w": torch.zeros(2)}, str(folder / "sub" / "model.safetensors"))
        script = folder / "run.sh"
        script.write_text("#!/bin/sh\n", encoding="utf-8")
        script.chmod(0o700)
        with_umask_modes(folder)
    finally:
        os.umask(previous)
    assert stat.S_IMODE((folder / "sub" / "model.safetensors").stat().st_mode) == mode
    assert stat.S_IMODE((folder / "sub").stat().st_mode) == 0o777 & ~umask
    # the owner's execute bit stays, the umask's read bits are added
    assert stat.S_IMODE(script.stat().st_mode) == 0o700 | mode
