"""The typed hyper-parameters (mte.modelling.hyperparameters) against config/schema.yaml, where
their defaults live: the same names, required exactly where every family's entry fills a
default, and the config's mapping kept as given."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
import yaml

from mte.errors import ConfigError
from mte.modelling.hyperparameters import HyperParameters

SCHEMA = Path(__file__).resolve().parents[2] / "config" / "schema.yaml"


def family_entries(definitions: dict) -> dict[str, dict]:
    """Each task kind's hyper-parameters entry: the $defs its tasks' ``hyperparameters`` name."""
    entries = {}
    for name, node in definitions.items():
        hp = (node.get("properties") or {}).get("hyperparameters")
        if hp and "$ref" in hp:
            entries[name] = definitions[hp["$ref"].rsplit("/", 1)[-1]]
    return entries


def test_fields_are_the_schemas_and_required_where_every_family_fills_them() -> None:
    definitions = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))["$defs"]
    names = set(definitions["hyperparameters"]["properties"])
    assert {f.name for f in fields(HyperParameters)} == names
    entries = family_entries(definitions)
    assert set(entries) == {"classification_task", "tagging_task", "qa_task", "dual_encoder_task"}
    filled_by_all = {
        name
        for name in names
        if all("default" in entry["properties"].get(name, {}) for entry in entries.values())
    }
    required = {f.name for f in fields(HyperParameters) if f.default is not None}
    assert required == filled_by_all
    # the five a config leaves absent unless it sets them
    assert names - required == {
        "selection_every_steps",
        "keep_step",
        "gradient_accumulation_steps",
        "method",
        "lora",
    }


BASE = {
    "learning_rate": 2e-5,
    "epochs": 2,
    "batch_size": 32,
    "eval_batch_size": 64,
    "max_length": 128,
    "warmup_ratio": 0.0,
    "warmup_steps": None,
    "weight_decay": 0.0,
    "max_grad_norm": 1.0,
    "model_selection": "best_dev",
    "dev_languages": "training",
    "freeze_word_embeddings": False,
    "checkpoint_every_steps": 1000,
}


def test_the_record_is_the_mapping_as_given() -> None:
    plain = HyperParameters.from_config(BASE)
    assert plain.as_record() == BASE and plain.accumulation == 1
    accumulated = HyperParameters.from_config({**BASE, "gradient_accumulation_steps": 4})
    assert accumulated.as_record() == {**BASE, "gradient_accumulation_steps": 4}
    assert accumulated.accumulation == 4


def test_unknown_and_missing_keys_name_the_key() -> None:
    key = "tasks.xnli.hyperparameters"
    with pytest.raises(ConfigError, match=r"tasks\.xnli\.hyperparameters\.learnig_rate"):
        HyperParameters.from_config({**BASE, "learnig_rate": 1e-5}, key)
    without = {k: v for k, v in BASE.items() if k != "epochs"}
    with pytest.raises(ConfigError, match=r"tasks\.xnli\.hyperparameters\.epochs.*schema"):
        HyperParameters.from_config(without, key)
