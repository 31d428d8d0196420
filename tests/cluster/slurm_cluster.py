"""A single-node SLURM cluster on this machine, for tests: munge, slurmctld and slurmd started
as daemons with their own configuration, state and PID files in a temporary folder, and stopped
again by the PIDs they wrote (a munged that was already running is used and left alone).

Known to work on Debian 12 as root without systemd, with ``slurm-wlm`` (SLURM 22.05) and
``munge`` from apt."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

MUNGE_PID = Path("/run/munge/munged.pid")
# where srun inside a job looks for the configuration: snakemake-executor-plugin-slurm-jobstep
# (0.6.1) drops SLURM_CONF, with every SLURM_ variable, from the environment of its nested srun
DEFAULT_CONF = Path("/etc/slurm/slurm.conf")


def unavailable_reason() -> str | None:
    """Why a cluster cannot be started here (None when it can, installing SLURM with apt if it
    is missing)."""
    if os.geteuid() != 0:
        return "starting munged, slurmctld and slurmd needs root"
    for conf in (DEFAULT_CONF, DEFAULT_CONF.with_name("gres.conf")):
        if conf.exists():
            return f"{conf} exists: this machine has a SLURM cluster of its own"
    if all(shutil.which(tool) for tool in ("slurmctld", "slurmd", "munged", "sbatch")):
        return None
    if not shutil.which("apt-get"):
        return "SLURM is not installed and there is no apt-get to install it"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "slurm-wlm", "munge"],
    ):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
        if done.returncode != 0:
            return f"installing SLURM failed: {' '.join(command)}: {done.stderr[-500:]}"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _memory_mb() -> int:
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    raise RuntimeError("no MemTotal in /proc/meminfo")


class SlurmCluster:
    """One node (this host), one partition, configured in /etc/slurm/slurm.conf (written by
    ``start``, removed by ``stop``; a machine that has one is left alone), state and logs in
    ``root``."""

    partition = "debug"
    # GPUs the node offers to jobs' --gpus requests: scheduled and counted by SLURM, with a
    # stand-in device file behind each, so that the GPU jobs of a CPU machine can run
    gpus = 2

    def __init__(self, root: Path) -> None:
        self.root = root
        self.host = socket.gethostname().split(".")[0]
        self.conf = DEFAULT_CONF
        self.gres_conf = DEFAULT_CONF.with_name("gres.conf")
        self.env = {**os.environ, "SLURM_CONF": str(self.conf)}
        self.pid_files: list[Path] = []

    def write_config(self) -> None:
        self.conf.parent.mkdir(parents=True, exist_ok=True)
        for name in ("state", "spool"):
            (self.root / name).mkdir(parents=True, exist_ok=True)
        cpus = os.cpu_count() or 1
        # 2 GB below the machine's memory; a default per CPU, else a job asks for the node
        memory = max(_memory_mb() - 2048, 1024)
        r = self.root
        gres = f"Gres=gpu:{self.gpus}"
        self.conf.write_text(
            f"""ClusterName=mte-test
SlurmctldHost={self.host}(127.0.0.1)
SlurmctldPort={_free_port()}
SlurmdPort={_free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation={r}/state
SlurmdSpoolDir={r}/spool
SlurmctldPidFile={r}/slurmctld.pid
SlurmdPidFile={r}/slurmd.pid
SlurmctldLogFile={r}/slurmctld.log
SlurmdLogFile={r}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc={r}/jobcomp.txt
MpiDefault=none
ReturnToService=2
# finished jobs stay visible to scontrol for an hour: the tests read what each asked for
MinJobAge=3600
GresTypes=gpu
NodeName={self.host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={memory} {gres} State=UNKNOWN
PartitionName={self.partition} Nodes={self.host} Default=YES MaxTime=INFINITE State=UP
""",
            encoding="utf-8",
        )
        # a GPU must name a device file: character devices every machine has stand in
        stand_ins = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random")[: self.gpus]
        self.gres_conf.write_text(
            "".join(f"NodeName={self.host} Name=gpu File={dev}\n" for dev in stand_ins),
            encoding="utf-8",
        )

    def _start_munge(self) -> None:
        if subprocess.run(["pgrep", "-x", "munged"], capture_output=True).returncode == 0:
            return  # somebody else's: use it, leave it running
        Path("/run/munge").mkdir(parents=True, exist_ok=True)
        shutil.chown("/run/munge", "munge", "munge")
        subprocess.run(["runuser", "-u", "munge", "--", "munged"], check=True, timeout=30)
        self._wait_for(MUNGE_PID.is_file, "munged's PID file")
        self.pid_files.append(MUNGE_PID)

    def start(self) -> None:
        self.write_config()
        self._start_munge()
        subprocess.run(["slurmctld", "-f", str(self.conf)], check=True, env=self.env, timeout=60)
        self.pid_files.append(self.root / "slurmctld.pid")
        subprocess.run(
            ["slurmd", "-f", str(self.conf), "-N", self.host], check=True, env=self.env, timeout=60
        )
        self.pid_files.append(self.root / "slurmd.pid")
        self._wait_for(self._node_ready, "the node to be idle")

    def _node_ready(self) -> bool:
        done = subprocess.run(
            ["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, env=self.env
        )
        return done.returncode == 0 and done.stdout.strip() == "idle"

    @staticmethod
    def _wait_for(ready, what: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not ready():
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            time.sleep(0.2)

    def command(self, *args: str) -> str:
        """A SLURM client command against this cluster; its standard output."""
        return subprocess.run(
            list(args), capture_output=True, text=True, env=self.env, check=True, timeout=60
        ).stdout

    def stop(self) -> None:
        """Stop exactly the daemons this cluster started, by the PIDs they wrote, last first,
        and remove the configuration it wrote."""
        for pid_file in reversed(self.pid_files):
            try:
                pid = int(pid_file.read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            else:
                os.kill(pid, signal.SIGKILL)
        self.pid_files.clear()
        self.conf.unlink(missing_ok=True)
        self.gres_conf.unlink(missing_ok=True)
