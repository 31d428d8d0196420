"""The encoders cross-lingual papers evaluate today, each as a tiny random model with a
tokenizer of its own class (DeBERTa-v2, RemBERT, ELECTRA, DistilBERT, mT5), through the
families that once failed for them after other jobs had run: the dual encoder (LAReQA's, from
SQuAD's pairs), multiple choice (Social IQa's fine-tune, XCOPA's from it) and retrieval
embeddings (Tatoeba); one real ``snakemake`` run for all five (`make test-architectures`, in
CI). `make test-shapes` runs every family with each. A model whose architecture cannot serve
a task is refused before any job."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.workflow.snakemake_runner import model_entries, run_snakemake, tables_dir, variant_dir
from tests.workflow.tiny_data import (
    COPA_ITEMS,
    SENTENCES,
    write_siqa,
    write_squad_json,
    write_tatoeba,
    write_xcopa,
    write_xquad_r,
)

pytestmark = pytest.mark.architectures

NEW_ENCODERS = ("deberta-v2", "rembert", "electra", "distilbert", "mt5")
MODELS = tuple(f"tiny-{shape}" for shape in NEW_ENCODERS)
# how each one's dual encoder reads a text's vector, by what its base model has: RemBERT a
# pooler (RemBertModel takes add_pooling_layer), DeBERTa-v2, ELECTRA and DistilBERT none (their
# first token, as their own sequence classifiers read it), mT5's encoder its mean
POOLING = {"tiny-deberta-v2": "cls", "tiny-rembert": "pooler", "tiny-electra": "cls",
           "tiny-distilbert": "cls", "tiny-mt5": "mean"}  # fmt: skip
SMALL = {"epochs": 1, "batch_size": 4, "max_length": 32}


def _tasks(data: Path) -> dict:
    squad = data / "squad"
    squad.mkdir()
    write_squad_json(squad / "train-v1.1.json", "t", long_context=False)
    write_squad_json(squad / "dev-v1.1.json", "d", long_context=False)
    for writer, folder in (
        (write_siqa, "siqa"),
        (write_xcopa, "xcopa"),
        (write_tatoeba, "tatoeba"),
    ):
        writer(data / folder)
    write_xquad_r(data / "lareqa")
    files = {"source": "files", "hyperparameters": SMALL}
    return {
        "squad_retrieval": {
            "source": "files", "path": str(squad), "max_query_length": 16,
            "hyperparameters": {**SMALL, "gradient_accumulation_steps": 1, "learning_rate": 1e-3},
        },
        "lareqa": {"source": "files", "path": str(data / "lareqa"), "languages": ["en", "de"],
                   "encoder": "squad_retrieval", "layers": ["model"]},
        "siqa": {**files, "path": str(data / "siqa")},
        "xcopa": {**files, "path": str(data / "xcopa"), "languages": ["et"], "start_from": "siqa"},
        "tatoeba": {"source": "files", "path": str(data / "tatoeba"), "languages": ["de"]},
    }  # fmt: skip


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    workdir = tmp_path_factory.mktemp("architectures")
    models = {name: request.getfixturevalue(name.replace("-", "_")) for name in MODELS}
    (workdir / "data").mkdir()
    config = {"models": model_entries(models), "tasks": _tasks(workdir / "data")}
    targets = [f"results/runs/config/tables/{name}.csv" for name in ("lareqa", "xcopa", "tatoeba")]
    done = run_snakemake(workdir, config, *targets)
    assert done.returncode == 0, done.stderr[-4000:]
    return workdir


@pytest.mark.parametrize("model", MODELS)
def test_the_dual_encoder_trains_and_embeds_with_what_the_model_has(run: Path, model: str) -> None:
    encoder = variant_dir(run, model, "squad_retrieval") / "zero-shot/seed1/model"
    embedding = json.loads((encoder / "embedding.json").read_text())
    assert embedding["pooling"] == POOLING[model] and embedding["prefix"] == ""
    # its logit scale (100 at the start) was trained
    assert embedding["logit_scale"] != 100.0
    # mT5's fine-tune is its encoder alone
    if model == "tiny-mt5":
        assert json.loads((encoder / "config.json").read_text())["architectures"] == [
            "MT5EncoderModel"
        ]
    for language in ("en", "de"):
        score = json.loads(
            (
                variant_dir(run, model, "lareqa") / f"zero-shot/seed1/scores/{language}.json"
            ).read_text()
        )
        assert 0.0 <= score["metrics"]["map_at_20"] <= 1.0 and score["n"] > 0


@pytest.mark.parametrize("model", MODELS)
def test_multiple_choice_fine_tunes_and_scores_every_item(run: Path, model: str) -> None:
    # Social IQa's fine-tune (the stand-in classifier for mT5, which has no multiple-choice
    # class), then XCOPA's from it
    siqa = variant_dir(run, model, "siqa") / "zero-shot/seed1/model"
    started = json.loads((siqa / "training.json").read_text())
    assert started["selected"]["step"] >= 1
    copa = variant_dir(run, model, "xcopa") / "zero-shot/seed1"
    record = json.loads((copa / "model/training.json").read_text())
    assert record["start_from"]["task"] == "siqa"
    assert record["start_from"]["selected"] == started["selected"]
    records = [
        json.loads(line) for line in (copa / "predictions/et.jsonl").read_text().splitlines()
    ]
    assert [r["id"] for r in records] == [str(n) for n in range(len(COPA_ITEMS))]
    gold = [item[1][4] for item in COPA_ITEMS]
    right = sum(r["label"] == g for r, g in zip(records, gold, strict=True))
    score = json.loads((copa / "scores/et.json").read_text())
    assert score["metrics"]["accuracy"] == right / len(COPA_ITEMS)


@pytest.mark.parametrize("model", MODELS)
def test_tatoeba_embeds_with_the_encoder_alone(run: Path, model: str) -> None:
    """Every German sentence's English neighbour found; accuracy is the share whose neighbour
    is its own translation (the same line), both directions."""
    folder = variant_dir(run, model, "tatoeba") / "zero-shot/seed1"
    lines = (folder / "predictions/de.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["id"] for r in records] == [str(n) for n in range(1, len(SENTENCES) + 1)]
    score = json.loads((folder / "scores/de.json").read_text())
    for metric, direction in (("accuracy", "xx_to_en"), ("accuracy_en_to_xx", "en_to_xx")):
        right = sum(r[direction]["model"] == r["id"] for r in records)
        assert score["metrics"][metric] == right / len(SENTENCES)


def test_the_plan_checked_the_built_models_so_no_check_job_ran(run: Path) -> None:
    """Tiny shapes' model types are known to the plan, which checked every task against them:
    no check_model job repeats it (a hub model's are tests/workflow/test_model_check.py)."""
    assert not (run / "resources/model-checks").exists()
    assert not (run / "results/logs/check_model").exists()
    assert (tables_dir(run) / "lareqa.csv").is_file()


def test_an_architecture_that_cannot_serve_a_task_stops_the_plan(tmp_path: Path) -> None:
    """A local folder whose model type transformers does not know: a dry run stops before any
    job with one error naming the task, the model and why."""
    folder = tmp_path / "my-encoder"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "my-own-encoder"}')
    config = {"models": [{"name": "mine", "source": "local", "path": str(folder)}],
              "tasks": {"xnli": {"source": "demo"}}}  # fmt: skip
    done = run_snakemake(tmp_path, config, "-n")
    assert done.returncode != 0
    assert "config key 'tasks.xnli': model 'mine' (my-own-encoder) cannot run xnli" in done.stderr
    assert not (tmp_path / "resources").exists()
