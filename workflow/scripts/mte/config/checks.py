"""Checks of the configuration beyond its JSON Schema, each naming the key at fault. Everything
here runs while Snakemake builds the DAG, so a bad config stops before any job."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mte.config.plan.keys import release_languages
from mte.config.plan.resolve import (
    ALL_LANGUAGES,
    PRETRAINED,
    SETTINGS,
    TRANSLATION_SETTINGS,
    available_settings,
    dual_encoder_tasks,
    models_of,
    needed_splits,
    retrieval_encoder,
    start_from,
    task_languages,
    task_seeds,
    task_settings,
)
from mte.config.schema import check_schema, expand_model_shorthand, fill_schema_defaults
from mte.errors import ConfigError
from mte.registry import (
    TASKS,
    all_suites,
    family_of,
    get_task,
    pools,
    retrieves,
    trains_dual_encoders,
)
from mte.steps.data import hub_location, resolve_files
from mte.tasks.spec import TRANSLATED_SPLITS

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


@dataclass(frozen=True)
class AwaitedStep:
    """Configured tasks whose folder awaits one step no URL can do (Mewsli-X's
    get-mewsli-x.sh): a dry run plans them with a note, a real run stops before any job
    (common.smk), naming the step and the ``skip_tasks`` that runs the rest."""

    tasks: tuple[str, ...]
    folder: str
    step: str
    # what --config skip_tasks=[...] must hold to run every other task: the evaluated tasks
    # that need these files, with what the config skips already
    skip: tuple[str, ...]

    def message(self) -> str:
        titles = ", ".join(get_task(name).title for name in self.tasks)
        return (
            f"{titles}: {self.folder} does not exist yet: {self.step}. To run the other tasks "
            f"without it: --config skip_tasks=[{','.join(self.skip)}] (config/README.md, "
            "skip_tasks; the suite tables then say which task is missing)"
        )


def needed_tasks(task_name: str, config: dict[str, Any]) -> dict[str, str]:
    """The other configured tasks whose fine-tunes a task's runs need: task -> the key that
    names it (``models_of``, ``encoder``, ``start_from``)."""
    task_cfg = config["tasks"][task_name]
    needed = {
        "models_of": models_of(task_name, config),
        # read before the schema's defaults too (skip_tasks): absent, no other task is named
        "encoder": task_cfg.get("encoder") if isinstance(task_cfg, dict) else None,
        "start_from": task_cfg.get("start_from") if isinstance(task_cfg, dict) else None,
    }
    return {
        other: key
        for key, other in needed.items()
        if other and other != PRETRAINED and other != task_name
    }


def skip_tasks(config: dict[str, Any]) -> list[str]:
    """Remove the config's ``skip_tasks`` from its tasks (in place), with every training set
    only (SQuAD, Mewsli-X's Wikipedia pairs) that only skipped tasks used; return the removed
    tasks. A skipped name that is not configured, or a kept task that needs a skipped one's
    fine-tunes, is a ConfigError naming ``skip_tasks``. Runs before the schema's defaults."""
    asked = list(config.get("skip_tasks") or ())
    tasks = config.get("tasks") or {}
    for name in asked:
        if name not in tasks:
            raise ConfigError(
                "skip_tasks",
                f"'{name}' is not a configured task (configured: {', '.join(sorted(tasks))})",
            )
    users = {name: [n for n in tasks if name in needed_tasks(n, config)] for name in tasks}
    removed = list(dict.fromkeys(asked))
    changed = True
    while changed:
        changed = False
        for name, using in users.items():
            train_only = get_task(name).train_only
            if name not in removed and train_only and using and set(using) <= set(removed):
                removed.append(name)
                changed = True
    for name in removed:
        del tasks[name]
    if not tasks:
        raise ConfigError("skip_tasks", "every configured task is skipped: nothing to run")
    for name in tasks:
        for other, key in needed_tasks(name, config).items():
            if other in removed:
                raise ConfigError(
                    "skip_tasks",
                    f"{get_task(name).title} needs the fine-tunes of skipped '{other}' "
                    f"(tasks.{name}.{key}): skip {name} too, or keep {other}",
                )
    return removed


def awaits_manual_step(task: Any, task_cfg: dict[str, Any]) -> bool:
    """Whether a task's folder does not exist yet and its released files need a step no URL
    can do (Mewsli-X's get-mewsli-x.sh)."""
    folder = task_cfg.get("path")
    return bool(
        task_cfg["source"] == "files" and folder and not Path(folder).is_dir() and task.manual_step
    )


def awaited_steps(config: dict[str, Any]) -> list[AwaitedStep]:
    """The configured tasks whose released files await a step no URL can do, grouped by
    folder and step (Mewsli-X and its Wikipedia pairs: one folder, one step)."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for name, task_cfg in config["tasks"].items():
        task = get_task(name)
        if awaits_manual_step(task, task_cfg):
            grouped.setdefault((task_cfg["path"], task.manual_step), []).append(name)
    steps = []
    for (folder, step), names in grouped.items():
        skip = list(config.get("skip_tasks") or ())
        for name in names:
            using = [name] if not get_task(name).train_only else []
            using += [
                n
                for n in config["tasks"]
                if name in needed_tasks(n, config) and not get_task(n).train_only
            ]
            skip += using
        steps.append(AwaitedStep(tuple(names), folder, step, tuple(dict.fromkeys(skip))))
    return steps


def check_config(config: dict[str, Any]) -> list[AwaitedStep]:
    """Raise one :class:`ConfigError` naming the key of the first problem found; return the
    tasks whose files await a step no URL can do (a dry run notes them, a run stops)."""
    _check_models(config["models"])
    for setting in config["settings"]:
        if setting not in SETTINGS:
            raise ConfigError(
                "settings", f"unknown setting '{setting}' (known: {', '.join(SETTINGS)})"
            )
    if not config["tasks"]:
        raise ConfigError("tasks", "no task to run")
    _check_baseline(config)
    for task_name in config["tasks"]:
        _check_task(task_name, config)
    return awaited_steps(config)


def _check_models(models: list[dict[str, Any]]) -> None:
    names = [model["name"] for model in models]
    for name, count in Counter(names).items():
        if count > 1:
            raise ConfigError("models", f"model name '{name}' is used {count} times")
    for model in models:
        key = f"models.{model['name']}"
        for setting in model.get("settings") or ():
            if setting not in SETTINGS:
                raise ConfigError(
                    f"{key}.settings",
                    f"unknown setting '{setting}' (known: {', '.join(SETTINGS)})",
                )
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


def _check_task(task_name: str, config: dict[str, Any]) -> None:
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
    if awaits_manual_step(task, task_cfg):
        # its files (and what the family checks in them) are not there yet: awaited_steps
        return
    family_of(task).check_task_config(task, task_cfg, key)
    if task_cfg.get("pseudo_test"):
        _check_translations(task, task_cfg, key, f"{key}.pseudo_test", "pseudo-test")
    _check_source(task, config)


def _check_encoder(task: Any, encoder: str, key: str, config: dict[str, Any]) -> None:
    """A retrieval task's ``encoder``: another configured task with a zero-shot fine-tune of
    its own for every seed the retrieval task runs."""
    if not retrieves(task):
        raise ConfigError(key, f"{task.title} fine-tunes: it has no encoder to choose")
    configured = sorted(n for n in config["tasks"] if n != task.name)
    if encoder not in config["tasks"] or encoder == task.name:
        raise ConfigError(
            key,
            f"'{encoder}' is neither '{PRETRAINED}' nor another configured task "
            f"(configured: {', '.join(configured)})",
        )
    other = get_task(encoder)
    if retrieves(other) or models_of(encoder, config):
        raise ConfigError(key, f"{other.title} fine-tunes no model of its own to embed with")
    dual = trains_dual_encoders(other)
    if pools(task) and not dual:
        raise ConfigError(
            key,
            f"{task.title} embeds its queries and its pool with one encoder: the pretrained "
            f"model or a dual encoder's fine-tune ({', '.join(dual_encoder_tasks())}), "
            f"not {other.title}'s",
        )
    layers = config["tasks"][task.name]["layers"]
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
    if retrieves(task) or other.family != task.family or other.labels != task.labels:
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
        elif setting not in available_settings(task.name):
            raise ConfigError(settings_key, _unavailable(task, setting))
    owner = models_of(task.name, config) or task.name
    method = (config["tasks"].get(owner, {}).get("hyperparameters") or {}).get("method")
    both = {"zero-shot", "zero-shot-lora"} <= set(task_settings(task.name, config))
    if method == "lora" and both:
        raise ConfigError(
            settings_key,
            f"zero-shot and zero-shot-lora are the same run when tasks.{owner}.hyperparameters."
            "method is lora: keep one, or set the method to full",
        )


def _unavailable(task: Any, setting: str) -> str:
    """Why a task cannot run a setting, and what it can run."""
    can = f"(it can run: {', '.join(available_settings(task.name))})"
    if setting == "in-context":
        why = f"{task.title} has no prompt for the in-context setting (its spec names none)"
    elif setting == "zero-shot-lora":
        why = f"{task.title} has no zero-shot fine-tune to make with LoRA"
    else:
        why = f"{task.title} has no data for setting '{setting}'"
    return f"{why} {can}; give the task its own 'settings' list"


def _check_source(task: Any, config: dict[str, Any]) -> None:
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
        return
    for language, split in needed_splits(task.name, config):
        if split in TRANSLATED_SPLITS:
            if task_cfg["translations"]["source"] == "files":
                resolve_files(task, task_cfg, language, split)
        elif task_cfg["source"] in ("files", "demo"):
            resolve_files(task, task_cfg, language, split)
        elif task_cfg["source"] == "hub":
            hub_location(task, language, split)


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
    if translations["source"] == "model":
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


def check_configuration(config: dict[str, Any], schema_path: str | Path) -> list[AwaitedStep]:
    """Every check of a run's config before any job, in the order a run makes them (the
    Snakefile's common.smk, after the command line's values are typed and the published
    numbers read): each task known, the schema, the skipped tasks removed, fine-tunes shared
    by name, the schema's defaults filled in, then the tasks' keys, languages, files and
    settings. The config's ``model`` (one model, on the command line) replaces its ``models``
    first. The first fault raises one ConfigError naming its key; the tasks whose files await a
    manual step are returned."""
    for name in config.get("tasks") or {}:
        get_task(name)
    expand_model_shorthand(config)
    check_schema(config, schema_path)
    skip_tasks(config)
    check_shared_finetunes(config)
    fill_schema_defaults(config, schema_path)
    return check_config(config)
