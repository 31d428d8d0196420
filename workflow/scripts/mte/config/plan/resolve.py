"""What a config asks of each task: its languages, settings, seeds, models, the splits it trains
and evaluates on, and a retrieval task's encoder. Plain reads of a checked config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mte.registry import (
    TASKS,
    family_of,
    get_suite,
    get_task,
    retrieves,
    trains_dual_encoders,
)
from mte.tasks.settings import TRANSFER_SETTINGS
from mte.tasks.spec import Task

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


@dataclass(frozen=True)
class TaskConfig:
    """One task of a checked config: its spec, looked up in the registry once, and the config
    that configures it. Every read below goes through it; the plan (mte.config.plan.run)
    builds one per task and hands it on, so that a task's spec is resolved once, not once per
    question asked of it."""

    spec: Task
    config: dict[str, Any]

    @classmethod
    def of(cls, task_name: str, config: dict[str, Any]) -> TaskConfig:
        return cls(get_task(task_name), config)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def entry(self) -> dict[str, Any]:
        return self.config["tasks"][self.name]

    def languages(self) -> list[str]:
        """The evaluation languages: the config's list, every language of the release
        (``all``), a suite's set for the task (``xtreme_r``), else the task's default set."""
        task, chosen = self.spec, self.entry.get("languages")
        if chosen == ALL_LANGUAGES:
            return list(task.all_languages)
        if isinstance(chosen, str):
            return list(get_suite(chosen).task_languages(task))
        if chosen:
            return list(chosen)
        if self.entry["source"] == "demo":
            return list(task.demo_languages)
        return list(task.languages)

    def settings(self) -> list[str]:
        """The transfer settings run: the task's own ``settings`` list, else the global one.
        A training set only (SQuAD) is fine-tuned in the one setting its evaluators share."""
        if self.spec.train_only:
            return ["zero-shot"]
        return list(self.entry.get("settings") or self.config["settings"])

    def seeds(self) -> list[int]:
        """The fine-tuning seeds: the task's own ``seeds`` list, else the global one (the XLM-R
        paper's XNLI figures are means over five seeds; its other tables name no count)."""
        return list(self.entry.get("seeds") or self.config["seeds"])

    def models_of(self) -> str:
        """The task whose fine-tunes this one evaluates instead of fine-tuning: the config's
        ``models_of`` (Belebele: an English multiple-choice task), else the spec's (XQuAD:
        SQuAD's), else none ("")."""
        task_cfg = (self.config.get("tasks") or {}).get(self.name)
        chosen = task_cfg.get("models_of") if isinstance(task_cfg, dict) else None
        return chosen or self.spec.models_of

    def start_from(self) -> str:
        """The task whose fine-tuned model a fine-tune starts from (the config's
        ``start_from``: XCOPA after Social IQa, as XTREME-R's train_xcopa.sh runs it), else
        "": the pretrained encoder."""
        return self.entry.get("start_from") or ""

    def training_splits(
        self, setting: str, language: str | None
    ) -> dict[str, list[tuple[str, str]]]:
        """(language, split) pairs that one fine-tune of ``setting`` trains and selects on;
        ``language`` is the evaluation language of a per-language setting.

        Translate-train models select their epoch on the English dev set, as XTREME's do.
        """
        chosen_setting = TRANSFER_SETTINGS[setting]
        if chosen_setting.reuses:
            return self.training_splits(chosen_setting.reuses, language)
        english = self.spec.train_language
        languages = self.languages()
        hp = self.entry.get("hyperparameters") or {}
        chosen = {"english": [english], "own": [language], "all": languages}
        # the XLM-R paper's single models select on the joint dev set of all languages
        chosen["dev_languages"] = languages if hp.get("dev_languages") == "all" else [english]
        chosen[""] = []
        train = [(lang, "train") for lang in chosen[chosen_setting.trains_on]]
        if chosen_setting.translated_training:
            targets = chosen[chosen_setting.translated_training]
            train += [(lang, "translate-train") for lang in targets if lang != english]
        dev = [(lang, "dev") for lang in chosen[chosen_setting.selects_on]]
        return {"train": train, "dev": dev}

    def evaluation_split(self, setting: str, language: str) -> str:
        """The split a setting predicts for ``language``: translate-test reads the language's
        test set translated into English (English itself: its own test set)."""
        if TRANSFER_SETTINGS[setting].translated_test and language != self.spec.train_language:
            return "translate-test"
        return self.eval_split()

    def translation_source(self, split: str, language: str) -> tuple[str, str, str, str]:
        """What a translation model translates for a translated split of ``language``:
        (source language, split, source language code, target language code)."""
        english, evaluated = self.spec.train_language, self.eval_split()
        if split == "translate-train":
            return english, "train", english, language
        if split == "translate-test":
            return language, evaluated, language, english
        return english, evaluated, english, language

    def eval_split(self) -> str:
        """The split scored: the config's ``eval_split``, else the task's default (GLUE:
        dev)."""
        return self.entry.get("eval_split") or self.spec.default_eval_split

    def needed_splits(self) -> list[tuple[str, str]]:
        """(language, split) pairs the task's runs read: training data, dev, evaluation sets.

        Retrieval (Tatoeba) reads only its evaluation set; mining (BUCC) also the dev set that
        sets its threshold; a task evaluating another task's fine-tunes reads no training
        data."""
        task = self.spec
        if task.train_only:
            splits = self.training_splits("zero-shot", None).values()
            return list(dict.fromkeys(pair for pairs in splits for pair in pairs))
        eval_split = self.eval_split()
        languages = self.languages()
        settings = self.settings()
        pairs = []
        for split in family_of(task).extra_eval_splits:
            pairs += [(language, split) for language in languages]
        if not retrieves(task) and not self.models_of():
            for setting in settings:
                targets = languages if setting in PER_LANGUAGE_SETTINGS else [None]
                for target in targets:
                    for split_pairs in self.training_splits(setting, target).values():
                        pairs += split_pairs
        for setting in settings:
            pairs += [(lang, self.evaluation_split(setting, lang)) for lang in languages]
        pairs += [(language, eval_split) for language in languages]
        if self.entry.get("pseudo_test"):
            pairs += [(lang, "pseudo-test") for lang in languages if lang != task.train_language]
        return list(dict.fromkeys(pairs))

    def retrieval_encoder(self) -> str | None:
        """The task whose zero-shot fine-tunes embed a retrieval task's sentences
        (``encoder``), or None for the pretrained model."""
        if not retrieves(self.spec):
            return None
        encoder = self.entry["encoder"]
        return None if encoder == PRETRAINED else encoder

    def retrieval_lower_case(self) -> bool:
        """Whether a retrieval task's texts are read lower-cased: as its encoder's fine-tune
        read its own (the dual encoder's ``do_lower_case``, XTREME-R's --do_lower_case for
        XLM-R, which its run_eval_lareqa.sh and run_eval_mewslix.sh pass again); never for the
        pretrained model."""
        encoder = self.retrieval_encoder()
        return bool(encoder and self.config["tasks"][encoder].get("do_lower_case"))


