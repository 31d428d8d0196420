"""The real-data tier: every ``tests/configs/real-*.yaml`` through the workflow, then
``results-real/summary.json`` with each experiment's per-language figures, subset sizes and time.

Run from the repository root (``make test-real``). The configs name the real files relative to
the repository root (``../shared/data``); here they are made absolute, so that all experiments
share one working directory, ``results-real/``, and one converted model. Where ``../shared/data``
is absent the tier says so and exits 0 (a user's clone has no real files; CI has them).
``REAL_TIER=xnli,panx`` runs only those experiments (their figures replace theirs in an existing
summary).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import yaml

from mte.tasks import get_task

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "data"
OUT = REPO / "results-real"
CONFIGS = sorted((REPO / "tests" / "configs").glob("real-*.yaml"))


def absolute_config(path: Path) -> dict:
    """The config with every task's ``path`` resolved against the repository root."""
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    for task in config["tasks"].values():
        if task.get("path"):
            task["path"] = str((REPO / task["path"]).resolve())
    return config


def run_experiment(name: str, config: dict, cores: str) -> float:
    """One config through Snakemake in ``results-real/``; returns the wall time in seconds."""
    config_path = OUT / "configs" / f"{name}.yaml"
    config_path.parent.mkdir(parents=True, exist_ok=True)
    config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    command = [
        sys.executable, "-m", "snakemake",
        "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(OUT),
        "--configfile", str(config_path),
        "--cores", cores,
    ]  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    start = time.monotonic()
    log_path = OUT / "logs" / f"{name}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("w", encoding="utf-8") as log:
        done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    elapsed = time.monotonic() - start
    if done.returncode != 0:
        tail = log_path.read_text(encoding="utf-8")[-3000:]
        raise SystemExit(f"{name}: snakemake failed (log: {log_path})\n{tail}")
    return elapsed


def experiment_figures(config: dict) -> dict:
    """Per task: every language's score record (metrics, n, per-layer figures) and the config
    choices that decide them (subset sizes, hyper-parameters, layers)."""
    figures = {}
    for model in config["models"]:
        for task_name, task_cfg in config["tasks"].items():
            scores_dir = (
                OUT / "results" / model["name"] / task_name / "zero-shot" / "seed1" / "scores"
            )
            languages = {}
            wanted = task_cfg.get("languages") or get_task(task_name).languages
            for language in wanted:
                score = json.loads((scores_dir / f"{language}.json").read_text(encoding="utf-8"))
                languages[score["language"]] = {
                    "n": score["n"],
                    "metrics": score["metrics"],
                    **({"by_layer": score["by_layer"]} if "by_layer" in score else {}),
                }
            figures[task_name] = {
                "model": model["name"],
                "subset": task_cfg.get("subset"),
                "files": task_cfg.get("files"),
                "hyperparameters": task_cfg.get("hyperparameters"),
                "layers": task_cfg.get("layers"),
                "languages": languages,
            }
    return figures


def main() -> None:
    if not SHARED.is_dir():
        print(f"real-data tier skipped: {SHARED} is absent (the real files are in CI only)")
        return
    cores = os.environ.get("CORES", "all")
    only = [name for name in os.environ.get("REAL_TIER", "").split(",") if name]
    summary_path = OUT / "summary.json"
    summary = {"experiments": {}}
    if only and summary_path.is_file():
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
    summary["machine"] = {"platform": platform.platform(), "cpus": os.cpu_count()}
    total = time.monotonic()
    for path in CONFIGS:
        name = path.stem.removeprefix("real-")
        if only and name not in only:
            continue
        config = absolute_config(path)
        print(f"[real tier] {name}: running", flush=True)
        seconds = run_experiment(name, config, cores)
        print(f"[real tier] {name}: {seconds / 60:.1f} min", flush=True)
        summary["experiments"][name] = {
            "config": str(path.relative_to(REPO)),
            "seconds": round(seconds, 1),
            "tasks": experiment_figures(config),
        }
    summary["seconds"] = round(sum(e["seconds"] for e in summary["experiments"].values()), 1)
    summary["this_run_seconds"] = round(time.monotonic() - total, 1)
    summary_path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"[real tier] all: {summary['seconds'] / 60:.1f} min; {OUT / 'summary.json'}")


if __name__ == "__main__":
    main()
