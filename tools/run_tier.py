"""A real-data tier: every ``tests/configs/{tier}-*.yaml`` through the workflow, then
``results-{tier}/summary.json`` with each experiment's per-language figures (per seed), subset
sizes and time.

Three tiers share this runner: ``real`` (``make test-real``, about 60 minutes on 2 CPUs, out of
CI), ``smoke`` (``make test-smoke``, CI-sized: it only has to fail loudly when the pipeline stops
learning or scoring right) and ``protocols`` (``make test-protocols``, about an hour, out of CI:
one-off comparisons of protocols that docs/results.md reports, XTREME's QA windows and LAReQA's
dual encoder; no floors). Run from the repository root: ``python tools/run_tier.py
[real|smoke|protocols]`` (default ``real``). The configs name the real files relative to the
repository root (``../shared/data``); here they are made absolute, so that all experiments of a
tier share one working directory, ``results-{tier}/``, and one converted model. Where
``../shared/data`` is absent the tier says so and exits 0 (a user's clone has no real files; CI
has them).

Environment: ``REAL_TIER=xnli,panx`` (or ``SMOKE_TIER=...``) runs only those experiments (their
figures replace theirs in an existing summary); ``TIER_SEEDS=1,2,3`` fine-tunes with those seeds
instead of the configs' (how the smoke floors were measured); ``TIER_TOKENIZATION=fast`` runs
with that ``tokenization`` (how docs/parity.md measured its effect); ``CORES`` caps Snakemake's
cores.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import yaml

from mte.config.plan.keys import variant_key
from mte.config.plan.resolve import models_of
from mte.config.schema import with_schema_defaults
from mte.registry import get_task

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
TIERS = ("real", "smoke", "protocols")
UNTRAINED = ("retrieval", "mining")  # families scored with the pretrained encoder


def tier_configs(tier: str) -> list[Path]:
    """The tier's experiment configs, in name order."""
    return sorted((REPO / "tests" / "configs").glob(f"{tier}-*.yaml"))


def absolute_config(path: Path, seeds: list[int] | None = None) -> dict:
    """The config with every task's ``path`` resolved against the repository root (and
    ``seeds`` replaced, when given)."""
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    for task in config["tasks"].values():
        if task.get("path"):
            task["path"] = str((REPO / task["path"]).resolve())
    # seeds are fine-tuning seeds: a task that trains nothing (retrieval) would repeat itself
    if seeds and any(get_task(name).family not in UNTRAINED for name in config["tasks"]):
        config["seeds"] = seeds
    return config


def run_experiment(name: str, config: dict, cores: str, out: Path) -> float:
    """One config through Snakemake in ``out``; returns the wall time in seconds."""
    config_path = out / "configs" / f"{name}.yaml"
    config_path.parent.mkdir(parents=True, exist_ok=True)
    config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    command = [
        sys.executable, "-m", "snakemake",
        "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(out),
        "--configfile", str(config_path),
        "--cores", cores,
    ]  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    start = time.monotonic()
    log_path = out / "logs" / f"{name}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("w", encoding="utf-8") as log:
        done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    elapsed = time.monotonic() - start
    if done.returncode != 0:
        tail = log_path.read_text(encoding="utf-8")[-3000:]
        raise SystemExit(f"{name}: snakemake failed (log: {log_path})\n{tail}")
    return elapsed


def _language_figures(scores_dir: Path, wanted: list[str]) -> dict:
    """Every wanted language's score record: metrics, n, per-layer figures."""
    languages = {}
    for language in wanted:
        score = json.loads((scores_dir / f"{language}.json").read_text(encoding="utf-8"))
        languages[score["language"]] = {
            "n": score["n"],
            "metrics": score["metrics"],
            # the bootstrap interval's bounds (its replicates stay in the score file)
            "interval": {
                key: value
                for key, value in (score.get("interval") or {}).items()
                if key in ("metric", "confidence", "low", "high")
            }
            or None,
            **({"by_layer": score["by_layer"]} if "by_layer" in score else {}),
        }
    return languages


