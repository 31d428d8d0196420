"""XCOPA end to end on the tiny model as XTREME-R runs it: fine-tuned on Social IQa, then on
English COPA (start_from), zero-shot and translate-test from the release's data-gmt/
translations; Social IQa scored on its own dev set from the same fine-tune."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.snakemake_runner import job_counts, run_snakemake, tables_dir, variant_dir
from tests.workflow.tiny_data import COPA_ITEMS, SIQA_ITEMS, write_siqa, write_xcopa

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path) -> Path:
    workdir = tmp_path_factory.mktemp("xcopa")
    data = workdir / "data"
    write_xcopa(data)
    write_siqa(data / "siqa")
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
                "start_from": "siqa",
            },
            "siqa": {
                "source": "files",
                "path": str(data / "siqa"),
                "hyperparameters": {"epochs": 1, "batch_size": 4, "max_length": 32},
            },
        },
    }
    done = run_snakemake(workdir, config)
    assert done.returncode == 0, done.stderr[-4000:]
    counts = job_counts(done.stdout + done.stderr)
    # Social IQa's fine-tune, then COPA's from it, which serves both settings; each setting
    # predicts Estonian once, and Social IQa its English dev set
    assert counts["finetune"] == 2 and counts["predict"] == 3 and counts["score"] == 3
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


def test_copa_starts_from_the_social_iqa_fine_tune_and_says_so(run: Path) -> None:
    """XCOPA's fine-tune started from Social IQa's model (the same seed's zero-shot run): its
    record and every XCOPA score's provenance name it, with the epoch Social IQa kept."""
    siqa = variant_dir(run, "tiny", "siqa") / "zero-shot" / "seed1"
    started = json.loads((siqa / "model" / "training.json").read_text())
    assert "start_from" not in started
    copa = variant_dir(run, "tiny", "xcopa") / "zero-shot" / "seed1"
    record = json.loads((copa / "model" / "training.json").read_text())
    assert record["start_from"] == {
        "task": "siqa",
        "hyperparameters": started["hyperparameters"],
        "seed": 1,
        "selected": started["selected"],
    }
    score = json.loads((copa / "scores" / "et.json").read_text())
    assert score["provenance"]["training"]["start_from"]["task"] == "siqa"
    own = json.loads((siqa / "scores" / "en.json").read_text())
    assert own["split"] == "dev" and own["n"] == len(SIQA_ITEMS)
    assert "start_from" not in own["provenance"]["training"]
