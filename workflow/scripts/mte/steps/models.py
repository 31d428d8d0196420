"""The run's tasks against a prepared model's architecture, before any job reads the model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.hub.decoders import model_config
from mte.modelling.architectures import check_architecture


def check_model_folder(
    model_dir: str | Path, model_name: str, needs: list[tuple[str, str]] | list[list[str]]
) -> dict[str, Any]:
    """Check ``model_dir``'s config.json against ``needs`` ((task, need) pairs: the plan's
    architecture_needs); a task the architecture cannot serve raises the ConfigError the plan
    gives a local folder (mte.modelling.architectures.check_architecture). A hub model's
    architecture is first seen here, after its preparation and before any fine-tune. Returns
    the record of what was checked."""
    config = model_config(model_dir)
    pairs = [(str(task), str(need)) for task, need in needs]
    check_architecture(config, model_name, pairs)
    return {"model": model_name, "model_type": config.get("model_type"), "served": pairs}
