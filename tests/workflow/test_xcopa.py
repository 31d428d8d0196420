"""XCOPA end to end on the tiny model: zero-shot from English COPA, and translate-test from the
release's data-gmt/ translations."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.snakemake_runner import job_counts, run_snakemake, tables_dir, variant_dir
from tests.workflow.tiny_data import COPA_ITEMS, write_xcopa

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path) -> Path:
    workdir = tmp_path_factory.mktemp("xcopa")
    data = workdir / "data"
    write_xcopa(data)
    config = {
        "models": [{"name": "tiny", "source": "local", "path": str(tiny_model)}],
        "tasks": {
            "xcopa": {
                "source": "files",
                "path": str(data),
                "languages": ["et"],
                "settings": ["zero-shot", "translate-test"],
                "translations": {
                    "source": "files",
                    "path": str(data),
                    "files": {"translate-test": "data-gmt/{lang}/test.{lang}.jsonl"},
                },
                "hyperparameters": {"epochs": 1, "batch_size": 4, "max_length": 32},
            }
        },
    }
    done = run_snakemake(workdir, config)
    assert done.returncode == 0, done.stderr[-4000:]
    counts = job_counts(done.stdout + done.stderr)
    # one English fine-tune serves both settings; each setting predicts Estonian once
    assert counts["finetune"] == 1 and counts["predict"] == 2 and counts["score"] == 2
    return workdir


def test_both_settings_score_every_item(run: Path) -> None:
    folder = variant_dir(run, "tiny", "xcopa")
    for setting in ("zero-shot", "translate-test"):
        score = json.loads((folder / setting / "seed1" / "scores" / "et.json").read_text())
        assert score["n"] == len(COPA_ITEMS)
        predictions = (folder / setting / "seed1" / "predictions" / "et.jsonl").read_text()
        records = [json.loads(line) for line in predictions.splitlines()]
        assert [r["id"] for r in records] == [str(n) for n in range(len(COPA_ITEMS))]
        assert all(r["label"] in (0, 1) for r in records)
        # accuracy is the share of predicted choices equal to the gold ones
        gold = [item[1][4] for item in COPA_ITEMS]
        right = sum(r["label"] == g for r, g in zip(records, gold, strict=True))
        assert score["metrics"]["accuracy"] == right / len(COPA_ITEMS)
        assert len(score["example_stats"]) == len(COPA_ITEMS)


def test_table_has_a_row_per_setting(run: Path) -> None:
    table = pd.read_csv(tables_dir(run) / "xcopa.csv")
    assert list(table["setting"]) == ["zero-shot", "translate-test"]
    assert "# XCOPA (accuracy, %)" in (tables_dir(run) / "xcopa.md").read_text()
