"""Rule scripts' logging: plain-text log files, a few console lines, one line per failure."""

from __future__ import annotations

import io
import logging
import os
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from mte.runtime.logs import PlainTextLog, announce, duration, job_name, rule_logging, summary


def _job(tmp_path: Path) -> SimpleNamespace:
    log = tmp_path / "results" / "logs" / "finetune" / "m" / "xnli" / "zero-shot" / "seed1.log"
    log.parent.mkdir(parents=True)
    return SimpleNamespace(log=[str(log)], rule="finetune", threads=1)


def test_durations_read_as_a_person_writes_them() -> None:
    assert [duration(s) for s in (0, 45.4, 60, 185, 7620)] == [
        "0s",
        "45s",
        "1m00s",
        "3m05s",
        "2h07m",
    ]


def test_a_job_is_named_by_its_log_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    job = SimpleNamespace(log=["results/logs/finetune/m/xnli/zero-shot/seed1.log"], rule="finetune")
    assert job_name(job) == "finetune/m/xnli/zero-shot/seed1"
    assert job_name(SimpleNamespace(log=[], rule="aggregate")) == "aggregate"


def test_log_file_is_plain_text_with_each_record_on_its_own_line() -> None:
    out = io.StringIO()
    log = PlainTextLog(out)
    log.write("\rfine-tune:  50%|#####     | 1/2")  # a progress bar redraws without a newline
    log.start_line()
    log.write("record\n")
    log.start_line()  # already at a line start: nothing added
    log.write("\x1b[1mBertForSequenceClassification LOAD REPORT\x1b[0m\n")
    assert out.getvalue() == (
        "\rfine-tune:  50%|#####     | 1/2\nrecord\nBertForSequenceClassification LOAD REPORT\n"
    )


def test_console_gets_progress_and_one_summary_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    console = io.StringIO()
    monkeypatch.setattr(sys, "stderr", console)
    job = _job(tmp_path)
    with rule_logging(job) as log:
        sys.stderr.write("\rbar 1/2")
        log.info("only in the log")
        announce("epoch %d/%d: dev score %.4f", 1, 2, 0.5)
        summary("%d predictions", 12)
    lines = console.getvalue().splitlines()
    assert lines[0] == "[finetune/m/xnli/zero-shot/seed1] epoch 1/2: dev score 0.5000"
    assert re.fullmatch(
        r"\[finetune/m/xnli/zero-shot/seed1\] done in \d+s: 12 predictions", lines[1]
    )
    assert len(lines) == 2
    with open(job.log[0], encoding="utf-8", newline="") as handle:  # keep the bar's \r
        text = handle.read()
    # the record after the bar starts a line of its own
    assert "\rbar 1/2\n" in text
    assert "only in the log" in text and "epoch 1/2: dev score 0.5000" in text
    assert sys.stderr is console


def test_a_failure_is_one_console_line_and_its_traceback_is_in_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    console = io.StringIO()
    monkeypatch.setattr(sys, "stderr", console)
    job = _job(tmp_path)
    with pytest.raises(SystemExit) as stopped, rule_logging(job):
        raise ValueError("bad line 3 of x.tsv")
    assert stopped.value.code == 1
    assert console.getvalue() == (
        f"[finetune/m/xnli/zero-shot/seed1] failed: ValueError: bad line 3 of x.tsv "
        f"(log: {job.log[0]})\n"
    )
    text = Path(job.log[0]).read_text(encoding="utf-8")
    assert "Traceback" in text and "bad line 3 of x.tsv" in text
    logging.getLogger().handlers.clear()


THREADS_PROBE = """
import sys
from mte.runtime.logs import limit_torch_threads
limit_torch_threads(5)
limit_torch_threads(3)
loaded_before = "torch" in sys.modules
import torch
first = torch.get_num_threads()
limit_torch_threads(1)
print(loaded_before, first, torch.get_num_threads())
"""


def test_a_job_sets_torchs_threads_without_importing_it() -> None:
    """Before torch is loaded the last count asked for is set at its import (3 threads on this
    2-core machine: as torch.set_num_threads sets it, not capped at the cores as the OpenMP
    variable is); after, on torch itself. One fresh process, so that torch is not loaded."""
    import os
    import subprocess

    environment = {
        k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")
    }
    done = subprocess.run(
        [sys.executable, "-c", THREADS_PROBE], capture_output=True, text=True, env=environment
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "3", "1"]


def test_a_jobs_gpu_claim_follows_its_rules_device_param_not_the_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # two free GPUs of this "machine"; a claim locks one of them under the lock folder
    locks = tmp_path / "locks"
    monkeypatch.setenv("MTE_GPU_LOCK_DIR", str(locks))
    monkeypatch.setenv("MTE_GPU_IDS", "0,1")
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    job = _job(tmp_path)
    job.resources = SimpleNamespace(gpu=1)
    # the config says auto, the rule's param (the plan's device) says cpu: nothing claimed
    job.config, job.params = {"device": "auto"}, SimpleNamespace(device="cpu")
    with rule_logging(job):
        assert "CUDA_VISIBLE_DEVICES" not in os.environ
    # a rule without a device param runs no model: nothing claimed either
    job.params = SimpleNamespace()
    with rule_logging(job):
        assert "CUDA_VISIBLE_DEVICES" not in os.environ
    assert not locks.exists() or not any(locks.iterdir())
    # the param auto with a GPU asked: one of the two claimed for the job
    job.params = SimpleNamespace(device="auto")
    with rule_logging(job):
        assert os.environ["CUDA_VISIBLE_DEVICES"] in ("0", "1")
