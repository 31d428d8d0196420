"""PAWS-X, Tatoeba, BUCC and two GLUE tasks (one regression) end to end on the tiny model."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.snakemake_runner import (
    interval_columns,
    job_counts,
    run_snakemake,
    tables_dir,
    variant_dir,
)
from tests.workflow.tiny_data import write_bucc, write_glue, write_pawsx, write_tatoeba

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = tmp_path_factory.mktemp("more")
    data = workdir / "data"
    data.mkdir()
    write_pawsx(data / "pawsx")
    write_tatoeba(data / "tatoeba")
    write_bucc(data / "bucc")
    write_glue(data / "glue")
    small = {"epochs": 1, "batch_size": 4, "max_length": 32}
    config = {
        "models": [{"name": "tiny", "source": "tiny"}],
        "tasks": {
            "pawsx": {
                "source": "files",
                "path": str(data / "pawsx"),
                "languages": ["en", "de"],
                "hyperparameters": small,
            },
            "tatoeba": {"source": "files", "path": str(data / "tatoeba"), "languages": ["de"]},
            "bucc": {"source": "files", "path": str(data / "bucc"), "languages": ["de"]},
            "sst2": {
                "source": "files",
                "path": str(data / "glue" / "SST-2"),
                "hyperparameters": small,
            },
            "stsb": {
                "source": "files",
                "path": str(data / "glue" / "STS-B"),
                "hyperparameters": small,
            },
        },
    }
    done = run_snakemake(workdir, config)
    assert done.returncode == 0, done.stderr[-4000:]
    counts = job_counts(done.stdout + done.stderr)
    # Tatoeba and BUCC do not fine-tune; PAWS-X, SST-2 and STS-B do
    assert counts["finetune"] == 3 and counts["retrieve"] == 2
    return workdir


def _score(run: Path, task: str, language: str) -> dict:
    path = variant_dir(run, "tiny", task) / f"zero-shot/seed1/scores/{language}.json"
    return json.loads(path.read_text())


def test_pawsx_table(run: Path) -> None:
    table = pd.read_csv(tables_dir(run) / "pawsx.csv")
    values = ["en", "de", "avg"]
    assert list(table.columns) == [
        "model",
        "setting",
        "row",
        "seeds",
        *values,
        *interval_columns(values),
    ]
    assert _score(run, "pawsx", "de")["n"] == 6


def test_tatoeba_scores_both_layers(run: Path) -> None:
    score = _score(run, "tatoeba", "de")
    assert score["n"] == 6
    assert set(score["metrics"]) == {"accuracy", "error_rate", "accuracy_en_to_xx"}
    assert score["metrics"]["accuracy"] + score["metrics"]["error_rate"] == pytest.approx(1.0)
    # the tiny model has 2 layers: the model's choice is the last, XTREME's the middle (1)
    assert {k: v["layer"] for k, v in score["by_layer"].items()} == {"model": 2, "xtreme": 1}
    assert score["provenance"]["training"] is None
    assert (tables_dir(run) / "tatoeba.md").is_file()


def test_bucc_mines_and_scores(run: Path) -> None:
    score = _score(run, "bucc", "de")
    assert score["n"] == 3  # gold pairs of the test split
    assert set(score["metrics"]) == {"f1", "precision", "recall", "threshold"}
    predictions = (
        variant_dir(run, "tiny", "bucc") / "zero-shot/seed1/predictions/de.jsonl"
    ).read_text()
    splits = {json.loads(line)["split"] for line in predictions.splitlines()}
    assert splits == {"dev", "test"}


def test_glue_tables(run: Path) -> None:
    stsb = _score(run, "stsb", "en")
    assert stsb["split"] == "dev" and set(stsb["metrics"]) == {"pearson", "spearman"}
    glue = pd.read_csv(tables_dir(run) / "glue.csv")
    assert list(glue.columns) == [
        "model", "setting", "row", "sst2_accuracy", "stsb_pearson", "stsb_spearman", "avg",
    ]  # fmt: skip
    row = glue.iloc[0]
    expected = (row["sst2_accuracy"] + (row["stsb_pearson"] + row["stsb_spearman"]) / 2) / 2
    assert row["avg"] == pytest.approx(expected, abs=0.01)
    assert "| SST-2 | STS-B | avg |" in (tables_dir(run) / "glue.md").read_text()
