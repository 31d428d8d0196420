"""Workflow overhead: building the DAG of the full XTREME grid, a no-op rerun of a finished
run, and proof that a new setting or seed of the same model and task tokenises nothing again.

1. ``snakemake -n`` on config/xtreme.yaml's nine tasks x 40 languages with 2 models and seeds
   [1, 2, 3] (hub sources: nothing is read), against ``snakemake -n`` of a one-rule Snakefile
   (Snakemake's own start-up) measured in the same run.
2. A small run (the demo XNLI, the tiny model), then the same command again: seconds of the
   rerun, which must have nothing to do.
3. The same config with a second seed: the new jobs, none of which may be a tokenize job
   (features depend on model, task, language and split only).

    .venv/bin/python benchmarks/workflow_overhead.py
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from _common import REPO, write_result


def snakemake(workdir: Path, config: dict | None, *args: str, snakefile: Path | None = None):
    command = [
        sys.executable, "-m", "snakemake",
        "--snakefile", str(snakefile or REPO / "Snakefile"),
        "--directory", str(workdir),
        "--cores", "2",
    ]  # fmt: skip
    if config is not None:
        path = workdir / "config.yaml"
        path.write_text(yaml.safe_dump(config), encoding="utf-8")
        command += ["--configfile", str(path)]
    start = time.perf_counter()
    done = subprocess.run(
        [*command, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"},
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"snakemake failed:\n{done.stderr[-3000:]}")
    return seconds, done.stdout + done.stderr


def job_counts(output: str) -> dict[str, int]:
    match = re.search(r"Job stats:\njob\s+count\n[-\s]+\n(.*?)\ntotal\s+(\d+)", output, re.S)
    if match is None:
        return {}
    counts = {line.split()[0]: int(line.split()[1]) for line in match.group(1).splitlines()}
    counts["total"] = int(match.group(2))
    return counts


def main() -> None:
    grid = yaml.safe_load((REPO / "config" / "xtreme.yaml").read_text(encoding="utf-8"))
    grid["models"] = grid["models"][:2]
    grid["seeds"] = [1, 2, 3]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        (root / "bare").mkdir()
        bare = root / "bare" / "Snakefile"
        bare.write_text("rule all:\n    output: 'x'\n    shell: 'touch {output}'\n")
        bare_seconds, _ = snakemake(root / "bare", None, "-n", snakefile=bare)
        (root / "grid").mkdir()
        grid_seconds, grid_output = snakemake(root / "grid", grid, "-n")
        grid_jobs = job_counts(grid_output)

        small = {
            "models": [{"name": "tiny", "source": "tiny"}],
            "tasks": {"xnli": {"source": "demo", "hyperparameters": {"epochs": 1}}},
            "seeds": [1],
        }
        (root / "small").mkdir()
        first_seconds, _ = snakemake(root / "small", small)
        noop_seconds, noop_output = snakemake(root / "small", small)
        nothing_to_do = "Nothing to be done" in noop_output
        more_seeds = {**small, "seeds": [1, 2]}
        _, seed_output = snakemake(root / "small", more_seeds, "-n")
        new_jobs = job_counts(seed_output)
    result = {
        "grid": {
            "tasks": len(grid["tasks"]),
            "models": len(grid["models"]),
            "seeds": grid["seeds"],
            "jobs": grid_jobs.get("total"),
            "jobs_by_rule": grid_jobs,
            "dry_run_seconds": grid_seconds,
            "snakemake_startup_seconds": bare_seconds,
            "ratio_to_startup": grid_seconds / bare_seconds,
        },
        "small_run": {
            "first_run_seconds": first_seconds,
            "noop_rerun_seconds": noop_seconds,
            "nothing_to_be_done": nothing_to_do,
            "ratio_to_startup": noop_seconds / bare_seconds,
        },
        "second_seed_new_jobs": new_jobs,
        "second_seed_tokenize_jobs": new_jobs.get("tokenize", 0),
    }
    path = write_result("workflow_overhead", result)
    print(
        f"workflow: snakemake -n on the grid ({grid_jobs.get('total')} jobs) {grid_seconds:.1f} s "
        f"= {grid_seconds / bare_seconds:.1f}x Snakemake's start-up ({bare_seconds:.1f} s); "
        f"no-op rerun {noop_seconds:.1f} s (nothing to do: {nothing_to_do}); a second seed adds "
        f"{new_jobs.get('total', 0)} jobs, {new_jobs.get('tokenize', 0)} of them tokenize  ({path})"
    )


if __name__ == "__main__":
    main()
