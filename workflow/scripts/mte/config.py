"""Checks of the configuration beyond its JSON Schema, and what it asks the workflow to make.

Everything here runs while Snakemake builds the DAG, so a bad config stops before any job.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from mte.errors import ConfigError
from mte.registry import TASKS, all_suites, family_of, get_suite, get_task
from mte.steps.data import hub_location, resolve_files
from mte.tasks.settings import TRANSFER_SETTINGS
from mte.tasks.spec import TRANSLATED_SPLITS

# the transfer settings' names, those with one model per language, and the kind of machine
# translation each translation setting reads (the table: mte.tasks.settings)
SETTINGS = tuple(TRANSFER_SETTINGS)
PER_LANGUAGE_SETTINGS = tuple(name for name, s in TRANSFER_SETTINGS.items() if s.per_language)
TRANSLATION_SETTINGS = {
    name: s.translation for name, s in TRANSFER_SETTINGS.items() if s.translation
}


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


# ``languages: all``: every language of the task's release
ALL_LANGUAGES = "all"
# a retrieval task's encoder (tasks.<task>.encoder) when it is no fine-tune of another task
PRETRAINED = "pretrained"


def task_languages(task_name: str, config: dict[str, Any]) -> list[str]:
    """The evaluation languages of a task: the config's list, every language of the release
    (``all``), a suite's set for the task (``xtreme_r``), else the task's default set."""
    task_cfg = config["tasks"][task_name]
    task = get_task(task_name)
    chosen = task_cfg.get("languages")
    if chosen == ALL_LANGUAGES:
        return list(task.all_languages)
    if isinstance(chosen, str):
        return list(get_suite(chosen).task_languages(task))
    if chosen:
        return list(chosen)
    if task_cfg["source"] == "demo":
        return list(task.demo_languages)
    return list(task.languages)


def task_settings(task_name: str, config: dict[str, Any]) -> list[str]:
    """The transfer settings run for a task: its own ``settings`` list, else the global one.

    A training set only (SQuAD) is fine-tuned in the one setting its evaluators share."""
    if get_task(task_name).train_only:
        return ["zero-shot"]
    return list(config["tasks"][task_name].get("settings") or config["settings"])


def task_seeds(task_name: str, config: dict[str, Any]) -> list[int]:
    """The fine-tuning seeds of a task: its own ``seeds`` list, else the global one (the XLM-R
    paper's XNLI figures are means over five seeds; its other tables name no count)."""
    return list(config["tasks"][task_name].get("seeds") or config["seeds"])


def models_of(task_name: str, config: dict[str, Any]) -> str:
    """The task whose fine-tunes ``task_name`` evaluates instead of fine-tuning: the config's
    ``models_of`` (Belebele: an English multiple-choice task), else the spec's (XQuAD: SQuAD's),
    else none ("")."""
    task_cfg = (config.get("tasks") or {}).get(task_name)
    chosen = task_cfg.get("models_of") if isinstance(task_cfg, dict) else None
    return chosen or get_task(task_name).models_of


def start_from(task_name: str, config: dict[str, Any]) -> str:
    """The task whose fine-tuned model a fine-tune of ``task_name`` starts from (the config's
    ``start_from``: XCOPA after Social IQa, as XTREME-R's train_xcopa.sh runs it), else "": the
    pretrained encoder."""
    return config["tasks"][task_name].get("start_from") or ""


def training_splits(
    task_name: str, setting: str, language: str | None, config: dict[str, Any]
) -> dict[str, list[tuple[str, str]]]:
    """(language, split) pairs that one fine-tune of ``setting`` trains and selects on;
    ``language`` is the evaluation language of a per-language setting.

    Translate-train models select their epoch on the English dev set, as XTREME's do.
    """
    setting = TRANSFER_SETTINGS[setting]
    if setting.reuses:
        return training_splits(task_name, setting.reuses, language, config)
    english = get_task(task_name).train_language
    languages = task_languages(task_name, config)
    hp = config["tasks"][task_name].get("hyperparameters") or {}
    chosen = {"english": [english], "own": [language], "all": languages}
    # the XLM-R paper's single models select on the joint dev set of all languages
    chosen["dev_languages"] = languages if hp.get("dev_languages") == "all" else [english]
    train = [(lang, "train") for lang in chosen[setting.trains_on]]
    if setting.translated_training:
        targets = chosen[setting.translated_training]
        train += [(lang, "translate-train") for lang in targets if lang != english]
    return {"train": train, "dev": [(lang, "dev") for lang in chosen[setting.selects_on]]}


def evaluation_split(task_name: str, setting: str, language: str, config: dict[str, Any]) -> str:
    """The split a setting predicts for ``language``: translate-test reads the language's test
    set translated into English (English itself: its own test set)."""
    if (
        TRANSFER_SETTINGS[setting].translated_test
        and language != get_task(task_name).train_language
    ):
        return "translate-test"
    return eval_split_of(task_name, config)


def translation_source(
    task_name: str, split: str, language: str, config: dict[str, Any]
) -> tuple[str, str, str, str]:
    """What a translation model translates for a translated split of ``language``:
    (source language, split, source language code, target language code)."""
    english = get_task(task_name).train_language
    evaluated = eval_split_of(task_name, config)
    if split == "translate-train":
        return english, "train", english, language
    if split == "translate-test":
        return language, evaluated, language, english
    return english, evaluated, english, language


def eval_split_of(task_name: str, config: dict[str, Any]) -> str:
    """The split scored: the config's ``eval_split``, else the task's default (GLUE: dev)."""
    return config["tasks"][task_name].get("eval_split") or get_task(task_name).default_eval_split


def needed_splits(task_name: str, config: dict[str, Any]) -> list[tuple[str, str]]:
    """(language, split) pairs the task's runs read: training data, dev, evaluation sets.

    Retrieval (Tatoeba) reads only its evaluation set; mining (BUCC) also the dev set that
    sets its threshold; a task evaluating another task's fine-tunes reads no training data.
    """
    task = get_task(task_name)
    if task.train_only:
        splits = training_splits(task_name, "zero-shot", None, config).values()
        return list(dict.fromkeys(pair for pairs in splits for pair in pairs))
    eval_split = eval_split_of(task_name, config)
    languages = task_languages(task_name, config)
    pairs = []
    family = family_of(task)
    for split in family.extra_eval_splits:
        pairs += [(language, split) for language in languages]
    if not family.retrieval and not models_of(task_name, config):
        for setting in task_settings(task_name, config):
            targets = languages if setting in PER_LANGUAGE_SETTINGS else [None]
            for target in targets:
                for split_pairs in training_splits(task_name, setting, target, config).values():
                    pairs += split_pairs
    for setting in task_settings(task_name, config):
        pairs += [(lang, evaluation_split(task_name, setting, lang, config)) for lang in languages]
    pairs += [(language, eval_split) for language in languages]
    if config["tasks"][task_name].get("pseudo_test"):
        pairs += [(lang, "pseudo-test") for lang in languages if lang != task.train_language]
    return list(dict.fromkeys(pairs))


# what a task that evaluates another task's fine-tunes may not set: the fine-tune's own
SHARED_FINETUNE_KEYS = (
    "hyperparameters",
    "doc_stride",
    "do_lower_case",
    "windows",
    "max_query_length",
)


def check_shared_finetunes(config: dict[str, Any]) -> None:
    """A task evaluating another task's fine-tunes (XQuAD, MLQA, MLQA G-XLT: SQuAD's; MNLI-mm:
    MNLI's; Belebele: the configured one's) runs them with that task's hyper-parameters and
    windows; setting its own would be silently ignored, so it is an error. Runs on the config as
    written, before defaults."""
    for task_name, task_cfg in (config.get("tasks") or {}).items():
        if not isinstance(task_cfg, dict) or not isinstance(task_cfg.get("models_of", ""), str):
            continue
        owner_name = models_of(task_name, config)
        if not owner_name or owner_name not in TASKS:
            continue
        for key in (*SHARED_FINETUNE_KEYS, "start_from"):
            if key in task_cfg:
                owner = get_task(owner_name)
                raise ConfigError(
                    f"tasks.{task_name}.{key}",
                    f"{get_task(task_name).title} evaluates the {owner.title} fine-tune, which "
                    f"{owner_name} configures: set tasks.{owner_name}.{key} instead",
                )


def check_config(config: dict[str, Any]) -> list[str]:
    """Raise one :class:`ConfigError` naming the key of the first problem found; return the
    notes a run should print (a task whose files await a step no URL can do)."""
    _check_models(config["models"])
    for setting in config["settings"]:
        if setting not in SETTINGS:
            raise ConfigError(
                "settings", f"unknown setting '{setting}' (known: {', '.join(SETTINGS)})"
            )
    if not config["tasks"]:
        raise ConfigError("tasks", "no task to run")
    _check_baseline(config)
    # tasks awaiting one step in one folder are one note
    awaiting: dict[str, list[str]] = {}
    for task_name in config["tasks"]:
        note = _check_task(task_name, config)
        if note:
            title, _, step = note.partition(": ")
            awaiting.setdefault(step, []).append(title)
    return [f"{', '.join(titles)}: {step}" for step, titles in awaiting.items()]


def _check_models(models: list[dict[str, Any]]) -> None:
    names = [model["name"] for model in models]
    for name, count in Counter(names).items():
        if count > 1:
            raise ConfigError("models", f"model name '{name}' is used {count} times")
    for model in models:
        key = f"models.{model['name']}"
        required = {"hub": "id", "local": "path"}.get(model["source"])
        if required and not model.get(required):
            raise ConfigError(f"{key}.{required}", f"source '{model['source']}' needs '{required}'")
        if model["source"] == "local" and not (Path(model["path"]) / "config.json").is_file():
            raise ConfigError(
                f"{key}.path",
                f"{model['path']} is not a Hugging Face model folder (no config.json)",
            )


def _check_baseline(config: dict[str, Any]) -> None:
    baseline = (config.get("statistics") or {}).get("baseline")
    if not baseline:
        return
    names = [model["name"] for model in config["models"]]
    if baseline["model"] not in names:
        raise ConfigError(
            "statistics.baseline.model",
            f"'{baseline['model']}' is not a configured model ({', '.join(names)})",
        )
    if baseline["setting"] not in SETTINGS:
        raise ConfigError(
            "statistics.baseline.setting",
            f"unknown setting '{baseline['setting']}' (known: {', '.join(SETTINGS)})",
        )


def _check_task(task_name: str, config: dict[str, Any]) -> str | None:
    """One task's entry: its languages, the tasks it needs beside it, its settings, and a
    source that holds every split its runs read."""
    task, task_cfg = get_task(task_name), config["tasks"][task_name]
    key = f"tasks.{task_name}"
    chosen = task_cfg.get("languages")
    if isinstance(chosen, str) and chosen != ALL_LANGUAGES:
        suites = [name for name, suite in all_suites().items() if task_name in suite.tasks]
        if chosen not in suites:
            raise ConfigError(
                f"{key}.languages",
                f"'{chosen}' is neither '{ALL_LANGUAGES}' nor a suite with {task.title} "
                f"(suites with it: {', '.join(suites) or 'none'}); or give a list of languages",
            )
    for language in chosen if isinstance(chosen, list) else []:
        task.check_language(language, f"{key}.languages")
    owner = models_of(task_name, config)
    if owner and owner not in config["tasks"]:
        raise ConfigError(
            key,
            f"{task.title} evaluates the fine-tuned models of '{owner}': "
            f"configure tasks.{owner} too",
        )
    for option in ("models_of", "start_from"):
        if task_cfg.get(option):
            _check_other_fine_tune(task, task_cfg[option], f"{key}.{option}", config)
    if retrieval_encoder(task_name, config):
        _check_encoder(task, retrieval_encoder(task_name, config), f"{key}.encoder", config)
    if task.train_only:
        users = sorted(
            n
            for n in config["tasks"]
            if task_name in (models_of(n, config), config["tasks"][n].get("encoder"))
        )
        if not users:
            known = sorted(t.name for t in TASKS.values() if t.models_of == task_name)
            raise ConfigError(
                key,
                f"{task.title} is a training set only: configure a task that evaluates its "
                f"fine-tunes ({', '.join(known)})",
            )
    _check_settings(task, config)
    awaited = _awaited_step(task, task_cfg)
    if awaited:
        # its files (and what the family checks in them) are not there yet
        return awaited
    family_of(task).check_task_config(task, task_cfg, key)
    if task_cfg.get("pseudo_test"):
        _check_translations(task, task_cfg, key, f"{key}.pseudo_test", "pseudo-test")
    return _check_source(task, config)


def _awaited_step(task: Any, task_cfg: dict[str, Any]) -> str | None:
    """The note for a task whose folder does not exist yet and whose released files need a
    step no URL can do (Mewsli-X's get-mewsli-x.sh): the step, in one line."""
    folder = task_cfg.get("path")
    if task_cfg["source"] == "files" and folder and not Path(folder).is_dir() and task.manual_step:
        return f"{task.title}: {folder} does not exist yet: {task.manual_step}"
    return None


def _dual_encoder_tasks() -> list[str]:
    return sorted(name for name, task in TASKS.items() if family_of(task).dual_encoder)


def retrieval_encoder(task_name: str, config: dict[str, Any]) -> str | None:
    """The task whose zero-shot fine-tunes embed a retrieval task's sentences (``encoder``), or
    None for the pretrained model."""
    encoder = config["tasks"][task_name].get("encoder", PRETRAINED)
    return None if encoder == PRETRAINED else encoder


def retrieval_lower_case(task_name: str, config: dict[str, Any]) -> bool:
    """Whether a retrieval task's texts are read lower-cased: as its encoder's fine-tune read
    its own (the dual encoder's ``do_lower_case``, XTREME-R's --do_lower_case for XLM-R, which
    its run_eval_lareqa.sh and run_eval_mewslix.sh pass again); never for the pretrained
    model."""
    encoder = retrieval_encoder(task_name, config)
    return bool(encoder and config["tasks"][encoder].get("do_lower_case"))


def _check_encoder(task: Any, encoder: str, key: str, config: dict[str, Any]) -> None:
    """A retrieval task's ``encoder``: another configured task with a zero-shot fine-tune of
    its own for every seed the retrieval task runs."""
    family = family_of(task)
    if not family.retrieval:
        raise ConfigError(key, f"{task.title} fine-tunes: it has no encoder to choose")
    configured = sorted(n for n in config["tasks"] if n != task.name)
    if encoder not in config["tasks"] or encoder == task.name:
        raise ConfigError(
            key,
            f"'{encoder}' is neither '{PRETRAINED}' nor another configured task "
            f"(configured: {', '.join(configured)})",
        )
    other = get_task(encoder)
    if family_of(other).retrieval or models_of(encoder, config):
        raise ConfigError(key, f"{other.title} fine-tunes no model of its own to embed with")
    dual = family_of(other).dual_encoder
    if family.pooled and not dual:
        raise ConfigError(
            key,
            f"{task.title} embeds its queries and its pool with one encoder: the pretrained "
            f"model or a dual encoder's fine-tune ({', '.join(_dual_encoder_tasks())}), "
            f"not {other.title}'s",
        )
    # absent before the schema's defaults are filled in: the default, [model, xtreme]
    layers = config["tasks"][task.name].get("layers") or ["model", "xtreme"]
    if dual and list(layers) != ["model"]:
        raise ConfigError(
            f"{key.rsplit('.', 1)[0]}.layers",
            f"a dual encoder embeds with its pooler over the last layer: {task.title} with "
            f"encoder {encoder} takes layers: [model], not {list(layers)}",
        )
    if "zero-shot" not in task_settings(encoder, config):
        raise ConfigError(key, f"{other.title} runs no zero-shot fine-tune to embed with")
    missing = sorted(set(task_seeds(task.name, config)) - set(task_seeds(encoder, config)))
    if missing:
        raise ConfigError(
            key,
            f"{other.title} fine-tunes no model for seed(s) {', '.join(map(str, missing))}, "
            f"which {task.title} runs",
        )


def _check_other_fine_tune(task: Any, other_name: str, key: str, config: dict[str, Any]) -> None:
    """A fine-tune of another task that ``task`` evaluates (``models_of``) or starts from
    (``start_from``): a configured task of the same family (and label set), which fine-tunes
    and whose own fine-tune starts nowhere back at ``task``."""
    configured = sorted(n for n in config["tasks"] if n != task.name)
    if other_name not in TASKS or other_name not in config["tasks"] or other_name == task.name:
        raise ConfigError(
            key,
            f"'{other_name}' is not another configured task (configured: {', '.join(configured)})",
        )
    other = get_task(other_name)
    if family_of(task).retrieval or other.family != task.family or other.labels != task.labels:
        raise ConfigError(
            key,
            f"{other.title} ({other.family}) fine-tunes no model {task.title} ({task.family}) "
            "can use: it must be a task of the same family with the same labels",
        )
    if models_of(other_name, config):
        raise ConfigError(key, f"{other.title} fine-tunes nothing of its own")
    seen, current = {task.name}, other_name
    while current:
        if current in seen:
            raise ConfigError(key, f"fine-tunes that start from each other in a circle ({current})")
        seen.add(current)
        current = start_from(current, config)


def _check_settings(task: Any, config: dict[str, Any]) -> None:
    task_cfg, key = config["tasks"][task.name], f"tasks.{task.name}"
    settings_key = f"{key}.settings" if task_cfg.get("settings") else "settings"
    for setting in task_settings(task.name, config):
        if setting not in SETTINGS:
            raise ConfigError(
                settings_key, f"unknown setting '{setting}' (known: {', '.join(SETTINGS)})"
            )
        if setting in TRANSLATION_SETTINGS:
            _check_translations(task, task_cfg, key, settings_key, setting)
        elif setting not in task.settings:
            raise ConfigError(
                settings_key,
                f"{task.title} has no data for setting '{setting}' (it has: "
                f"{', '.join(task.settings)}); give the task its own 'settings' list",
            )


def _check_source(task: Any, config: dict[str, Any]) -> str | None:
    """The task's source holds every split its runs read (files on disk, hub locations). A
    folder that does not exist yet, of a task whose released files need a step no URL can do
    (Mewsli-X's dump processing), is a note naming the step, not an error."""
    task_cfg, key = config["tasks"][task.name], f"tasks.{task.name}"
    if task_cfg["source"] == "demo" and not task.demo_languages:
        raise ConfigError(f"{key}.source", f"{task.title} has no demo data; use hub or files")
    if task_cfg["source"] == "demo":
        for language in task_languages(task.name, config):
            if language not in task.demo_languages:
                raise ConfigError(
                    f"{key}.languages",
                    f"the demo data of {task.title} has no '{language}' (it has: "
                    f"{', '.join(task.demo_languages)})",
                )
    if task_cfg["source"] == "files" and not task_cfg.get("path") and not task_cfg.get("files"):
        raise ConfigError(f"{key}.path", "source 'files' needs 'path' (a folder)")
    if task_cfg["source"] == "release":
        _check_release(task, task_cfg, key, config)
        return None
    for language, split in needed_splits(task.name, config):
        if split in TRANSLATED_SPLITS:
            if task_cfg["translations"].get("source", "files") == "files":
                resolve_files(task, task_cfg, language, split)
        elif task_cfg["source"] in ("files", "demo"):
            resolve_files(task, task_cfg, language, split)
        elif task_cfg["source"] == "hub":
            hub_location(task, language, split)
    return None


def _check_release(task: Any, task_cfg: dict[str, Any], key: str, config) -> None:
    """A release source: the task has one, it serves every language the config reads, and
    the keys that only a local folder takes are not given."""
    if task.release is None:
        sources = "hub or files" if task.hub_id else "files"
        why = f" ({task.no_release})" if task.no_release else ""
        raise ConfigError(
            f"{key}.source", f"{task.title} has no release source here{why}; use {sources}"
        )
    for option in ("path", "files"):
        if task_cfg.get(option):
            raise ConfigError(
                f"{key}.{option}",
                "source 'release' downloads into resources/releases/; a folder of your own is "
                "source: files",
            )
    for language in release_languages(task.name, config):
        if not task.release.files_for([language]):
            raise ConfigError(
                f"{key}.languages", f"{task.title}'s release has no files for '{language}'"
            )


def _check_translations(
    task: Any, task_cfg: dict[str, Any], key: str, asked_by: str, what: str
) -> None:
    """A translation setting (or the pseudo test analysis) needs translations the task can use."""
    if not family_of(task).has_translations or task.group:
        raise ConfigError(asked_by, f"{task.title} has no translated data for '{what}'")
    owner = models_of(task.name, {"tasks": {task.name: task_cfg}})
    if owner and TRANSLATION_SETTINGS.get(what) == "translate-train":
        raise ConfigError(
            asked_by,
            f"{task.title} evaluates the {owner} fine-tunes; translate-train models of "
            f"them are not supported (zero-shot, translate-test and pseudo-test are)",
        )
    translations = task_cfg.get("translations")
    if not translations:
        raise ConfigError(
            f"{key}.translations",
            f"'{what}' needs machine translations: give tasks.{task.name}.translations "
            "(path to translation files, or model)",
        )
    if translations.get("source", "files") == "model":
        if not translations.get("model"):
            raise ConfigError(f"{key}.translations.model", "source 'model' needs 'model'")
        if not family_of(task).model_translatable:
            raise ConfigError(
                f"{key}.translations.source",
                f"{task.title}'s tags or answer spans cannot be carried through a translation "
                "model; give translation files (source: files) with projected annotations",
            )
    elif not translations.get("path"):
        raise ConfigError(f"{key}.translations.path", "source 'files' needs 'path' (a folder)")


# What decides a task's downloaded content (the translated splits add their translations, which
# re-run only those splits when they change)
DATA_KEYS = ("source", "path", "files", "revision", "subset")
# What a folder of results is named by: runs of different configs that differ in one of these
# write to different folders, and runs that agree share (and so reuse) them
KEY_PATTERN = r"[a-z]+(-[0-9a-f]{8}){0,2}"


def _digest(payload: Any) -> str:
    """Eight hex digits of the SHA-256 of ``payload`` as canonical JSON."""
    import hashlib
    import json

    text = json.dumps(payload, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def data_params(task_name: str, config: dict[str, Any]) -> dict[str, Any]:
    """The config values that decide a task's downloaded examples."""
    task_cfg = config["tasks"][task_name]
    return {key: task_cfg.get(key) for key in DATA_KEYS}


def source_record(task_name: str, config: dict[str, Any]) -> dict[str, Any]:
    """What the task's source pins beyond the config: each hub repository's revision and the
    route it is read by, or every released file's URL and checksum; and the task's protocol
    version where it was raised. A change to any of them is new data (a new data folder)."""
    task = get_task(task_name)
    task_cfg = config["tasks"][task_name]
    record: dict[str, Any] = {}
    if task_cfg["source"] == "hub":
        record["hub"] = [
            [repo.id, task_cfg.get("revision") or repo.revision, repo.status, repo.files]
            + ([repo.export_revision] if repo.status in ("script", "unsettled") else [])
            for repo in task.hub_repos
        ]
    elif task_cfg["source"] == "release" and task.release is not None:
        record["release"] = [[f.url, f.name, f.sha256] for f in task.release.files]
    # named only when raised, so that the folders of every task at version 1 keep their names
    if task.version != 1:
        record["version"] = task.version
    return record


def data_key(task_name: str, config: dict[str, Any]) -> str:
    """The folder of a task's data under resources/data/{task}/: ``demo`` as shipped, else the
    source and a digest of what decides the content (``files-1a2b3c4d``, ``hub-...``: the
    config's keys and what the source pins, its commits or checksums), so that the demo's
    XNLI, the hub's and a folder's never share a file, and a new pin is new data."""
    params = data_params(task_name, config)
    record = source_record(task_name, config)
    source = params["source"]
    if source == "demo" and not record and not any(v for k, v in params.items() if k != "source"):
        return source
    return f"{source}-{_digest({**params, **record} if record else params)}"


def release_languages(task_name: str, config: dict[str, Any]) -> list[str]:
    """The languages whose released files a run of the config reads (every split it needs)."""
    return sorted({language for language, split in needed_splits(task_name, config)
                   if split not in TRANSLATED_SPLITS})  # fmt: skip


def release_key(task_name: str, config: dict[str, Any]) -> str:
    """The name of a task's fetched-release record: a digest of the files its languages need
    (a language added fetches its files; the files fetched before stay)."""
    task = get_task(task_name)
    files = task.release.files_for(release_languages(task_name, config))
    return _digest([[f.url, f.name, f.sha256] for f in files])


def tokens_params(task_name: str, config: dict[str, Any]) -> dict[str, Any]:
    """What decides a task's features besides its data: the window of the fine-tune it is
    evaluated with (max length, QA stride), its input's lower-casing and the sub-token that
    carries a word's label."""
    owner = config["tasks"][models_of(task_name, config) or task_name]
    params = {
        "max_length": (owner.get("hyperparameters") or {}).get("max_length"),
        "doc_stride": owner.get("doc_stride"),
        "label_subword": config["tasks"][task_name].get("label_subword"),
    }
    # named only when set, so that the folders of every run without it keep their names
    if owner.get("do_lower_case"):
        params["do_lower_case"] = True
    if config.get("tokenization", "paper") != "paper":
        params["tokenization"] = config["tokenization"]
    if owner.get("windows") == "run_squad":
        params["windows"] = "run_squad"
        params["max_query_length"] = owner.get("max_query_length")
    owner_task = get_task(models_of(task_name, config) or task_name)
    for key in family_of(owner_task).tokens_keys:
        params[key] = owner.get(key)
    return params


def tokens_key(task_name: str, config: dict[str, Any]) -> str:
    """The folder of a task's features: its data key and a digest of the tokenisation."""
    return f"{data_key(task_name, config)}-{_digest(tokens_params(task_name, config))}"


def variant_key(task_name: str, config: dict[str, Any]) -> str:
    """The folder of a task's fine-tunes, predictions and scores under results/{model}/{task}/:
    its data key and a digest of everything else that decides them: the tokenisation, the
    fine-tune's hyper-parameters and training data (a task evaluating another task's fine-tunes
    names that task's folder), the retrieval layers. Evaluation languages, settings and seeds are
    folders of their own below it, so adding one reruns nothing else."""
    task = get_task(task_name)
    task_cfg = config["tasks"][task_name]
    decided_by: dict[str, Any] = {"tokens": tokens_params(task_name, config)}
    if family_of(task).retrieval:
        decided_by = {"layers": task_cfg.get("layers")}
        # named only when not the default, as in tokens_params
        if config.get("tokenization", "paper") != "paper":
            decided_by["tokenization"] = config["tokenization"]
        # named only when set, so that the folders of every pretrained-encoder run keep theirs
        if encoder := retrieval_encoder(task_name, config):
            decided_by["encoder"] = [encoder, variant_key(encoder, config)]
    elif models_of(task_name, config):
        owner = models_of(task_name, config)
        decided_by["fine_tune"] = [owner, variant_key(owner, config)]
    else:
        decided_by["hyperparameters"] = task_cfg.get("hyperparameters")
        # named only when set, so that the folders of every fine-tune from the pretrained
        # encoder keep their names
        if start_from(task_name, config):
            first = start_from(task_name, config)
            decided_by["start_from"] = [first, variant_key(first, config)]
        # a spec's own selection metric (UD-POS: seqeval F1) picks other models than the
        # primary metric did: named so that models selected the earlier way are not reused
        if task.selection_metric:
            decided_by["selection_metric"] = task.selection_metric
    return f"{data_key(task_name, config)}-{_digest(decided_by)}"


def with_schema_defaults(config: dict[str, Any], schema_path: str | Path) -> dict[str, Any]:
    """A copy of ``config`` with the schema's defaults filled in, as the workflow's validation
    fills them: what the folder keys above are computed from."""
    import copy

    filled = copy.deepcopy(config)
    fill_schema_defaults(filled, schema_path)
    return filled


def run_name(config: dict[str, Any], configfiles: list[str]) -> str:
    """The folder of a run's tables, plots and summaries, results/runs/{run}/: the config's
    ``run``, else the config file's name (xtreme for config/xtreme.yaml), else default."""
    if config.get("run"):
        return str(config["run"])
    if configfiles:
        return Path(configfiles[-1]).stem
    return "default"


def check_configuration(config: dict[str, Any], schema_path: str | Path) -> list[str]:
    """Every check of a run's config before any job, in the order a run makes them (the
    Snakefile's checks.smk, after the command line's values are typed and the published
    numbers read): each task known, the schema, fine-tunes shared by name, the schema's
    defaults filled in, then the tasks' keys, languages, files and settings. The first fault
    raises one ConfigError naming its key."""
    for name in config.get("tasks") or {}:
        get_task(name)
    check_schema(config, schema_path)
    check_shared_finetunes(config)
    fill_schema_defaults(config, schema_path)
    return check_config(config)
