"""Tagging end to end on the tiny model: PAN-X (entities) and UD POS (tags), zero-shot from
English, each score checked against its predictions by the benchmark's own definition."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.workflow.snakemake_runner import job_counts, run_snakemake, tables_dir, variant_dir
from tests.workflow.tiny_data import write_conll_folders, write_panx_folders

pytestmark = pytest.mark.workflow

SMALL = {"epochs": 1, "batch_size": 4, "max_length": 32}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path) -> Path:
    workdir = tmp_path_factory.mktemp("tagging")
    data = workdir / "data"
    write_panx_folders(data)
    write_conll_folders(data)
    both = {"source": "files", "languages": ["en", "de"], "hyperparameters": SMALL}
    config = {
        "models": [{"name": "tiny", "source": "local", "path": str(tiny_model)}],
        "tasks": {
            "panx": {**both, "path": str(data / "panx")},
            # enough training for the tiny model to get some tags right: the check below then
            # compares a count that is not zero
            "udpos": {
                **both,
                "path": str(data / "udpos"),
                "hyperparameters": {**SMALL, "epochs": 4, "learning_rate": 1e-3},
            },
        },
    }
    done = run_snakemake(workdir, config)
    assert done.returncode == 0, done.stderr[-4000:]
    counts = job_counts(done.stdout + done.stderr)
    assert counts["finetune"] == 2 and counts["predict"] == 4 and counts["score"] == 4
    return workdir


def _read(run: Path, task: str, language: str, folder: str) -> list[dict]:
    path = variant_dir(run, "tiny", task) / "zero-shot" / "seed1" / folder / f"{language}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _gold(run: Path, task: str, language: str) -> list[dict]:
    (data,) = (run / "resources" / "data" / task).iterdir()
    lines = (data / language / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _score(run: Path, task: str, language: str) -> dict:
    path = variant_dir(run, "tiny", task) / "zero-shot" / "seed1" / "scores" / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("language", ["en", "de"])
def test_entity_f1_is_seqevals_on_the_predictions(run: Path, language: str) -> None:
    # XTREME's run_tag.py scores PAN-X with seqeval's default (conlleval) mode
    from seqeval.metrics import f1_score, precision_score, recall_score

    gold = [example["tags"] for example in _gold(run, "panx", language)]
    predicted = [record["tags"] for record in _read(run, "panx", language, "predictions")]
    score = _score(run, "panx", language)
    assert score["n"] == len(gold) == 6  # three sentences, written twice
    assert score["metrics"]["f1"] == pytest.approx(f1_score(gold, predicted), abs=1e-12)
    assert score["metrics"]["precision"] == pytest.approx(precision_score(gold, predicted))
    assert score["metrics"]["recall"] == pytest.approx(recall_score(gold, predicted))


@pytest.mark.parametrize("language", ["en", "de"])
def test_pos_accuracy_is_the_share_of_right_tags(run: Path, language: str) -> None:
    gold = [example["tags"] for example in _gold(run, "udpos", language)]
    predicted = [record["tags"] for record in _read(run, "udpos", language, "predictions")]
    pairs = [(g, p) for tags, guess in zip(gold, predicted, strict=True)
             for g, p in zip(tags, guess, strict=True)]  # fmt: skip
    right = sum(g == p for g, p in pairs)
    assert right > 0
    assert _score(run, "udpos", language)["metrics"]["accuracy"] == pytest.approx(
        right / len(pairs)
    )


def test_tables_of_both_tasks(run: Path) -> None:
    assert "# PAN-X (WikiANN) NER (f1, %)" in (tables_dir(run) / "panx.md").read_text()
    assert "# UD POS (accuracy, %)" in (tables_dir(run) / "udpos.md").read_text()
