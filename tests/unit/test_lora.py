"""LoRA (mte.modelling.lora): the tiny Llama-shaped decoder fine-tuned with an adapter on the
demo XNLI data learns, saves an adapter, not a model, and predicts through the merged weights
what the fine-tune's last dev evaluation scored."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from mte.families.pairs.features import tokenize_pairs
from mte.families.pairs.readers import read_pair_tsv
from mte.hub.models import load_tokenizer
from mte.modelling.features import load_features, save_features
from mte.modelling.hyperparameters import HyperParameters
from mte.modelling.lora import head_modules, lora_settings
from mte.registry import TASKS
from mte.stats.metrics import Means, hit_rows
from mte.stats.statistics import bootstrap_replicates, percentile_interval
from mte.steps.data import demo_dir
from mte.steps.finetune import finetune
from mte.steps.predict import predict_records

XNLI = TASKS["xnli"]
# the demo's 210 English training pairs, 20 epochs of 14 steps, the last model kept (no
# selection on the dev set it is then scored on)
LORA_HP = {
    "learning_rate": 3e-3,
    "epochs": 20,
    "batch_size": 16,
    "eval_batch_size": 32,
    "max_length": 64,
    "warmup_ratio": 0.1,
    "weight_decay": 0.0,
    "max_grad_norm": 1.0,
    "freeze_word_embeddings": False,
    "checkpoint_every_steps": 0,
    "warmup_steps": None,
    "model_selection": "last",
    "dev_languages": "training",
    "method": "lora",
    "lora": {"rank": 8},
}


@pytest.fixture(scope="module")
def lora_run(tiny_llama: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    tokenizer = load_tokenizer(tiny_llama)
    out = tmp_path_factory.mktemp("lora")
    paths = {}
    for split in ("train", "dev"):
        examples = read_pair_tsv(demo_dir(XNLI) / f"{split}-en.tsv", XNLI)
        paths[split] = out / f"{split}.pt"
        save_features(tokenize_pairs(tokenizer, examples, XNLI, 64), paths[split])
    hp = HyperParameters.from_config(LORA_HP)
    record = finetune(
        tiny_llama, [paths["train"]], [paths["dev"]], out / "model", out / "ck", hp, 1
    )
    return {"record": record, "model": out / "model", "dev": paths["dev"], "base": tiny_llama}


def test_the_adapter_is_saved_not_the_model(lora_run: dict) -> None:
    folder = lora_run["model"]
    assert not (folder / "model.safetensors").exists()
    adapter = load_file(folder / "adapter_model.safetensors")
    # the low-rank matrices of every linear layer of the body, and the new head whole
    assert any("lora_A" in key for key in adapter) and any("lora_B" in key for key in adapter)
    assert any(key.endswith("score.weight") for key in adapter)
    assert not any("embed_tokens" in key or "layernorm" in key for key in adapter)
    base_bytes = (lora_run["base"] / "model.safetensors").stat().st_size
    record = lora_run["record"]
    assert record["adapter_bytes"] == (folder / "adapter_model.safetensors").stat().st_size
    assert record["adapter_bytes"] < base_bytes / 4
    assert record["adapter_of"] == str(lora_run["base"])
    # the method and its settings are in the record, as in the variant key
    assert record["hyperparameters"]["method"] == "lora"


def test_prediction_merges_the_adapter_and_the_decoder_learns(lora_run: dict, caplog) -> None:
    dev = load_features(lora_run["dev"])
    with caplog.at_level(logging.INFO, logger="mte"):
        records = predict_records(lora_run["model"], dev, batch_size=32)
    # the head comes from the adapter, not from a random start
    said = caplog.text
    assert f"its weights come from {lora_run['model']}" in said
    assert "starts from random weights" not in said
    gold = [dev["label_names"][g] for g in dev["labels"]]
    hits = [r["label"] == g for r, g in zip(records, gold, strict=True)]
    accuracy = sum(hits) / len(hits)
    # the merged model predicts what the fine-tune's last dev evaluation scored
    assert accuracy == pytest.approx(lora_run["record"]["history"][-1]["dev_score"])
    # above chance (3 labels) with the whole 95% bootstrap interval
    replicates = bootstrap_replicates(Means("accuracy"), "accuracy", hit_rows(hits), 2000, 1)
    low, _ = percentile_interval(replicates, 0.95)
    assert low > 1 / 3, (accuracy, low)


def test_head_modules_and_defaults() -> None:
    from transformers import BertConfig, BertForSequenceClassification

    small = BertConfig(hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
                       intermediate_size=8, vocab_size=20)  # fmt: skip
    torch.manual_seed(0)
    # BERT's dropout has no weights: only the classifier trains whole
    assert head_modules(BertForSequenceClassification(small)) == ["classifier"]
    assert lora_settings({"rank": 4}) == {
        "rank": 4,
        "alpha": 16,
        "dropout": 0.05,
        "target_modules": "all-linear",
    }


def test_a_tables_note_names_the_models_fine_tuned_with_lora() -> None:
    from mte.tables.notes import method_note

    lora = {"rank": 4, "alpha": 16, "dropout": 0.05, "target_modules": ["q_proj", "v_proj"]}
    scores = [
        {"model": "llama", "provenance": {"training": {"lora": lora}}},
        {"model": "llama", "provenance": {"training": {"lora": lora}}},
        {"model": "xlmr", "provenance": {"training": {"hyperparameters": {}}}},
    ]
    assert method_note(scores) == (
        "Fine-tuned with LoRA (the other fine-tunes every weight): llama: rank 4, alpha 16, "
        "dropout 0.05, q_proj, v_proj."
    )
    assert method_note(scores[2:]) is None
