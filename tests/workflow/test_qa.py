"""Extractive QA end to end on the tiny model, with a context longer than a window."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.snakemake_runner import (
    data_dir,
    interval_columns,
    job_counts,
    run_snakemake,
    tables_dir,
    variant_dir,
)
from tests.workflow.tiny_data import write_squad_json

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    workdir = tmp_path_factory.mktemp("qa")
    data = workdir / "xquad-files"
    data.mkdir()
    write_squad_json(data / "train-v1.1.json", "t", long_context=False)
    write_squad_json(data / "dev-v1.1.json", "d", long_context=False)
    for language in ("en", "de"):
        write_squad_json(data / f"xquad.{language}.json", "q", long_context=True)
    for context in ("en", "de"):
        for question in ("en", "de"):
            name = f"test-context-{context}-question-{question}.json"
            write_squad_json(data / name, f"{context}{question}", long_context=False)
    # TyDiQA-GoldP in XTREME's download layout: English train, per-language GoldP dev
    tydiqa = workdir / "tydiqa-files"
    (tydiqa / "tydiqa-goldp-v1.1-train").mkdir(parents=True)
    (tydiqa / "tydiqa-goldp-v1.1-dev").mkdir()
    write_squad_json(
        tydiqa / "tydiqa-goldp-v1.1-train" / "tydiqa.en.train.json", "ty", long_context=False
    )
    for language in ("en", "fi"):
        dev = tydiqa / "tydiqa-goldp-v1.1-dev" / f"tydiqa.goldp.{language}.dev.json"
        write_squad_json(dev, f"{language}-", long_context=False)
    hyperparameters = {"epochs": 1, "batch_size": 2, "max_length": 64}
    config = {
        "models": [{"name": "tiny", "source": "tiny"}],
        "tasks": {
            "squad": {
                "source": "files",
                "path": str(data),
                "doc_stride": 16,
                "hyperparameters": hyperparameters,
            },
            "xquad": {"source": "files", "path": str(data), "languages": ["en", "de"]},
            "mlqa": {"source": "files", "path": str(data), "languages": ["en", "de"]},
            "mlqa_gxlt": {
                "source": "files",
                "path": str(data),
                "languages": ["en-en", "en-de", "de-en", "de-de"],
            },
            "tydiqa": {
                "source": "files",
                "path": str(tydiqa),
                "languages": ["en", "fi"],
                "doc_stride": 16,
                # XTREME's --do_lower_case (a no-op for the tiny model's tokenizer), and a
                # model chosen on dev after every 2nd step instead of the final one
                "do_lower_case": True,
                "hyperparameters": {
                    **hyperparameters,
                    "model_selection": "best_dev",
                    "selection_every_steps": 2,
                },
            },
        },
    }
    done = run_snakemake(workdir, config)
    assert done.returncode == 0, done.stderr[-4000:]
    # XTREME's protocol: one SQuAD fine-tune for XQuAD, MLQA and G-XLT, one on TyDiQA's own
    # English training set
    assert job_counts(done.stdout + done.stderr)["finetune"] == 2
    models = sorted(
        p.relative_to(workdir / "results" / "tiny").parts
        for p in workdir.glob("results/tiny/*/*/*/*/model")
    )
    assert [(m[0], m[2]) for m in models] == [("squad", "zero-shot"), ("tydiqa", "zero-shot")]
    return workdir


def test_each_fine_tune_trains_on_its_own_data(run: Path) -> None:
    """SQuAD's fine-tune read SQuAD's files, TyDiQA's the English TyDiQA-GoldP training set."""
    trained = {}
    for task in ("squad", "tydiqa"):
        meta = data_dir(run, task) / "en" / "train.meta.json"
        trained[task] = [Path(f["file"]).name for f in json.loads(meta.read_text())["files"]]
    assert trained == {"squad": ["train-v1.1.json"], "tydiqa": ["tydiqa.en.train.json"]}
    assert not list((run / "resources" / "data" / "xquad").glob("*/en/train.jsonl"))
    score = json.loads(
        (variant_dir(run, "tiny", "tydiqa") / "zero-shot/seed1/scores/fi.json").read_text()
    )
    assert score["n"] == 4


def test_tydiqa_reads_its_lower_casing_and_selection_settings(run: Path) -> None:
    """The settings reach their jobs: the tokenizer is loaded with do_lower_case (the tiny
    model's has no lower-casing step: its log says so), and the dev set is scored after steps
    2, 4, ... of the fine-tune."""
    logs = list((run / "results" / "logs" / "tokenize" / "tiny" / "tydiqa").rglob("*.log"))
    assert logs and all("has no lower-casing step" in log.read_text() for log in logs)
    squad_logs = list((run / "results" / "logs" / "tokenize" / "tiny" / "squad").rglob("*.log"))
    assert squad_logs and not any("do_lower_case" in log.read_text() for log in squad_logs)
    training = json.loads(
        (variant_dir(run, "tiny", "tydiqa") / "zero-shot/seed1/model/training.json").read_text()
    )
    steps = [h["step"] for h in training["history"]]
    assert steps and steps == list(range(2, 2 * len(steps) + 1, 2))
    assert training["selected"] in training["history"]


def test_every_question_gets_one_answer(run: Path) -> None:
    predictions = [
        json.loads(line)
        for line in (variant_dir(run, "tiny", "xquad") / "zero-shot/seed1/predictions/de.jsonl")
        .read_text()
        .splitlines()
    ]
    assert [p["id"] for p in predictions] == ["q0", "q1", "q2", "q3"]
    assert all(isinstance(p["answer"], str) for p in predictions)
    score = json.loads(
        (variant_dir(run, "tiny", "xquad") / "zero-shot/seed1/scores/de.json").read_text()
    )
    assert set(score["metrics"]) == {"f1", "exact_match"} and score["n"] == 4
    table = pd.read_csv(tables_dir(run) / "xquad.csv")
    assert list(table.columns) == [
        "model", "setting", "row", "seeds", "en", "de", "avg",
        *interval_columns(["en", "de", "avg"]), "en_em", "de_em", "avg_em",
    ]  # fmt: skip


def test_gxlt_matrix(run: Path) -> None:
    markdown = (tables_dir(run) / "mlqa_gxlt.md").read_text()
    assert "| context | en | de |" in markdown
    rows = [line.split(" | ")[0] for line in markdown.splitlines() if line.startswith("| ")]
    assert rows == ["| context", "| en", "| de"]
    mlqa = pd.read_csv(tables_dir(run) / "mlqa.csv")
    assert list(mlqa.columns) == [
        "model", "setting", "row", "seeds", "en", "de", "avg",
        *interval_columns(["en", "de", "avg"]), "en_em", "de_em", "avg_em",
    ]  # fmt: skip
