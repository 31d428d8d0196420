"""Extractive QA end to end on the tiny models (BERT, XLM-R's shape, mBERT's), with a context
longer than a window."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.family_run import fine_tuned
from tests.workflow.snakemake_runner import (
    SHAPES,
    data_dir,
    interval_columns,
    tables_dir,
    variant_dir,
)

pytestmark = [pytest.mark.workflow, pytest.mark.families]


@pytest.fixture(scope="module")
def run(family_run) -> Path:
    """The shared run of every family (tests/workflow/family_run.py): SQuAD (XQuAD's, MLQA's and
    G-XLT's fine-tune), TyDiQA-GoldP on its own English training set. XTREME's protocol: one
    SQuAD fine-tune per model for the three, one on TyDiQA's own set; none for the others."""
    for model in SHAPES:
        for task in ("squad", "tydiqa"):
            assert fine_tuned(family_run, model, task) == [("zero-shot", "seed1")]
        for task in ("xquad", "mlqa", "mlqa_gxlt"):
            assert fine_tuned(family_run, model, task) == []
    return family_run.workdir


@pytest.mark.parametrize("model", SHAPES)
def test_each_fine_tune_trains_on_its_own_data(run: Path, model: str) -> None:
    """SQuAD's fine-tune read SQuAD's files, TyDiQA's the English TyDiQA-GoldP training set."""
    trained = {}
    for task in ("squad", "tydiqa"):
        meta = data_dir(run, task) / "en" / "train.meta.json"
        trained[task] = [Path(f["file"]).name for f in json.loads(meta.read_text())["files"]]
    assert trained == {"squad": ["train-v1.1.json"], "tydiqa": ["tydiqa.en.train.json"]}
    assert not list((run / "resources" / "data" / "xquad").glob("*/en/train.jsonl"))
    score = json.loads(
        (variant_dir(run, model, "tydiqa") / "zero-shot/seed1/scores/fi.json").read_text()
    )
    assert score["n"] == 4


# what each tokenizer does under do_lower_case, as its class defines it (transformers'
# BasicTokenizer strips accents when it lower-cases; DebertaV2Tokenizer and RemBertTokenizer
# only lower-case)
STRIPS = "lower-cases (and strips accents from) its input"
LOWER_CASING = {
    "tiny-mbert": STRIPS, "tiny-electra": STRIPS, "tiny-distilbert": STRIPS,
    "tiny-deberta-v2": "lower-cases its input", "tiny-rembert": "lower-cases its input",
}  # fmt: skip


@pytest.mark.parametrize("model", SHAPES)
def test_tydiqa_reads_its_lower_casing_and_selection_settings(run: Path, model: str) -> None:
    """The settings reach their jobs: the tokenizer is loaded with do_lower_case (the
    WordPiece of mBERT, ELECTRA and DistilBERT lower-cases and strips accents; DeBERTa-v2's and
    RemBERT's SentencePiece tokenizers lower-case; the unigram and the other SentencePiece
    tokenizers have no lower-casing step: each log says which), and the dev set is scored
    after steps 2, 4, ... of the fine-tune."""
    logs = list((run / "results" / "logs" / "tokenize" / model / "tydiqa").rglob("*.log"))
    said = LOWER_CASING.get(model, "has no lower-casing step")
    assert logs and all(said in log.read_text() for log in logs)
    squad_logs = list((run / "results" / "logs" / "tokenize" / model / "squad").rglob("*.log"))
    assert squad_logs and not any("do_lower_case" in log.read_text() for log in squad_logs)
    # TyDiQA windows as XTREME's run_squad.py, SQuAD as Hugging Face's run_qa.py
    said = "run_squad windows: 16 sub-tokens between window starts, questions cut to 16"
    assert all(said in log.read_text() for log in logs)
    assert not any("run_squad" in log.read_text() for log in squad_logs)
    training = json.loads(
        (variant_dir(run, model, "tydiqa") / "zero-shot/seed1/model/training.json").read_text()
    )
    steps = [h["step"] for h in training["history"]]
    assert steps and steps == list(range(2, 2 * len(steps) + 1, 2))
    assert training["selected"] in training["history"]


@pytest.mark.parametrize("model", SHAPES)
def test_every_question_gets_one_answer(run: Path, model: str) -> None:
    predictions = [
        json.loads(line)
        for line in (variant_dir(run, model, "xquad") / "zero-shot/seed1/predictions/de.jsonl")
        .read_text()
        .splitlines()
    ]
    assert [p["id"] for p in predictions] == ["q0", "q1", "q2", "q3"]
    assert all(isinstance(p["answer"], str) for p in predictions)
    score = json.loads(
        (variant_dir(run, model, "xquad") / "zero-shot/seed1/scores/de.json").read_text()
    )
    assert set(score["metrics"]) == {"f1", "exact_match"} and score["n"] == 4
    table = pd.read_csv(tables_dir(run) / "xquad.csv")
    assert model in set(table["model"])
    # with several models, each row is tested against the first (a p-value per cell)
    tested = ["de_p", "avg_p"] if len(SHAPES) > 1 else []
    assert list(table.columns) == [
        "model", "setting", "row", "seeds", "de", "avg",
        *interval_columns(["de", "avg"]), *tested, "de_em", "avg_em",
    ]  # fmt: skip


def test_gxlt_matrix(run: Path) -> None:
    """The pairs en-de and de-en: a context x question matrix per model, each pair's cell
    filled and the same-language cells empty."""
    markdown = (tables_dir(run) / "mlqa_gxlt.md").read_text()
    rows = [line.split(" | ") for line in markdown.splitlines() if line.startswith("| ")]
    headers = [row for row in rows if row[0] == "| context"]
    questions = [{cell.strip(" |") for cell in header[1:]} for header in headers]
    assert questions == [{"en", "de"}] * len(SHAPES)
    contexts = [row[0] for row in rows if row[0] != "| context"]
    assert contexts == ["| en", "| de"] * len(SHAPES)
    table = pd.read_csv(tables_dir(run) / "mlqa_gxlt.csv")
    assert [c for c in ("en-de", "de-en", "avg") if c in table.columns] == ["en-de", "de-en", "avg"]
