"""The plan's records for tests that call a step directly: what the schema fills for a task, as
the workflow would hand it to the job."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.config.plan.records import tokenization_of
from mte.config.schema import with_schema_defaults

SCHEMA = Path(__file__).resolve().parents[1] / "config" / "schema.yaml"


def tokenization_options(task: str, **changes: Any) -> dict[str, Any]:
    """The tokenize job's options for ``task`` under the schema's defaults, with ``changes``
    (``max_length`` among them) replacing fields."""
    config = {
        "models": [{"name": "m", "source": "tiny"}],
        "tasks": {task: {"source": "demo"}},
        "settings": ["zero-shot"],
        "seeds": [1],
    }
    options = tokenization_of(task, with_schema_defaults(config, SCHEMA)).options()
    unknown = sorted(set(changes) - set(options))
    if unknown:
        raise KeyError(f"not options of a task's tokenisation: {unknown}")
    return {**options, **changes}
