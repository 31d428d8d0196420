"""A workflow killed outright in the middle of its predictions: after Snakemake's own
``--unlock``, a plain rerun finishes the work, takes no half-written file as done, and gives
the uninterrupted run's numbers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.workflow.snakemake_runner import REPO, run_snakemake, tables_dir, variant_dir

pytestmark = [pytest.mark.workflow, pytest.mark.long]


def _config(tiny_model: Path) -> dict:
    return {
        "models": [{"name": "tiny", "source": "local", "path": str(tiny_model)}],
        "tasks": {
            "xnli": {
                "source": "demo",
                "languages": ["en", "de"],
                "hyperparameters": {"epochs": 1, "batch_size": 16, "max_length": 64},
            }
        },
        "settings": ["zero-shot"],
        "seeds": [1],
    }


def test_a_run_killed_during_predict_is_finished_by_unlock_and_a_plain_rerun(
    tiny_model: Path, tmp_path: Path
) -> None:
    config = _config(tiny_model)
    killed, reference = tmp_path / "killed", tmp_path / "reference"
    killed.mkdir()
    reference.mkdir()
    (killed / "config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    command = [
        sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(killed), "--configfile", str(killed / "config.yaml"), "--cores", "1",
    ]  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    process = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill takes the job with it
    )
    predict_logs = killed / "results" / "logs" / "predict"
    deadline = time.monotonic() + 600
    while process.poll() is None and time.monotonic() < deadline:
        if predict_logs.is_dir() and any(predict_logs.rglob("*.log")):
            break
        time.sleep(0.02)
    assert process.poll() is None, "the run ended before its first predict job started"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()

    predictions = variant_dir(killed, "tiny", "xnli") / "zero-shot" / "seed1" / "predictions"
    written_before_the_kill = sorted(p.name for p in predictions.glob("*.jsonl"))
    assert len(written_before_the_kill) < 2

    # Snakemake's lock on the directory outlives a hard kill; its message says what to do
    locked = run_snakemake(killed, config)
    assert locked.returncode != 0
    assert "It can be removed with the --unlock argument" in locked.stderr
    assert run_snakemake(killed, config, "--unlock").returncode == 0
    # no --rerun-incomplete needed: a job's outputs appear only once complete
    rerun = run_snakemake(killed, config)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert "incomplete" not in rerun.stderr.lower()
    done = run_snakemake(reference, config)
    assert done.returncode == 0, done.stderr[-3000:]
    for language in ("en", "de"):
        name = f"{language}.jsonl"
        assert (predictions / name).read_bytes() == (
            reference / predictions.relative_to(killed) / name
        ).read_bytes()
    assert (tables_dir(killed) / "xnli.csv").read_bytes() == (
        tables_dir(reference) / "xnli.csv"
    ).read_bytes()
