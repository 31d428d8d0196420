"""What a config asks of each task: its languages, settings, seeds, models, the splits it trains
and evaluates on, and a retrieval task's encoder. Plain reads of a checked config."""

from __future__ import annotations

from typing import Any

from mte.registry import TASKS, family_of, get_suite, get_task, retrieves, trains_dual_encoders
from mte.tasks.settings import TRANSFER_SETTINGS

# the transfer settings' names, those with one model per language, and the kind of machine
# translation each translation setting reads (the table: mte.tasks.settings)
SETTINGS = tuple(TRANSFER_SETTINGS)


PER_LANGUAGE_SETTINGS = tuple(name for name, s in TRANSFER_SETTINGS.items() if s.per_language)


TRANSLATION_SETTINGS = {
    name: s.translation for name, s in TRANSFER_SETTINGS.items() if s.translation
}


# ``languages: all``: every language of the task's release
ALL_LANGUAGES = "all"


# a retrieval task's encoder (tasks.<task>.encoder) when it is no fine-tune of another task
PRETRAINED = "pretrained"


# what ``missing_files: skip`` writes into a task's entry (mte.config.local_files): language ->
# why the folder's files leave it out; the plan's TaskPlan.left_out, the task's table and the
# suite summary read it
LEFT_OUT = "left_out"


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


def available_settings(task_name: str) -> tuple[str, ...]:
    """The settings a task can run: those its data allows (the spec's ``settings``), zero-shot
    with LoRA wherever zero-shot fine-tunes, and in-context transfer where its spec has a
    prompt."""
    task = get_task(task_name)
    names = list(task.settings)
    if "zero-shot" in names and not retrieves(task):
        names.append("zero-shot-lora")
    if task.prompt is not None:
        names.append("in-context")
    return tuple(names)


def model_settings(model: dict[str, Any], task_name: str, config: dict[str, Any]) -> list[str]:
    """The settings one configured model runs for a task: the task's, less those the model's
    own ``settings`` list leaves out (an encoder is not prompted: in-context needs a decoder)."""
    chosen = model.get("settings")
    return [s for s in task_settings(task_name, config) if not chosen or s in chosen]


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
    chosen[""] = []
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
    if not retrieves(task) and not models_of(task_name, config):
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


def dual_encoder_tasks() -> list[str]:
    return sorted(name for name, task in TASKS.items() if trains_dual_encoders(task))


def retrieval_encoder(task_name: str, config: dict[str, Any]) -> str | None:
    """The task whose zero-shot fine-tunes embed a retrieval task's sentences (``encoder``), or
    None for the pretrained model."""
    if not retrieves(get_task(task_name)):
        return None
    encoder = config["tasks"][task_name]["encoder"]
    return None if encoder == PRETRAINED else encoder


def retrieval_lower_case(task_name: str, config: dict[str, Any]) -> bool:
    """Whether a retrieval task's texts are read lower-cased: as its encoder's fine-tune read
    its own (the dual encoder's ``do_lower_case``, XTREME-R's --do_lower_case for XLM-R, which
    its run_eval_lareqa.sh and run_eval_mewslix.sh pass again); never for the pretrained
    model."""
    encoder = retrieval_encoder(task_name, config)
    return bool(encoder and config["tasks"][encoder].get("do_lower_case"))
