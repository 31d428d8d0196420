"""PAWS-X, Tatoeba, BUCC and two GLUE tasks (one regression) end to end on the tiny models
(BERT, XLM-R's shape, mBERT's)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.family_run import fine_tuned
from tests.workflow.snakemake_runner import (
    SHAPES,
    interval_columns,
    tables_dir,
    variant_dir,
)

pytestmark = [pytest.mark.workflow, pytest.mark.families]

# how each shape's dual encoder reads a text's vector: the pooler where its base model has one
# (BertModel, XLMRobertaModel, RemBertModel take add_pooling_layer), else the first token (as
# DeBERTa-v2's, ELECTRA's and DistilBERT's sequence classifiers read it), mT5's encoder its
# mean, a decoder its last real token
DUAL_ENCODER_POOLING = {
    "tiny": "pooler", "tiny-xlmr": "pooler", "tiny-mbert": "pooler", "tiny-rembert": "pooler",
    "tiny-deberta-v2": "cls", "tiny-electra": "cls", "tiny-distilbert": "cls",
    "tiny-mt5": "mean", "tiny-llama": "last", "tiny-qwen2": "last", "tiny-gemma": "last",
}  # fmt: skip


@pytest.fixture(scope="module")
def run(family_run) -> Path:
    """The shared run of every family (tests/workflow/family_run.py): PAWS-X, SST-2 and STS-B
    fine-tune, for each model; Tatoeba and BUCC embed with the pretrained model."""
    for model in SHAPES:
        for task in ("pawsx", "sst2", "stsb"):
            assert fine_tuned(family_run, model, task) == [("zero-shot", "seed1")]
        for task in ("tatoeba", "bucc", "lareqa", "mewslix"):
            assert fine_tuned(family_run, model, task) == []
    return family_run.workdir


def test_the_family_run_runs_each_job_once_per_model_and_task(family_run) -> None:
    """Its job counts, worked out from its config: per model, 11 fine-tunes (PAN-X, UD POS,
    SQuAD, the dual encoders of LAReQA and Mewsli-X, TyDiQA, PAWS-X, SST-2, STS-B, Social IQa,
    XCOPA); 12 predictions (PAN-X, UD POS,
    PAWS-X, XQuAD, TyDiQA, SST-2, STS-B, Social IQa one language each, G-XLT two pairs, XCOPA
    Estonian in two settings) and 6 retrievals (Tatoeba, BUCC, LAReQA's and Mewsli-X's two
    languages), each scored; one pool each for LAReQA and Mewsli-X, shared by their two
    languages; no figures."""
    shapes = len(SHAPES)
    counts = family_run.counts
    assert counts["finetune"] == 11 * shapes
    assert counts["predict"] == 12 * shapes and counts["retrieve"] == 6 * shapes
    assert counts["embed_pool"] == 2 * shapes
    assert counts["score"] == 18 * shapes
    assert not any(rule.startswith("plot") for rule in counts)


def _score(run: Path, model: str, task: str, language: str) -> dict:
    path = variant_dir(run, model, task) / f"zero-shot/seed1/scores/{language}.json"
    return json.loads(path.read_text())


@pytest.mark.parametrize("model", SHAPES)
def test_pawsx_table(run: Path, model: str) -> None:
    table = pd.read_csv(tables_dir(run) / "pawsx.csv")
    values = ["de", "avg"]
    # with several models, each row is tested against the first (a p-value per cell)
    assert list(table.columns) == [
        "model",
        "setting",
        "row",
        "seeds",
        *values,
        *interval_columns(values),
        *(f"{value}_p" for value in values if len(SHAPES) > 1),
    ]
    assert model in set(table["model"])
    assert _score(run, model, "pawsx", "de")["n"] == 6


@pytest.mark.parametrize("model", SHAPES)
def test_tatoeba_scores_both_layers(run: Path, model: str) -> None:
    score = _score(run, model, "tatoeba", "de")
    assert score["n"] == 6
    assert set(score["metrics"]) == {"accuracy", "error_rate", "accuracy_en_to_xx"}
    assert score["metrics"]["accuracy"] + score["metrics"]["error_rate"] == pytest.approx(1.0)
    # the tiny models have 2 layers: the model's choice is the last, XTREME's the middle (1)
    assert {k: v["layer"] for k, v in score["by_layer"].items()} == {"model": 2, "xtreme": 1}
    assert score["provenance"]["training"] is None
    assert (tables_dir(run) / "tatoeba.md").is_file()


@pytest.mark.parametrize("model", SHAPES)
def test_bucc_mines_and_scores(run: Path, model: str) -> None:
    score = _score(run, model, "bucc", "de")
    assert score["n"] == 3  # gold pairs of the test split
    assert set(score["metrics"]) == {"f1", "precision", "recall", "threshold"}
    # encoder: squad - embedded by SQuAD's zero-shot fine-tune of the same model and seed:
    # its score's provenance holds that fine-tune and its training data; its table says so
    squad_model = variant_dir(run, model, "squad") / "zero-shot" / "seed1" / "model"
    training = json.loads((squad_model / "training.json").read_text())
    assert score["provenance"]["training"]["seed"] == training["seed"] == 1
    assert score["provenance"]["training"]["hyperparameters"] == training["hyperparameters"]
    files = [Path(d["files"][0]["file"]).name for d in score["provenance"]["data"]]
    assert files[0] == "train-v1.1.json" and "train-v1.1.json" not in files[1:]
    title = (tables_dir(run) / "bucc.md").read_text().splitlines()[0]
    assert title.startswith("# BUCC") and "embedded by SQuAD v1.1's zero-shot fine-tunes" in title
    predictions = (
        variant_dir(run, model, "bucc") / "zero-shot/seed1/predictions/de.jsonl"
    ).read_text()
    splits = {json.loads(line)["split"] for line in predictions.splitlines()}
    assert splits == {"dev", "test"}


@pytest.mark.parametrize("model", SHAPES)
def test_glue_tables(run: Path, model: str) -> None:
    stsb = _score(run, model, "stsb", "en")
    assert stsb["split"] == "dev" and set(stsb["metrics"]) == {"pearson", "spearman"}
    glue = pd.read_csv(tables_dir(run) / "glue.csv")
    assert list(glue.columns) == [
        "model", "setting", "row", "sst2_accuracy", "stsb_pearson", "stsb_spearman", "avg",
    ]  # fmt: skip
    (row,) = [row for _, row in glue.iterrows() if row["model"] == model]
    expected = (row["sst2_accuracy"] + (row["stsb_pearson"] + row["stsb_spearman"]) / 2) / 2
    assert row["avg"] == pytest.approx(expected, abs=0.01)
    assert "| SST-2 | STS-B | avg |" in (tables_dir(run) / "glue.md").read_text()


@pytest.mark.parametrize("model", SHAPES)
def test_lareqa_searches_one_pool_of_both_languages_and_scores_its_map(
    run: Path, model: str
) -> None:
    from tests.workflow.tiny_data import XQUAD_R

    seed_dir = variant_dir(run, model, "lareqa") / "zero-shot/seed1"
    pool = json.loads((seed_dir / "pool" / "index.json").read_text())
    # every sentence of both languages, named {lang}_{paragraph}_{sentence}
    assert pool["candidates"] == [
        f"{lang}_{p + 1}_{s}" for lang in ("en", "de") for p in range(2) for s in range(2)
    ]
    for language in ("en", "de"):
        predictions = [
            json.loads(line)
            for line in (
                variant_dir(run, model, "lareqa") / f"zero-shot/seed1/predictions/{language}.jsonl"
            )
            .read_text()
            .splitlines()
        ]
        # each question's answers: its answer sentence in both languages, from XQUAD_R by hand
        expected = {
            qid: [f"{lang}_{p + 1}_{position}" for lang in ("en", "de")]
            for p, (_, questions) in enumerate(XQUAD_R[language])
            for qid, position in questions
        }
        assert {r["id"]: r["answers"] for r in predictions} == expected
        # AP@20 by its definition, from the rankings the run wrote: the precision at each
        # answer's place, over the 2 answers (a pool of 8 is ranked whole)
        values = []
        for record in predictions:
            ranking = record["rankings"]["model"]
            assert sorted(ranking) == sorted(pool["candidates"])
            places = sorted(ranking.index(answer) + 1 for answer in record["answers"])
            values.append(sum((i + 1) / place for i, place in enumerate(places)) / 2)
        score = _score(run, model, "lareqa", language)
        assert score["n"] == 3 and score["left_out"] == 0
        # embedded by the dual encoder's fine-tune of the same model and seed, trained on the
        # SQuAD file's pairs
        encoder = variant_dir(run, model, "squad_retrieval") / "zero-shot/seed1/model"
        training = json.loads((encoder / "training.json").read_text())
        assert score["provenance"]["training"]["hyperparameters"] == training["hyperparameters"]
        files = [Path(d["files"][0]["file"]).name for d in score["provenance"]["data"]]
        assert files == ["train-v1.1.json", "dev-v1.1.json", f"{language}.json"]
        assert score["metrics"]["map_at_20"] == pytest.approx(sum(values) / 3)
    assert (tables_dir(run) / "lareqa.md").is_file()
    # the dual encoder: its pooler embeds (a model without one: its first token, an
    # encoder-decoder's encoder its mean, a decoder its last real token),
    # without the model's prefix, and its logit scale (100 at the start) was trained; the table
    # says what embedded
    encoder = variant_dir(run, model, "squad_retrieval") / "zero-shot/seed1/model"
    title = (tables_dir(run) / "lareqa.md").read_text().splitlines()[0]
    assert "embedded by SQuAD v1.1 (answer retrieval pairs)'s zero-shot fine-tunes" in title
    embedding = json.loads((encoder / "embedding.json").read_text())
    assert embedding["pooling"] == DUAL_ENCODER_POOLING[model] and embedding["prefix"] == ""
    assert embedding["logit_scale"] != 100.0


@pytest.mark.parametrize("model", SHAPES)
def test_mewslix_ranks_the_candidate_set_and_scores_the_reciprocal_rank(
    run: Path, model: str
) -> None:
    from tests.workflow.tiny_data import MEWSLIX_ENTITIES

    pool_dir = variant_dir(run, model, "mewslix") / "zero-shot/seed1/pool"
    pool = json.loads((pool_dir / "index.json").read_text())
    assert pool["candidates"] == list(MEWSLIX_ENTITIES)
    assert len(pool["source"]["sha256"]) == 64
    for language in ("en", "de"):
        path = variant_dir(run, model, "mewslix") / f"zero-shot/seed1/predictions/{language}.jsonl"
        predictions = [json.loads(line) for line in path.read_text().splitlines()]
        # the gold entities of tiny_data's two mentions
        assert [(r["id"], r["answers"]) for r in predictions] == [
            (f"{language}-0", ["Q1"]),
            (f"{language}-1", ["Q3"]),
        ]
        # one over the gold entity's place in the ranking of the whole candidate set
        ranks = [1 / (r["rankings"]["model"].index(r["answers"][0]) + 1) for r in predictions]
        score = _score(run, model, "mewslix", language)
        assert score["n"] == 2
        files = [Path(d["files"][0]["file"]).name for d in score["provenance"]["data"]]
        assert files[:2] == ["wikipedia_pairs-train.jsonl", "wikipedia_pairs-dev.jsonl"]
        assert score["provenance"]["training"]["seed"] == 1
        assert score["metrics"]["map_at_20"] == pytest.approx(sum(ranks) / 2)


@pytest.mark.parametrize("model", SHAPES)
def test_a_lora_fine_tune_saves_its_adapter_and_predicts_through_it(run: Path, model: str) -> None:
    """SST-2 is fine-tuned with LoRA (family_run): its folder holds the adapter and the head,
    not the model, and names the pretrained folder that prediction merges it into."""
    folder = variant_dir(run, model, "sst2") / "zero-shot/seed1/model"
    assert (folder / "adapter_model.safetensors").is_file()
    assert not (folder / "model.safetensors").exists()
    training = json.loads((folder / "training.json").read_text())
    assert training["hyperparameters"]["method"] == "lora"
    assert training["hyperparameters"]["lora"] == {"rank": 4}
    assert Path(training["adapter_of"]) == Path("resources/models") / model
    pretrained = (run / "resources/models" / model / "model.safetensors").stat().st_size
    assert training["adapter_bytes"] < pretrained
    # predicted through the merged model: one prediction per test example, scored
    score = _score(run, model, "sst2", "en")
    assert score["provenance"]["training"]["hyperparameters"]["method"] == "lora"
    assert score["provenance"]["training"]["adapter_of"] == training["adapter_of"]
    assert 0.0 <= score["metrics"]["accuracy"] <= 1.0
    # the table's note names the method, which the row's model and setting names do not
    settings = "rank 4, alpha 16, dropout 0.05, all-linear"
    assert f"{model}, zero-shot: {settings}" in (tables_dir(run) / "sst2.md").read_text()
