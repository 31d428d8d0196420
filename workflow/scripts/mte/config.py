"""Checks of the configuration beyond its JSON Schema, and what it asks the workflow to make.

Everything here runs while Snakemake builds the DAG, so a bad config stops before any job.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from mte.data import hub_location, resolve_files
from mte.errors import ConfigError
from mte.tasks import get_task

# zero-shot: train on English, test every language; in-language: one model per language,
# trained and tested on it; multilingual: one model on every language's training data
SETTINGS = ("zero-shot", "in-language", "multilingual")
# sub-tokens a QA window must keep beside the overlap, for the question and new context
QUESTION_ROOM = 32


def check_schema(config: dict[str, Any], schema_path: str | Path) -> None:
    """Validate against the JSON Schema; the first error becomes a :class:`ConfigError` whose
    key is the dotted path of the offending value (defaults are filled in by Snakemake's
    ``validate`` afterwards)."""
    import jsonschema
    import yaml

    schema = yaml.safe_load(Path(schema_path).read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
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
        raise ConfigError(".".join(path) or "(top level)", error.message)


def task_languages(task_name: str, config: dict[str, Any]) -> list[str]:
    """The evaluation languages of a task: the config's list, else the source's full list."""
    task_cfg = config["tasks"][task_name]
    task = get_task(task_name)
    if task_cfg.get("languages"):
        return list(task_cfg["languages"])
    if task_cfg["source"] == "demo":
        return list(task.demo_languages)
    return list(task.languages)


def task_settings(task_name: str, config: dict[str, Any]) -> list[str]:
    """The transfer settings run for a task: its own ``settings`` list, else the global one."""
    return list(config["tasks"][task_name].get("settings") or config["settings"])


def training_languages(task_name: str, setting: str, config: dict[str, Any]) -> list[str]:
    """Languages whose training (and dev) data one fine-tune of ``setting`` reads; for
    in-language, the fine-tune of each language reads that language alone."""
    if setting == "zero-shot":
        return [get_task(task_name).train_language]
    return task_languages(task_name, config)


def eval_split_of(task_name: str, config: dict[str, Any]) -> str:
    """The split scored: the config's ``eval_split``, else the task's default (GLUE: dev)."""
    return config["tasks"][task_name].get("eval_split") or get_task(task_name).default_eval_split


def needed_splits(task_name: str, config: dict[str, Any]) -> list[tuple[str, str]]:
    """(language, split) pairs the task's runs read: training data, dev, evaluation sets.

    Retrieval (Tatoeba) reads only its evaluation set; mining (BUCC) also the dev set that
    sets its threshold; a task evaluating another task's fine-tunes reads no training data.
    """
    task = get_task(task_name)
    eval_split = eval_split_of(task_name, config)
    languages = task_languages(task_name, config)
    pairs = []
    if task.family == "mining":
        pairs += [(language, "dev") for language in languages]
    elif task.family != "retrieval" and not task.models_of:
        for setting in task_settings(task_name, config):
            for language in training_languages(task_name, setting, config):
                pairs += [(language, "train"), (language, "dev")]
    pairs += [(language, eval_split) for language in languages]
    return list(dict.fromkeys(pairs))


def check_config(config: dict[str, Any]) -> None:
    """Raise one :class:`ConfigError` naming the key of the first problem found."""
    names = [model["name"] for model in config["models"]]
    for name, count in Counter(names).items():
        if count > 1:
            raise ConfigError("models", f"model name '{name}' is used {count} times")
    for model in config["models"]:
        key = f"models.{model['name']}"
        required = {"hub": "id", "local": "path"}.get(model["source"])
        if required and not model.get(required):
            raise ConfigError(f"{key}.{required}", f"source '{model['source']}' needs '{required}'")
        if model["source"] == "local" and not (Path(model["path"]) / "config.json").is_file():
            raise ConfigError(
                f"{key}.path",
                f"{model['path']} is not a Hugging Face model folder (no config.json)",
            )
    for setting in config["settings"]:
        if setting not in SETTINGS:
            raise ConfigError(
                "settings", f"unknown setting '{setting}' (known: {', '.join(SETTINGS)})"
            )
    if not config["tasks"]:
        raise ConfigError("tasks", "no task to run")
    for task_name, task_cfg in config["tasks"].items():
        task = get_task(task_name)
        key = f"tasks.{task_name}"
        for language in task_cfg.get("languages") or []:
            task.check_language(language, f"{key}.languages")
        if task.models_of and task.models_of not in config["tasks"]:
            raise ConfigError(
                key,
                f"{task.title} evaluates the fine-tuned models of '{task.models_of}': "
                f"configure tasks.{task.models_of} too",
            )
        if task.family == "qa" and "hyperparameters" in task_cfg:
            stride, length = task_cfg["doc_stride"], task_cfg["hyperparameters"]["max_length"]
            if stride + QUESTION_ROOM >= length:
                raise ConfigError(
                    f"{key}.doc_stride",
                    f"{stride} sub-tokens of overlap leave fewer than {QUESTION_ROOM} of a "
                    f"{length}-token window for the question and new context",
                )
        settings_key = f"{key}.settings" if task_cfg.get("settings") else "settings"
        for setting in task_settings(task_name, config):
            if setting not in SETTINGS:
                raise ConfigError(
                    settings_key, f"unknown setting '{setting}' (known: {', '.join(SETTINGS)})"
                )
            if setting not in task.settings:
                raise ConfigError(
                    settings_key,
                    f"{task.title} has no data for setting '{setting}' (it has: "
                    f"{', '.join(task.settings)}); give the task its own 'settings' list",
                )
        if task_cfg["source"] == "demo" and not task.demo_languages:
            raise ConfigError(f"{key}.source", f"{task.title} has no demo data; use hub or files")
        if task_cfg["source"] == "demo":
            for language in task_languages(task_name, config):
                if language not in task.demo_languages:
                    raise ConfigError(
                        f"{key}.languages",
                        f"the demo data of {task.title} has no '{language}' (it has: "
                        f"{', '.join(task.demo_languages)})",
                    )
        if task_cfg["source"] == "files":
            if not task_cfg.get("path") and not task_cfg.get("files"):
                raise ConfigError(f"{key}.path", "source 'files' needs 'path' (a folder)")
            for language, split in needed_splits(task_name, config):
                resolve_files(task, task_cfg, language, split)
        if task_cfg["source"] == "hub":
            for language, split in needed_splits(task_name, config):
                hub_location(task, language, split)
