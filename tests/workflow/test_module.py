"""The workflow as a Snakemake module of another workflow: an outer Snakefile that includes this
checkout's with ``module`` and ``use rule *`` plans the same jobs as a direct run, and its jobs
find this checkout's package, schema and scripts (not the outer workflow's folder)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mte.registry import get_task
from tests.workflow.snakemake_runner import REPO, job_counts, run_snakemake

pytestmark = pytest.mark.workflow

PREFIX = "transfer_"


def outer_workflow(folder: Path, config: dict) -> Path:
    """A tiny workflow in ``folder`` whose only rules are this checkout's, renamed."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    snakefile = folder / "Snakefile"
    snakefile.write_text(
        'configfile: "config.yaml"\n\n\n'
        "module transfer:\n"
        f"    snakefile:\n        {str(REPO / 'Snakefile')!r}\n"
        "    config:\n        config\n\n\n"
        f"use rule * from transfer as {PREFIX}*\n",
        encoding="utf-8",
    )
    return snakefile


def run_outer(folder: Path, *args: str) -> subprocess.CompletedProcess:
    # the outer folder holds no package: only the module's own path can find it
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    environment.pop("PYTHONPATH", None)
    command = [sys.executable, "-m", "snakemake", "--snakefile", "Snakefile", "--cores", "2"]
    return subprocess.run(
        [*command, *args], cwd=folder, capture_output=True, text=True, env=environment
    )


def test_a_module_plans_the_jobs_of_a_direct_run(tmp_path: Path) -> None:
    """The default config (every step, from download to the report's pages; a paper config's
    plan would take a minute twice, and test_dag plans those)."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    outer = tmp_path / "outer"
    outer_workflow(outer, config)
    through_module = run_outer(outer, "-n")
    assert through_module.returncode == 0, through_module.stderr[-3000:]
    direct = run_snakemake(tmp_path / "direct", REPO / "config" / "config.yaml", "-n")
    assert direct.returncode == 0, direct.stderr[-3000:]
    counts = job_counts(through_module.stdout + through_module.stderr)
    assert all(name.startswith(PREFIX) for name in counts)
    renamed = {name.removeprefix(PREFIX): count for name, count in counts.items()}
    assert renamed == job_counts(direct.stdout + direct.stderr)
    # the chain's every step, the light rules' template among none of them
    steps = {"download", "tokenize", "finetune", "predict", "score", "aggregate", "describe_run"}
    assert steps <= set(renamed) and "light_step" not in renamed


def test_a_module_runs_its_scripts_from_its_own_checkout(tmp_path: Path) -> None:
    """The default config's demo data, downloaded by the module's rule in the outer folder:
    its script, the package it imports and the schema's defaults all come from this checkout."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    outer = tmp_path / "outer"
    outer_workflow(outer, config)
    done = run_outer(outer, "--until", f"{PREFIX}download")
    assert done.returncode == 0, done.stderr[-3000:]
    written = sorted(outer.glob("resources/data/xnli/*/*/*.jsonl"))
    languages = {path.parent.name for path in written}
    # the demo source's languages: the config names none
    assert "languages" not in config["tasks"]["xnli"]
    assert languages == set(get_task("xnli").demo_languages)
    first = json.loads(written[0].read_text(encoding="utf-8").splitlines()[0])
    assert {"id", "text_a", "text_b", "label"} <= set(first)
    assert not (outer / "workflow").exists()