# the same reads by task name, for callers holding a name (the config checks, the keys)
def task_languages(task_name: str, config: dict[str, Any]) -> list[str]:
    return TaskConfig.of(task_name, config).languages()


def task_settings(task_name: str, config: dict[str, Any]) -> list[str]:
    return TaskConfig.of(task_name, config).settings()


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


def uses_architecture(model: dict[str, Any], task_name: str, config: dict[str, Any]) -> bool:
    """Whether ``model`` runs a setting of the task that fine-tunes or embeds with it (any but
    the prompted one)."""
    settings = model_settings(model, task_name, config)
    return any(not TRANSFER_SETTINGS[setting].prompted for setting in settings)


def task_seeds(task_name: str, config: dict[str, Any]) -> list[int]:
    return TaskConfig.of(task_name, config).seeds()


def models_of(task_name: str, config: dict[str, Any]) -> str:
    return TaskConfig.of(task_name, config).models_of()


def start_from(task_name: str, config: dict[str, Any]) -> str:
    return TaskConfig.of(task_name, config).start_from()


def training_splits(
    task_name: str, setting: str, language: str | None, config: dict[str, Any]
) -> dict[str, list[tuple[str, str]]]:
    return TaskConfig.of(task_name, config).training_splits(setting, language)


def evaluation_split(task_name: str, setting: str, language: str, config: dict[str, Any]) -> str:
    return TaskConfig.of(task_name, config).evaluation_split(setting, language)


def translation_source(
    task_name: str, split: str, language: str, config: dict[str, Any]
) -> tuple[str, str, str, str]:
    return TaskConfig.of(task_name, config).translation_source(split, language)


def eval_split_of(task_name: str, config: dict[str, Any]) -> str:
    return TaskConfig.of(task_name, config).eval_split()


def needed_splits(task_name: str, config: dict[str, Any]) -> list[tuple[str, str]]:
    return TaskConfig.of(task_name, config).needed_splits()


def dual_encoder_tasks() -> list[str]:
    return sorted(name for name, task in TASKS.items() if trains_dual_encoders(task))


def retrieval_encoder(task_name: str, config: dict[str, Any]) -> str | None:
    return TaskConfig.of(task_name, config).retrieval_encoder()


def retrieval_lower_case(task_name: str, config: dict[str, Any]) -> bool:
    return TaskConfig.of(task_name, config).retrieval_lower_case()
