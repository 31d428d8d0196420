"""Running the real workflow in a temporary directory and reading what it did."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def run_snakemake(
    workdir: Path,
    config: dict | Path | list[Path],
    *args: str,
    repo: Path = REPO,
    capture: bool = True,
    timeout: float | None = 1800,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """``snakemake --cores 2`` on ``repo``'s Snakefile (default: this checkout's) with
    ``config`` in ``workdir`` (a mapping, written to config.yaml; a file; or files, each
    updating the ones before, as Snakemake merges them), its output captured unless
    ``capture`` is False; ``env`` adds environment variables. The checkout's own package comes
    first on the path, whatever is installed (two checkouts compared)."""
    if isinstance(config, dict):
        config_paths = [workdir / "config.yaml"]
        config_paths[0].write_text(yaml.safe_dump(config), encoding="utf-8")
    else:
        config_paths = list(config) if isinstance(config, list) else [config]
    command = [
        sys.executable, "-m", "snakemake",
        "--snakefile", str(repo / "Snakefile"),
        "--directory", str(workdir),
        "--configfile", *map(str, config_paths),
        "--cores", "2",
        # Snakemake's per-job blocks, which profiles/default leaves out: tests read them
        "--workflow-profile", "none",
        *args,
    ]  # fmt: skip
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", **(env or {})}
    scripts = [str(repo / "workflow" / "scripts"), os.environ.get("PYTHONPATH")]
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, scripts))
    return subprocess.run(
        command, capture_output=capture, text=True, env=environment, timeout=timeout
    )


def run_report(
    workdir: Path, configs: list[Path], *values: str, repo: Path = REPO
) -> subprocess.CompletedProcess:
    """``mte-report`` (make report CONFIG=...) of a run made in ``workdir`` with the config
    files ``configs`` and the ``--config`` ``values``, from ``repo``'s package: the report in
    results/runs/<run>/report.html."""
    command = [sys.executable, "-m", "mte.commands.report", "--directory", str(workdir)]
    command += ["--configfile", *map(str, configs)]
    if values:
        command += ["--config", *values]
    env = {**os.environ, "PYTHONPATH": str(repo / "workflow" / "scripts")}
    return subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True)


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


# the run name of a config written by run_snakemake (the file's name: config.yaml)
RUN = "config"


def tables_dir(workdir: Path, run: str = RUN) -> Path:
    """A run's tables: results/runs/{run}/tables."""
    return workdir / "results" / "runs" / run / "tables"


def plots_dir(workdir: Path, run: str = RUN) -> Path:
    return workdir / "results" / "runs" / run / "plots"


def variant_dir(workdir: Path, model: str, task: str, setting: str | None = None) -> Path:
    """results/{model}/{task}/{variant}: the one results folder of a task (a config that asks
    for two would make this ambiguous, which is an error here); with ``setting``, the one that
    holds that setting's runs (the in-context setting's folder is not the fine-tunes')."""
    found = [
        path
        for path in (workdir / "results" / model / task).iterdir()
        if path.is_dir() and path.name != "features"
        and (setting is None or (path / setting).is_dir())
    ]  # fmt: skip
    assert len(found) == 1, f"expected one results folder of {model}/{task}, found {found}"
    return found[0]


def data_dir(workdir: Path, task: str) -> Path:
    """resources/data/{task}/{data}: the one data folder of a task."""
    (found,) = (workdir / "resources" / "data" / task).iterdir()
    return found


def variant_of(config: dict, task: str) -> str:
    """The results folder name ({variant}) the workflow gives ``task`` under ``config``: the
    config with the schema's defaults filled in, keyed as mte.config keys it."""
    from mte.config.plan.keys import variant_key
    from mte.config.schema import with_schema_defaults

    return variant_key(task, with_schema_defaults(config, REPO / "config" / "schema.yaml"))


def report_results(report: Path) -> dict[str, dict]:
    """The results a Snakemake HTML report embeds (``var results = {...}`` in its
    ``<script id="results">``): output path -> its record, with ``content``, the bytes of the
    embedded file decoded from its data URI."""
    import base64
    import json

    text = report.read_text(encoding="utf-8")
    match = re.search(r'<script id="results">\s*var results = (.*?);\s*</script>', text, re.S)
    if match is None:
        raise AssertionError(f"no embedded results in {report}")
    results = json.loads(match.group(1))
    for record in results.values():
        _, _, payload = record["data_uri"].partition("base64,")
        record["content"] = base64.b64decode(payload)
    return results


# the tiny models of tests/conftest.py: a BERT with a unigram tokenizer, XLM-R's shape and
# mBERT's, and three decoders (Llama's, Qwen2's and Gemma's shapes)
ALL_SHAPES = (
    "tiny", "tiny-xlmr", "tiny-mbert", "tiny-llama", "tiny-qwen2", "tiny-gemma",
    "tiny-deberta-v2", "tiny-rembert", "tiny-electra", "tiny-distilbert", "tiny-mt5",
)  # fmt: skip
DECODERS = ("tiny-llama", "tiny-qwen2", "tiny-gemma")
SHAPES_ENV = "MTE_TEST_SHAPES"


def shapes_to_run() -> tuple[str, ...]:
    """The tiny models the family workflow tests run with: ``MTE_TEST_SHAPES`` (comma-separated
    names of ALL_SHAPES; ``make test-shapes`` sets the others), else the BERT alone (`make
    test`'s time: every model job is one more process per shape)."""
    asked = os.environ.get(SHAPES_ENV, "tiny")
    names = tuple(name.strip() for name in asked.split(",") if name.strip())
    unknown = [name for name in names if name not in ALL_SHAPES]
    if unknown or not names:
        raise ValueError(f"{SHAPES_ENV}={asked!r}: give some of {', '.join(ALL_SHAPES)}")
    return names


SHAPES = shapes_to_run()


def model_entries(tiny_models: dict[str, Path]) -> list[dict]:
    """The config's ``models`` list for tiny models: local folders, built once a session."""
    return [
        {"name": name, "source": "local", "path": str(path)} for name, path in tiny_models.items()
    ]
