"""One GPU per job: jobs that ask for a GPU lock a free device id of the machine (fake ids
here, from MTE_GPU_IDS) and see only that one in CUDA_VISIBLE_DEVICES; a killed job frees it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mte.runtime.gpus import claim_for_job, claim_gpu, machine_gpu_ids
from tests.conftest import REPO

# a rule's script as Snakemake runs it: rule_logging with the job's resources, then work
JOB = """
import json, os, sys, time
from pathlib import Path
from types import SimpleNamespace
from mte.runtime.logs import rule_logging
out, hold = sys.argv[1], float(sys.argv[2])
snakemake = SimpleNamespace(
    rule="finetune", log=[out + ".log"], threads=1, wildcards=SimpleNamespace(),
    resources=SimpleNamespace(gpu=1), params=SimpleNamespace(device="auto"),
)
with rule_logging(snakemake):
    started = time.time()
    # written whole, then renamed: the test polls for the file and reads it at once
    Path(out + ".partial").write_text(os.environ["CUDA_VISIBLE_DEVICES"])
    os.replace(out + ".partial", out + ".started")
    time.sleep(hold)
    record = {"visible": os.environ["CUDA_VISIBLE_DEVICES"], "start": started, "end": time.time()}
    Path(out).write_text(json.dumps(record))
"""


def _start(tmp_path: Path, name: str, hold: float, ids: str = "3,5") -> subprocess.Popen:
    env = {
        **os.environ,
        "PYTHONPATH": f"{REPO / 'workflow' / 'scripts'}{os.pathsep}{REPO}",
        "MTE_GPU_IDS": ids,
        "MTE_GPU_LOCK_DIR": str(tmp_path / "locks"),
    }
    env.pop("SLURM_JOB_ID", None)
    return subprocess.Popen(
        [sys.executable, "-c", JOB, str(tmp_path / name), str(hold)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _wait_for(path: Path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.05)
    return False


def test_four_gpu_jobs_on_two_devices_take_one_each_and_never_share(tmp_path: Path) -> None:
    jobs = [_start(tmp_path, f"job{i}", hold=1.5) for i in range(4)]
    for job in jobs:
        assert job.wait(timeout=120) == 0, job.stderr.read().decode()
    records = [json.loads((tmp_path / f"job{i}").read_text()) for i in range(4)]
    # exactly one id each, one of the machine's
    assert all(r["visible"] in ("3", "5") for r in records)
    assert {r["visible"] for r in records} == {"3", "5"}
    for device in ("3", "5"):
        spans = sorted((r["start"], r["end"]) for r in records if r["visible"] == device)
        assert len(spans) == 2
        # at most one job per id at a time: the second starts after the first has ended
        assert spans[1][0] >= spans[0][1]
    logs = [(tmp_path / f"job{i}.log").read_text() for i in range(4)]
    assert sum("is taken by another job: waiting" in text for text in logs) == 2
    assert all("of this machine's 3,5 (lock " in text for text in logs)


def test_a_job_killed_with_sigkill_frees_its_device(tmp_path: Path) -> None:
    first = _start(tmp_path, "first", hold=120)
    assert _wait_for(tmp_path / "first.started", 60)
    second = _start(tmp_path, "second", hold=120)
    assert _wait_for(tmp_path / "second.started", 60)
    taken = {(tmp_path / name).read_text() for name in ("first.started", "second.started")}
    assert taken == {"3", "5"}
    waiting = _start(tmp_path, "third", hold=0.1)
    try:
        time.sleep(2.0)
        assert not (tmp_path / "third.started").exists()  # both ids are held
        first.send_signal(signal.SIGKILL)  # no handler runs: the kernel drops the lock
        first.wait(timeout=30)
        assert _wait_for(tmp_path / "third.started", 30)
        assert (tmp_path / "third.started").read_text() == (tmp_path / "first.started").read_text()
        assert waiting.wait(timeout=60) == 0, waiting.stderr.read().decode()
    finally:
        for job in (first, second, waiting):
            if job.poll() is None:
                job.kill()
                job.wait()


def test_the_schedulers_choice_and_jobs_without_a_gpu_are_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MTE_GPU_LOCK_DIR", str(tmp_path / "locks"))
    monkeypatch.setenv("MTE_GPU_IDS", "0,1")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    # a CPU rule, and device: cpu, take nothing
    assert claim_for_job(0, "auto") is None and claim_for_job(1, "cpu") is None
    # SLURM set CUDA_VISIBLE_DEVICES for the job's --gpus: kept as it is
    monkeypatch.setenv("SLURM_JOB_ID", "42")
    assert claim_gpu() is None
    assert os.environ["CUDA_VISIBLE_DEVICES"] == "1"
    assert not (tmp_path / "locks").exists()


def test_the_machines_ids_come_from_the_setting_the_run_or_nvidia_smi(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MTE_GPU_IDS", "2, 3")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    assert machine_gpu_ids() == ["2", "3"]
    monkeypatch.delenv("MTE_GPU_IDS")
    # a run started with CUDA_VISIBLE_DEVICES=0 shares only device 0
    assert machine_gpu_ids() == ["0"]
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    assert machine_gpu_ids() == []
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    monkeypatch.setenv("PATH", "/nonexistent")  # no nvidia-smi: no GPU
    assert machine_gpu_ids() == []
