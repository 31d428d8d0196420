"""One GPU per job on a machine with several.

Snakemake counts a ``gpu`` resource (``--resources gpu=N``) but hands out no device ids, so
every GPU job of a local run would use ``cuda:0``. A job that asks for a GPU therefore takes one
itself, before CUDA starts: it locks the first free device id of the machine (an exclusive
``flock`` on one file per id, which the kernel releases when the job ends, however it ends:
SIGKILL included) and sets ``CUDA_VISIBLE_DEVICES`` to that id alone. Under SLURM the scheduler
has already chosen the job's GPUs (``--gpus``) and set ``CUDA_VISIBLE_DEVICES``: that choice is
used as it is.

The machine's ids: ``MTE_GPU_IDS`` (comma-separated; tests set fake ones), else the ids the run
was started with in ``CUDA_VISIBLE_DEVICES`` (a run kept to some GPUs), else those
``nvidia-smi`` lists; none, and the job runs where ``device`` says (the CPU). The locks live in
``MTE_GPU_LOCK_DIR`` (default: ``mte-gpu-locks`` in the temporary directory), shared by every
run on the machine.
"""

from __future__ import annotations

import fcntl
import logging
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

GPU_IDS_ENV = "MTE_GPU_IDS"
LOCK_DIR_ENV = "MTE_GPU_LOCK_DIR"
# set by SLURM in every job; its GPUs are the scheduler's to give
SCHEDULER_ENV = "SLURM_JOB_ID"


def machine_gpu_ids() -> list[str]:
    """The device ids a job may take (see the module's docstring for where they come from)."""
    for variable in (GPU_IDS_ENV, "CUDA_VISIBLE_DEVICES"):
        value = os.environ.get(variable)
        if value is not None:
            return [part.strip() for part in value.split(",") if part.strip()]
    try:
        listed = subprocess.run(
            ["nvidia-smi", "--query-gpu=index", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []  # no NVIDIA driver here: no GPU to share
    return [line.strip() for line in listed.splitlines() if line.strip()]


def lock_dir() -> Path:
    return Path(os.environ.get(LOCK_DIR_ENV) or Path(tempfile.gettempdir()) / "mte-gpu-locks")


@dataclass
class GpuClaim:
    """A device id held by this process until :meth:`release` or its end."""

    device_id: str
    lock_path: Path
    fd: int

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the descriptor drops the lock
            self.fd = -1


def _try_lock(path: Path) -> int | None:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    # who holds it, for a person looking at the folder (the lock itself is the flock)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def claim_gpu(poll_seconds: float = 1.0) -> GpuClaim | None:
    """Take a free device of this machine for this process and make it the only one CUDA sees;
    wait while every device is taken. None where a scheduler chose the GPUs or there is none."""
    if SCHEDULER_ENV in os.environ:
        log.info(
            "GPUs chosen by the scheduler (SLURM job %s): CUDA_VISIBLE_DEVICES=%s",
            os.environ[SCHEDULER_ENV],
            os.environ.get("CUDA_VISIBLE_DEVICES", ""),
        )
        return None
    ids = machine_gpu_ids()
    if not ids:
        return None
    folder = lock_dir()
    folder.mkdir(parents=True, exist_ok=True)
    waited = False
    while True:
        for device_id in ids:
            path = folder / f"gpu-{device_id}.lock"
            fd = _try_lock(path)
            if fd is not None:
                os.environ["CUDA_VISIBLE_DEVICES"] = device_id
                log.info("GPU %s of this machine's %s (lock %s)", device_id, ",".join(ids), path)
                return GpuClaim(device_id, path, fd)
        if not waited:
            log.info("every GPU (%s) is taken by another job: waiting for one", ",".join(ids))
            waited = True
        time.sleep(poll_seconds)


def claim_for_job(gpus_asked: int, device: str) -> GpuClaim | None:
    """A rule's job: a GPU when its ``gpu`` resource asks for one and the config's ``device``
    allows one."""
    if gpus_asked <= 0 or device == "cpu":
        return None
    return claim_gpu()
