"""Parameter-efficient fine-tuning with LoRA (Hu et al. 2021, arXiv:2106.09685) through the
``peft`` package: the pretrained weights stay frozen, each targeted linear layer learns a
low-rank update ``B A`` scaled by ``alpha / rank``, and the task head (new, so it has nothing to
adapt) trains whole.

A fine-tune with ``hyperparameters: {method: lora, lora: {...}}`` saves the adapter (the
low-rank matrices and the head: megabytes) and the head's config, not the model; a prediction
loads the pretrained model the adapter names, the adapter over it, and merges them (the same
function, one matrix product less per layer)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import torch

log = logging.getLogger(__name__)

# what a LoRA fine-tune uses where the config's ``lora:`` does not say (config/schema.yaml
# describes them): rank 8 and alpha 16 as the LoRA paper's GLUE runs and peft's examples, every
# linear layer of the pretrained body (QLoRA's finding, Dettmers et al. 2023, that adapting
# all of them matters more than the rank)
LORA_DEFAULTS = {"rank": 8, "alpha": 16, "dropout": 0.05, "target_modules": "all-linear"}
ADAPTER_CONFIG = "adapter_config.json"


def lora_settings(given: dict[str, Any] | None) -> dict[str, Any]:
    """The config's ``lora:`` entry over the defaults."""
    return {**LORA_DEFAULTS, **(given or {})}


def head_modules(model: torch.nn.Module) -> list[str]:
    """The task head's modules, which train whole beside the adapter: a transformers task
    model's children other than its pretrained body (``classifier``, ``score``,
    ``qa_outputs``), those of the model a stand-in head wraps (mte.modelling.decoder_heads)."""
    prefix = getattr(model, "base_model_prefix", "")
    inner = getattr(model, "scorer", None)
    if inner is not None:  # ChoiceScorer: the one-label classifier's head
        return head_modules(inner)
    return [
        name
        for name, child in model.named_children()
        if name != prefix.split(".")[0] and any(True for _ in child.parameters())
    ]


def with_lora(model: torch.nn.Module, settings: dict[str, Any]) -> Any:
    """``model`` with LoRA adapters (``settings``: rank, alpha, dropout, target_modules) on its
    pretrained body and its head trainable whole; the rest frozen."""
    from peft import LoraConfig, get_peft_model

    settings = lora_settings(settings)
    config = LoraConfig(
        r=settings["rank"],
        lora_alpha=settings["alpha"],
        lora_dropout=settings["dropout"],
        target_modules=settings["target_modules"],
        modules_to_save=head_modules(model),
    )
    adapted = get_peft_model(model, config)
    trainable = sum(p.numel() for p in adapted.parameters() if p.requires_grad)
    total = sum(p.numel() for p in adapted.parameters())
    log.info(
        "LoRA rank %d, alpha %s on %s: %d of %d parameters train (%.2f%%)",
        settings["rank"],
        settings["alpha"],
        settings["target_modules"],
        trainable,
        total,
        100 * trainable / total,
    )
    return adapted


def is_adapter(model_dir: str | Path) -> bool:
    """Whether a fine-tune folder holds a LoRA adapter, not a model."""
    return (Path(model_dir) / ADAPTER_CONFIG).is_file()


def adapter_base(model_dir: str | Path) -> Path:
    """The pretrained model folder the adapter of ``model_dir`` was trained on (its
    fine-tune's record, training.json, names it)."""
    import json

    record = json.loads((Path(model_dir) / "training.json").read_text(encoding="utf-8"))
    return Path(record["adapter_of"])


def merged(model: torch.nn.Module, model_dir: str | Path) -> torch.nn.Module:
    """``model`` (the adapter's base under its head) with the adapter of ``model_dir`` loaded
    and merged into its weights."""
    from peft import PeftModel

    return PeftModel.from_pretrained(model, str(model_dir)).merge_and_unload()
