"""Inference: length-sorted, per-batch padded, under ``torch.inference_mode``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mte.errors import MteError
from mte.hub.models import padding_id
from mte.modelling.device import describe, placement
from mte.modelling.heads import load_with_new_head
from mte.modelling.lora import adapter_base, is_adapter, merged
from mte.registry import head_for

log = logging.getLogger("mte")


def load_finetuned(model_dir: str | Path, features: dict[str, Any]) -> Any:
    """Load a fine-tuned model (a LoRA fine-tune's adapter: merged into the pretrained model it
    was trained on); its labels must be the features' labels."""
    head = head_for(features)
    if is_adapter(model_dir):
        base = adapter_base(model_dir)
        labels = head.label_config(features["label_names"])
        under_head = load_with_new_head(
            head, base, padding_id(features, base), head_from=str(model_dir), **labels
        )
        model = merged(under_head, model_dir)
    else:
        model = head.model_class(model_dir).from_pretrained(model_dir)
    model_labels = [model.config.id2label[i] for i in range(model.config.num_labels)]
    if features["label_names"] and model_labels != list(features["label_names"]):
        raise MteError(
            f"{model_dir}: the model's labels {model_labels} are not the task's "
            f"{features['label_names']}"
        )
    return model


def predict_records(
    model_dir: str | Path,
    features: dict[str, Any],
    batch_size: int,
    device: str = "auto",
    precision: str = "auto",
) -> list[dict[str, Any]]:
    """Predict every example of ``features``: ``{id, label}`` or ``{id, tags}`` records.
    ``device`` and ``precision``: the config's ``device`` and ``inference_precision``."""
    head = head_for(features)
    where, dtype = placement(device, precision)
    model = load_finetuned(model_dir, features).to(where)
    log.info("predicting on %s", describe(where, dtype))
    pad_id = padding_id(features, model_dir)
    predicted = head.predict(model, features, batch_size, pad_id, progress=True, dtype=dtype)
    return head.records(features, predicted)
