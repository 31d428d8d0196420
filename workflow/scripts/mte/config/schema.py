"""The configuration against its JSON Schema (config/schema.yaml): loading it, typing the values
of ``--config``, filling its defaults, and one error naming the first key it refuses."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mte.errors import ConfigError
from mte.registry import TASKS, family_of


def load_schema(schema_path: str | Path) -> dict[str, Any]:
    """The config schema with the task registry's tasks: each task's entry is its family's
    ``$defs`` entry, so the schema never lists tasks by hand."""
    import yaml

    schema = yaml.safe_load(Path(schema_path).read_text(encoding="utf-8"))
    tasks = schema["properties"]["tasks"]
    tasks["properties"] = {
        name: {"$ref": f"#/$defs/{family_of(task).schema_def}"} for name, task in TASKS.items()
    }
    tasks["additionalProperties"] = False
    return schema


# words YAML 1.1 reads as booleans that are also language codes or plain words (Norwegian "no"):
# a list from --config keeps them as typed
YAML_11_BOOLEAN_WORDS = ("yes", "no", "on", "off", "y", "n")


NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def _yaml_typed(value: Any) -> Any:
    """A value from ``--config`` with its nested scalars typed as YAML types them."""
    import yaml

    if isinstance(value, dict):
        return {key: _yaml_typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_yaml_typed(item) for item in value]
    if isinstance(value, str) and value.strip().lower() not in YAML_11_BOOLEAN_WORDS:
        try:
            typed = yaml.safe_load(value)
        except yaml.YAMLError:
            return value
        if isinstance(typed, bool | int | float):
            return typed
        # YAML 1.1 reads 1e-5 (no dot) as a string; a config file's reader would too, but on
        # the command line it can only mean the number
        if isinstance(typed, str) and NUMBER.match(value.strip()):
            return float(value)
    return value


def type_command_line_values(config: dict[str, Any], given: Any) -> None:
    """Type the values given with ``--config`` inside lists and mappings as a config file
    would (in place). Snakemake reads ``seeds=[1,2]`` as the strings ``["1", "2"]`` (it types
    only a top-level scalar), which the schema would refuse though the user meant numbers."""
    for key, value in (given or {}).items():
        if key not in config:
            continue
        if isinstance(value, dict) and isinstance(config[key], dict):
            type_command_line_values(config[key], value)
        else:
            config[key] = _yaml_typed(config[key])


def model_of_shorthand(value: str) -> dict[str, Any]:
    """The ``models`` entry of the config key ``model`` (``--config model=org/name``): a local
    Hugging Face folder (it has a config.json), else a hub id with an optional ``@revision``;
    named after the id's last part (FacebookAI/xlm-roberta-base: xlm-roberta-base)."""
    folder = Path(value)
    if (folder / "config.json").is_file():
        entry = {"source": "local", "path": value}
        name = folder.resolve().name
    else:
        repository, _, revision = value.partition("@")
        entry = {"source": "hub", "id": repository, **({"revision": revision} if revision else {})}
        name = repository.rstrip("/").rsplit("/", 1)[-1]
    name = re.sub(r"[^A-Za-z0-9_.-]", "-", name).lstrip("-_.") or "model"
    return {"name": name, **entry}


def expand_model_shorthand(config: dict[str, Any]) -> None:
    """``model`` (one model, e.g. on the command line) replaces the config's ``models`` list
    with its entry, in place."""
    if config.get("model"):
        config["models"] = [model_of_shorthand(str(config["model"]))]


def fill_schema_defaults(config: dict[str, Any], schema_path: str | Path) -> None:
    """Fill the schema's defaults into ``config`` in place (Snakemake's ``validate``, which
    reads a schema from a file: the registry's schema is written to a temporary one)."""
    import os
    import tempfile

    import yaml
    from snakemake.utils import validate

    handle, path = tempfile.mkstemp(prefix="mte-schema-", suffix=".yaml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            yaml.safe_dump(load_schema(schema_path), out, sort_keys=False)
        validate(config, path)
    finally:
        os.unlink(path)


def check_schema(config: dict[str, Any], schema_path: str | Path) -> None:
    """Validate against the JSON Schema; the first error becomes a :class:`ConfigError` whose
    key is the dotted path of the offending value (defaults are filled in by Snakemake's
    ``validate`` afterwards)."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(load_schema(schema_path))
    errors = list(validator.iter_errors(config))
    if errors:
        # the deepest error names the offending value; shallower ones are its echoes
        # (e.g. "unevaluated properties" on the parent of an invalid value)
        error = max(errors, key=lambda e: len(e.absolute_path))
        path = [str(p) for p in error.absolute_path]
        # name list items by their model name where there is one
        if len(path) >= 2 and path[0] == "models" and path[1].isdigit():
            entry = config["models"][int(path[1])]
            if isinstance(entry, dict) and "name" in entry:
                path[1] = str(entry["name"])
        if error.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(
            error.instance, dict
        ):
            raise _unknown_key(error, path, validator.schema)
        raise ConfigError(".".join(path) or "(top level)", error.message)


def schema_branches(node: dict[str, Any], schema: dict[str, Any]) -> list[dict[str, Any]]:
    """``node`` and every node it stands for through ``$ref`` and ``allOf``/``anyOf``/``oneOf``,
    resolved: where the keys a config value may have are written (also the docs' key test)."""
    if "$ref" in node:
        node = {**node, **schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]}
    found = [node]
    for combined in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(combined) or ():
            found += schema_branches(branch, schema)
    return found


def _property_names(node: dict[str, Any], schema: dict[str, Any]) -> set[str]:
    """The keys a schema node allows by name."""
    return {
        name for branch in schema_branches(node, schema) for name in branch.get("properties") or {}
    }


def _unknown_key(error, path: list[str], schema: dict[str, Any]) -> ConfigError:
    """A misspelt key: the key itself, and the nearest valid one where one is near."""
    import difflib

    valid = sorted(_property_names(error.schema, schema))
    unknown = sorted(key for key in error.instance if key not in valid)
    key = unknown[0]
    near = difflib.get_close_matches(key, valid, n=1, cutoff=0.6)
    hint = f"; did you mean '{near[0]}'?" if near else f"; valid keys: {', '.join(valid)}"
    more = f" (also unknown: {', '.join(unknown[1:])})" if len(unknown) > 1 else ""
    return ConfigError(".".join([*path, key]), f"unknown key{more}{hint}")


def with_schema_defaults(config: dict[str, Any], schema_path: str | Path) -> dict[str, Any]:
    """A copy of ``config`` with the schema's defaults filled in, as the workflow's validation
    fills them: what the folder keys above are computed from."""
    import copy

    filled = copy.deepcopy(config)
    fill_schema_defaults(filled, schema_path)
    return filled
