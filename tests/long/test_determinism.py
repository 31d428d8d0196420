"""Determinism on CPU: the same config and seed, run twice in two directories from the same
model folder, write the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.workflow.snakemake_runner import run_snakemake

pytestmark = [pytest.mark.workflow, pytest.mark.long]


def test_the_same_config_and_seed_twice_gives_byte_identical_outputs(
    tiny_model: Path, tmp_path: Path
) -> None:
    """Every prediction file and fine-tuned model is byte-identical; every score equal,
    provenance aside. (The same model folder, as with a real model's files: the tiny test
    model's tokenizer trainer orders pieces of equal score differently in each process.)"""
    config = {
        "models": [{"name": "tiny", "source": "local", "path": str(tiny_model)}],
        "tasks": {
            "xnli": {
                "source": "demo",
                "languages": ["en", "de", "es", "zh"],
                "hyperparameters": {"epochs": 2, "batch_size": 16, "max_length": 64},
            }
        },
        "settings": ["zero-shot"],
        "seeds": [1],
    }
    first, second = tmp_path / "first", tmp_path / "second"
    for workdir in (first, second):
        workdir.mkdir()
        done = run_snakemake(workdir, config)
        assert done.returncode == 0, done.stderr[-3000:]
    compared = 0
    for pattern in ("*/*/*/*/seed*/predictions/*.jsonl", "*/*/*/*/seed*/model/model.safetensors"):
        for path in sorted((first / "results").glob(pattern)):
            twin = second / "results" / path.relative_to(first / "results")
            assert twin.read_bytes() == path.read_bytes(), path
            compared += 1
    # four languages' predictions and the model
    assert compared == 4 + 1
    for path in sorted((first / "results").glob("*/*/*/*/seed*/scores/*.json")):
        twin = second / "results" / path.relative_to(first / "results")
        a, b = json.loads(path.read_text()), json.loads(twin.read_text())
        a.pop("provenance"), b.pop("provenance")
        assert a == b, path
