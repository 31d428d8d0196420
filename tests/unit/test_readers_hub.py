"""The hub mapping, on local files of the hub's own schema (the hub itself is unreachable)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import datasets
import pytest

from mte.readers.hub import pair_examples_from_hub
from mte.tasks import TASKS


def _xnli_like(tmp_path: Path, names: list[str]) -> datasets.Dataset:
    """A split with facebook/xnli's features: premise, hypothesis, label ClassLabel."""
    features = datasets.Features(
        {
            "premise": datasets.Value("string"),
            "hypothesis": datasets.Value("string"),
            "label": datasets.ClassLabel(names=names),
        }
    )
    table = datasets.Dataset.from_dict(
        {"premise": ["P1", "P2"], "hypothesis": ["H1", "H2"], "label": [0, 2]},
        features=features,
    )
    path = tmp_path / "validation.parquet"
    table.to_parquet(str(path))
    loaded = datasets.load_dataset("parquet", data_files=str(path), split="train")
    return loaded.cast(features)


def test_xnli_labels_follow_the_dataset_names(tmp_path: Path) -> None:
    dataset = _xnli_like(tmp_path, ["entailment", "neutral", "contradiction"])
    assert pair_examples_from_hub(dataset, TASKS["xnli"]) == [
        {"id": "1", "text_a": "P1", "text_b": "H1", "label": "entailment"},
        {"id": "2", "text_a": "P2", "text_b": "H2", "label": "contradiction"},
    ]
    # a dataset whose ClassLabel order differs maps by name, not by position
    reordered = _xnli_like(tmp_path, ["contradiction", "entailment", "neutral"])
    assert [e["label"] for e in pair_examples_from_hub(reordered, TASKS["xnli"])] == [
        "contradiction",
        "neutral",
    ]


def test_pawsx_schema_keeps_the_hub_ids(tmp_path: Path) -> None:
    features = datasets.Features(
        {
            "id": datasets.Value("int32"),
            "sentence1": datasets.Value("string"),
            "sentence2": datasets.Value("string"),
            "label": datasets.ClassLabel(names=["0", "1"]),
        }
    )
    dataset = datasets.Dataset.from_dict(
        {"id": [11, 12], "sentence1": ["a", "b"], "sentence2": ["c", "d"], "label": [1, 0]},
        features=features,
    )
    assert pair_examples_from_hub(dataset, TASKS["pawsx"]) == [
        {"id": "11", "text_a": "a", "text_b": "c", "label": "1"},
        {"id": "12", "text_a": "b", "text_b": "d", "label": "0"},
    ]


def test_unknown_label_name_is_an_error(tmp_path: Path) -> None:
    dataset = _xnli_like(tmp_path, ["entailment", "other", "contradiction"])
    features = dataset.features.copy()
    dataset = datasets.Dataset.from_dict(
        {"premise": ["P"], "hypothesis": ["H"], "label": [1]}, features=features
    )
    with pytest.raises(Exception, match="'other', not a label of XNLI"):
        pair_examples_from_hub(dataset, TASKS["xnli"])


def test_offline_hub_says_how_to_use_local_files() -> None:
    # datasets reads HF_DATASETS_OFFLINE when it is imported: a fresh process, as a rule job is
    code = (
        "from mte.readers.hub import load_hub_split\n"
        "load_hub_split('facebook/xnli', 'de', 'validation')\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "HubUnavailableError" in done.stderr
    assert "set the task's 'source: files' and 'path:'" in done.stderr
