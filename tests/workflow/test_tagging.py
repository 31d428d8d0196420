"""Tagging end to end on the tiny models (BERT, XLM-R's shape, mBERT's): PAN-X (entities) and
UD POS (tags), zero-shot from English, each score checked against its predictions by the
benchmark's own definition."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.workflow.family_run import fine_tuned
from tests.workflow.snakemake_runner import SHAPES, tables_dir, variant_dir

pytestmark = [pytest.mark.workflow, pytest.mark.families]


@pytest.fixture(scope="module")
def run(family_run) -> Path:
    """The shared run of every family (tests/workflow/family_run.py): its PAN-X and UD POS, with
    English train and dev, tested in German, a fine-tune per task and model."""
    for model in SHAPES:
        for task in ("panx", "udpos"):
            assert fine_tuned(family_run, model, task) == [("zero-shot", "seed1")]
            predictions = variant_dir(family_run.workdir, model, task).glob("*/*/predictions/*")
            # the predictions and the machine that made them (the score's predicted_on)
            assert sorted(p.name for p in predictions) == ["de.jsonl", "de.machine.json"]
    return family_run.workdir


def _read(run: Path, model: str, task: str, language: str, folder: str) -> list[dict]:
    path = variant_dir(run, model, task) / "zero-shot" / "seed1" / folder / f"{language}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _gold(run: Path, task: str, language: str) -> list[dict]:
    (data,) = (run / "resources" / "data" / task).iterdir()
    lines = (data / language / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _score(run: Path, model: str, task: str, language: str) -> dict:
    path = variant_dir(run, model, task) / "zero-shot" / "seed1" / "scores" / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("model", SHAPES)
@pytest.mark.parametrize("language", ["de"])
def test_entity_f1_is_seqevals_on_the_predictions(run: Path, model: str, language: str) -> None:
    # XTREME's run_tag.py scores PAN-X with seqeval's default (conlleval) mode
    from seqeval.metrics import f1_score, precision_score, recall_score

    gold = [example["tags"] for example in _gold(run, "panx", language)]
    predicted = [record["tags"] for record in _read(run, model, "panx", language, "predictions")]
    score = _score(run, model, "panx", language)
    assert score["n"] == len(gold) == 6  # three sentences, written twice
    assert score["metrics"]["f1"] == pytest.approx(f1_score(gold, predicted), abs=1e-12)
    assert score["metrics"]["precision"] == pytest.approx(precision_score(gold, predicted))
    assert score["metrics"]["recall"] == pytest.approx(recall_score(gold, predicted))


@pytest.mark.parametrize("model", SHAPES)
@pytest.mark.parametrize("language", ["de"])
def test_pos_accuracy_is_the_share_of_right_tags(run: Path, model: str, language: str) -> None:
    gold = [example["tags"] for example in _gold(run, "udpos", language)]
    predicted = [record["tags"] for record in _read(run, model, "udpos", language, "predictions")]
    pairs = [(g, p) for tags, guess in zip(gold, predicted, strict=True)
             for g, p in zip(tags, guess, strict=True)]  # fmt: skip
    right = sum(g == p for g, p in pairs)
    assert right > 0
    assert _score(run, model, "udpos", language)["metrics"]["accuracy"] == pytest.approx(
        right / len(pairs)
    )


def test_tables_of_both_tasks_have_a_row_per_model(run: Path) -> None:
    panx, udpos = ((tables_dir(run) / f"{task}.md").read_text() for task in ("panx", "udpos"))
    # UD POS in seqeval F1, the metric of XTREME's POS table
    assert "# PAN-X (WikiANN) NER (f1, %)" in panx and "# UD POS (seqeval_f1, %)" in udpos
    for model in SHAPES:
        assert f"| {model} | zero-shot |" in panx and f"| {model} | zero-shot |" in udpos
    # the language missing_files: skip left out (no test-th.tsv): absent from the rows, named
    # under the table with the file looked for
    folder = run / "data" / "panx"
    header = next(line for line in panx.splitlines() if line.startswith("| model"))
    assert "| de" in header and "| th" not in header
    assert (
        "(missing_files: skip) - PAN-X (WikiANN) NER: th (no test file in "
        f"{folder} (looked for test-th.tsv))." in panx
    )
