"""A task's fine-tuning hyper-parameters, typed: built once from the config's
``tasks.<task>.hyperparameters`` after the workflow filled in the schema's defaults.

The defaults live in one place, config/schema.yaml (each family's ``*_hyperparameters`` entry:
XTREME's recipes); none is restated here. A field the schema fills for every family is
required; the three it leaves absent unless set are None.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from mte.errors import ConfigError


@dataclass(frozen=True)
class HyperParameters:
    learning_rate: float
    epochs: int
    batch_size: int
    eval_batch_size: int
    max_length: int
    warmup_ratio: float
    # optimiser steps of warm-up; when set it replaces warmup_ratio (the schema's null: unset)
    warmup_steps: int | None
    weight_decay: float
    max_grad_norm: float
    # best_dev or last
    model_selection: str
    # training or all
    dev_languages: str
    freeze_word_embeddings: bool
    checkpoint_every_steps: int
    # absent unless a config sets them
    selection_every_steps: int | None = None
    keep_step: int | None = None
    gradient_accumulation_steps: int | None = None
    # full (every weight trains; absent means full) or lora (mte.modelling.lora), with the
    # ``lora:`` entry's rank, alpha, dropout and target modules
    method: str | None = None
    lora: dict[str, Any] | None = None

    @classmethod
    def from_config(cls, values: dict[str, Any], key: str = "hyperparameters") -> HyperParameters:
        """The hyper-parameters of a config's mapping (``key`` names it in errors)."""
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ConfigError(f"{key}.{unknown[0]}", "unknown hyper-parameter")
        required = [name for name, f in known.items() if f.default is not None]
        missing = [name for name in required if name not in values]
        if missing:
            raise ConfigError(
                f"{key}.{missing[0]}",
                "missing: the workflow fills it from config/schema.yaml's defaults, so a "
                "fine-tune called without the workflow must give it",
            )
        return cls(**values)

    @property
    def uses_lora(self) -> bool:
        return self.method == "lora"

    @property
    def peak_learning_rate(self) -> float:
        """The learning rate a fine-tune trains at: a LoRA fine-tune's own ``lora.learning_rate``
        where it has one (adapters usually train at a higher rate than whole models), else
        ``learning_rate``."""
        if self.uses_lora and (self.lora or {}).get("learning_rate") is not None:
            return float(self.lora["learning_rate"])
        return self.learning_rate

    @property
    def accumulation(self) -> int:
        """Batches per optimiser step (the schema's "absent - 1")."""
        return self.gradient_accumulation_steps or 1

    def as_record(self) -> dict[str, Any]:
        """The mapping as the config gave it (the optional fields only where set): what the
        fine-tune's record and its checkpoints' signature hold."""
        optional = {f.name for f in fields(self) if f.default is None}
        return {k: v for k, v in asdict(self).items() if not (k in optional and v is None)}