def experiment_figures(config: dict, seeds: list[int], out: Path) -> dict:
    """Per task: every language's score record for each of ``seeds`` (``languages`` is the
    first seed's, ``by_seed`` all of them) and the config choices that decide them (subset
    sizes, hyper-parameters, layers)."""
    # the results folder of a task is named from the config with the schema's defaults filled
    # in, exactly as the workflow names it
    filled = with_schema_defaults(config, REPO / "config" / "schema.yaml")
    figures = {}
    for model in config["models"]:
        for task_name, task_cfg in config["tasks"].items():
            task = get_task(task_name)
            if task.train_only:  # SQuAD: its fine-tune is scored through XQuAD
                continue
            # a task evaluating another's fine-tunes (XQuAD: SQuAD's, Belebele: the config's)
            # records that one's choices
            trained = config["tasks"].get(models_of(task_name, config), task_cfg)
            wanted = task_cfg.get("languages") or task.languages
            variant = variant_key(task_name, filled)
            task_dir = out / "results" / model["name"] / task_name / variant / "zero-shot"
            by_seed = {
                str(seed): _language_figures(task_dir / f"seed{seed}" / "scores", wanted)
                for seed in seeds
            }
            figures[task_name] = {
                "model": model["name"],
                "subset": {**(trained.get("subset") or {}), **(task_cfg.get("subset") or {})},
                "files": {**(trained.get("files") or {}), **(task_cfg.get("files") or {})},
                "hyperparameters": trained.get("hyperparameters"),
                "layers": task_cfg.get("layers"),
                "encoder": task_cfg.get("encoder", "pretrained"),
                "languages": by_seed[str(seeds[0])],
                "by_seed": by_seed,
            }
    return figures


def _commit() -> str | None:
    """The checkout's commit (with ``+changes`` where the tree differs from it)."""

    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)

    head = git("rev-parse", "HEAD")
    if head.returncode != 0:
        return None
    dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return head.stdout.strip() + ("+changes" if dirty else "")


def main(tier: str = "real") -> None:
    if tier not in TIERS:
        raise SystemExit(f"unknown tier {tier!r}: expected one of {', '.join(TIERS)}")
    if not SHARED.is_dir():
        print(f"{tier} tier skipped: {SHARED} is absent (the real files are in CI only)")
        return
    out = REPO / f"results-{tier}"
    cores = os.environ.get("CORES", "all")
    only = [name for name in os.environ.get(f"{tier.upper()}_TIER", "").split(",") if name]
    seeds = [int(seed) for seed in os.environ.get("TIER_SEEDS", "").split(",") if seed]
    summary_path = out / "summary.json"
    summary = {"experiments": {}}
    if only and summary_path.is_file():
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
    summary["machine"] = {"platform": platform.platform(), "cpus": os.cpu_count()}
    total = time.monotonic()
    for path in tier_configs(tier):
        name = path.stem.removeprefix(f"{tier}-")
        if only and name not in only:
            continue
        config = absolute_config(path, seeds)
        if os.environ.get("TIER_TOKENIZATION"):
            config["tokenization"] = os.environ["TIER_TOKENIZATION"]
        print(f"[{tier} tier] {name}: running", flush=True)
        seconds = run_experiment(name, config, cores, out)
        print(f"[{tier} tier] {name}: {seconds / 60:.1f} min", flush=True)
        run_seeds = config.get("seeds") or [1]  # the schema's default
        summary["experiments"][name] = {
            "config": str(path.relative_to(REPO)),
            # which code measured it, when, and where: an experiment rerun alone replaces only
            # its own entry of a summary that older runs wrote
            "commit": _commit(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
            "seeds": run_seeds,
            "tokenization": config.get("tokenization", "paper"),
            "seconds": round(seconds, 1),
            "tasks": experiment_figures(config, run_seeds, out),
        }
    summary["seconds"] = round(sum(e["seconds"] for e in summary["experiments"].values()), 1)
    summary["this_run_seconds"] = round(time.monotonic() - total, 1)
    summary_path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"[{tier} tier] all: {summary['seconds'] / 60:.1f} min; {summary_path}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
