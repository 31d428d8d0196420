"""Inference: length-sorted, per-batch padded, under ``torch.inference_mode``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import torch

from mte.batching import collate, length_sorted_batches
from mte.errors import MteError
from mte.logs import progress_bar

log = logging.getLogger(__name__)


def predict_label_indices(
    model: Any, features: dict[str, Any], batch_size: int, pad_id: int, progress: bool = False
) -> list[int]:
    """Arg-max label index for every example, returned in the features' original order."""
    model.eval()
    predictions = [0] * len(features["input_ids"])
    batches = length_sorted_batches(features, batch_size)
    with torch.inference_mode():
        bar = progress_bar(iterable=batches, desc="predict", unit="batch", disable=not progress)
        for indices in bar:
            logits = model(**collate(features, indices, pad_id)).logits
            for index, label in zip(indices, logits.argmax(dim=-1).tolist(), strict=True):
                predictions[index] = label
    return predictions


def load_classifier(model_dir: str | Path, label_names: list[str]) -> tuple[Any, Any]:
    """Load a fine-tuned classifier and its tokenizer; its labels must be ``label_names``."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    model = AutoModelForSequenceClassification.from_pretrained(model_dir)
    model_labels = [model.config.id2label[i] for i in range(model.config.num_labels)]
    if model_labels != list(label_names):
        raise MteError(
            f"{model_dir}: the model's labels {model_labels} are not the task's {label_names}"
        )
    return model, AutoTokenizer.from_pretrained(model_dir)


def predict_classification(
    model_dir: str | Path, features: dict[str, Any], batch_size: int
) -> list[dict[str, str]]:
    """Predict every example of ``features``; one ``{id, label}`` record per example."""
    label_names = features["label_names"]
    model, tokenizer = load_classifier(model_dir, label_names)
    indices = predict_label_indices(model, features, batch_size, tokenizer.pad_token_id, True)
    return [
        {"id": example_id, "label": label_names[index]}
        for example_id, index in zip(features["ids"], indices, strict=True)
    ]
