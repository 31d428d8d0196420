"""tools/run_costs.py on a real run, the shared family run (tests/workflow/family_run.py): every
job it ran is found with its benchmark file, and a prediction's examples and tokens are those
of the features it read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from tests.workflow.snakemake_runner import SHAPES, variant_dir

pytestmark = [pytest.mark.workflow, pytest.mark.families]

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def record(family_run, tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("costs") / "family-costs"
    command = [
        sys.executable, str(REPO / "tools" / "run_costs.py"), "report",
        "--directory", str(family_run.workdir),
        "--configfile", str(family_run.workdir / "config.yaml"),
        "--out", str(out),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert out.with_suffix(".md").is_file()
    return json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))


def test_every_job_the_run_ran_is_measured(family_run, record: dict) -> None:
    ran = {rule: count for rule, count in family_run.counts.items() if rule != "all"}
    measured = {rule: group["jobs"] for rule, group in record["costs"]["rules"].items()}
    assert measured == ran
    # the jobs of the default target that this run's targets left out (its figures, the
    # suites it has no task of) are counted apart, each named
    costs = record["costs"]
    assert costs["jobs_planned"] == costs["jobs_measured"] + len(costs["jobs_without_benchmark"])
    assert {job["rule"] for job in costs["jobs_without_benchmark"]} >= {"plot_heatmap"}
    assert record["costs"]["job_wall_s"] == pytest.approx(
        sum(group["wall_s"] for group in record["costs"]["rules"].values()), abs=0.5
    )
    assert record["machine"]["cpus"] >= 1 and "bf16_units" in record["machine"]


def test_a_predictions_examples_and_tokens_are_those_of_its_features(
    family_run, record: dict
) -> None:
    model = SHAPES[0]  # the first model of the run (make test-shapes runs no tiny BERT)
    (row,) = [
        job for job in record["costs"]["per_job"]
        if job["rule"] == "predict" and job["task"] == "panx"
        and job["job"].startswith(f"{model}/")
    ]  # fmt: skip
    features = list(family_run.workdir.glob(f"results/{model}/panx/features/*/de/test/features.pt"))
    assert len(features) == 1 and variant_dir(family_run.workdir, model, "panx").is_dir()
    read = torch.load(features[0], weights_only=False)
    assert row["examples"] == len(read["ids"])
    assert row["tokens"] == sum(len(ids) for ids in read["input_ids"])
