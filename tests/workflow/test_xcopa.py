"""XCOPA end to end on the tiny models (BERT, XLM-R's shape, mBERT's) as XTREME-R runs it:
fine-tuned on Social IQa, then on English COPA (start_from), zero-shot and translate-test from
the release's data-gmt/ translations; Social IQa scored on its own dev set from its fine-tune."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.family_run import fine_tuned
from tests.workflow.snakemake_runner import SHAPES, tables_dir, variant_dir
from tests.workflow.tiny_data import COPA_ITEMS, SIQA_ITEMS

pytestmark = [pytest.mark.workflow, pytest.mark.families]


@pytest.fixture(scope="module")
def run(family_run) -> Path:
    """The shared run of every family (tests/workflow/family_run.py): per model, Social IQa's
    fine-tune, then COPA's from it, which serves both settings; each setting predicts Estonian
    once, and Social IQa its English dev set."""
    for model in SHAPES:
        for task in ("siqa", "xcopa"):
            assert fine_tuned(family_run, model, task) == [("zero-shot", "seed1")]
        folder = variant_dir(family_run.workdir, model, "xcopa")
        predictions = sorted(
            p.relative_to(folder).parts[0] for p in folder.glob("*/*/predictions/*.jsonl")
        )
        assert predictions == ["translate-test", "zero-shot"]
    return family_run.workdir


@pytest.mark.parametrize("model", SHAPES)
def test_both_settings_score_every_item(run: Path, model: str) -> None:
    folder = variant_dir(run, model, "xcopa")
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


def test_table_has_a_row_per_model_and_setting(run: Path) -> None:
    table = pd.read_csv(tables_dir(run) / "xcopa.csv")
    rows = list(zip(table["model"], table["setting"], strict=True))
    assert sorted(rows) == sorted((m, s) for m in SHAPES for s in ("zero-shot", "translate-test"))
    assert "# XCOPA (accuracy, %)" in (tables_dir(run) / "xcopa.md").read_text()


@pytest.mark.parametrize("model", SHAPES)
def test_copa_starts_from_the_social_iqa_fine_tune_and_says_so(run: Path, model: str) -> None:
    """XCOPA's fine-tune started from Social IQa's model (the same seed's zero-shot run): its
    record and every XCOPA score's provenance name it, with the epoch Social IQa kept."""
    siqa = variant_dir(run, model, "siqa") / "zero-shot" / "seed1"
    started = json.loads((siqa / "model" / "training.json").read_text())
    assert "start_from" not in started
    copa = variant_dir(run, model, "xcopa") / "zero-shot" / "seed1"
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
