"""Running the real workflow in a temporary directory and reading what it did."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def run_snakemake(workdir: Path, config: dict | Path, *args: str) -> subprocess.CompletedProcess:
    """``snakemake --cores 2`` on the repository's Snakefile with ``config`` in ``workdir``."""
    if isinstance(config, dict):
        config_path = workdir / "config.yaml"
        config_path.write_text(yaml.safe_dump(config), encoding="utf-8")
    else:
        config_path = config
    command = [
        sys.executable, "-m", "snakemake",
        "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(workdir),
        "--configfile", str(config_path),
        "--cores", "2",
        *args,
    ]  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800)


def interval_columns(columns: list[str]) -> list[str]:
    """The bootstrap interval columns a table adds for ``columns``, in order."""
    return [f"{column}_{end}" for column in columns for end in ("low", "high")]


def job_counts(output: str) -> dict[str, int]:
    """The "Job stats" table Snakemake prints: rule name -> number of jobs."""
    match = re.search(r"Job stats:\njob\s+count\n[-\s]+\n(.*?)\ntotal\s+\d+", output, re.S)
    if match is None:
        return {}
    counts = {}
    for line in match.group(1).splitlines():
        name, count = line.split()
        counts[name] = int(count)
    return counts
