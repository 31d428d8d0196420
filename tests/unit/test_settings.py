"""The transfer-settings table against each setting's definition, written out by hand."""

from __future__ import annotations

import pytest

from mte.config.plan.resolve import (
    PER_LANGUAGE_SETTINGS,
    TRANSLATION_SETTINGS,
    available_settings,
    evaluation_split,
    model_settings,
)
from mte.config.plan.resolve import training_splits as splits_of
from mte.errors import ConfigError
from mte.tasks.settings import TRANSFER_SETTINGS, model_setting, wildcard_pattern
from tests.unit.test_config import _with, check_config

LANGUAGES = ["en", "de", "sw"]


def _config(**hyperparameters) -> dict:
    task = {"source": "hub", "languages": LANGUAGES}
    if hyperparameters:
        task["hyperparameters"] = hyperparameters
    return _with(tasks={"xnli": task})


# what each setting trains and selects on, for the evaluation language "de"
EXPECTED = {
    "zero-shot": {"train": [("en", "train")], "dev": [("en", "dev")]},
    "zero-shot-lora": {"train": [("en", "train")], "dev": [("en", "dev")]},
    # nothing trained: the English training data is where the demonstrations come from
    "in-context": {"train": [("en", "train")], "dev": []},
    "translate-test": {"train": [("en", "train")], "dev": [("en", "dev")]},
    "translate-train": {
        "train": [("en", "train"), ("de", "translate-train")],
        "dev": [("en", "dev")],
    },
    "translate-train-all": {
        "train": [("en", "train"), ("de", "translate-train"), ("sw", "translate-train")],
        "dev": [("en", "dev")],
    },
    "in-language": {"train": [("de", "train")], "dev": [("de", "dev")]},
    "multilingual": {
        "train": [("en", "train"), ("de", "train"), ("sw", "train")],
        "dev": [("en", "dev"), ("de", "dev"), ("sw", "dev")],
    },
}


@pytest.mark.parametrize("setting", sorted(EXPECTED))
def test_each_setting_trains_and_selects_on_what_its_definition_says(setting: str) -> None:
    language = "de" if TRANSFER_SETTINGS[setting].per_language else None
    assert splits_of("xnli", setting, language, _config()) == EXPECTED[setting]


def test_every_setting_is_in_the_table_and_the_derived_lists_follow_it() -> None:
    assert set(EXPECTED) == set(TRANSFER_SETTINGS)
    assert set(PER_LANGUAGE_SETTINGS) == {"translate-train", "in-language"}
    assert TRANSLATION_SETTINGS == {
        "translate-train": "translate-train",
        "translate-train-all": "translate-train",
        "translate-test": "translate-test",
    }
    # the two fine-tune rules: one model per language, or one for all
    assert wildcard_pattern(per_language=True) == "translate-train|in-language"
    assert wildcard_pattern(per_language=False) == (
        "zero-shot|zero-shot-lora|translate-train-all|multilingual"
    )
    # in-context fine-tunes nothing
    assert not TRANSFER_SETTINGS["in-context"].fine_tunes
    assert TRANSFER_SETTINGS["in-context"].prompted


def test_dev_languages_all_applies_to_the_single_english_model_only() -> None:
    config = _config(dev_languages="all")
    every = [("en", "dev"), ("de", "dev"), ("sw", "dev")]
    assert splits_of("xnli", "zero-shot", None, config)["dev"] == every
    assert splits_of("xnli", "translate-test", None, config)["dev"] == every
    # translate-train models select on English dev, as XTREME's do
    assert splits_of("xnli", "translate-train", "de", config)["dev"] == [("en", "dev")]


def test_whose_model_predicts_and_what_it_reads() -> None:
    assert model_setting("translate-test", "de", "en") == "zero-shot"
    assert model_setting("translate-train", "en", "en") == "zero-shot"
    assert model_setting("translate-train", "de", "en") == "translate-train"
    assert model_setting("in-language", "en", "en") == "in-language"
    config = _config()
    assert evaluation_split("xnli", "translate-test", "de", config) == "translate-test"
    assert evaluation_split("xnli", "translate-test", "en", config) == "test"
    assert evaluation_split("xnli", "translate-train", "de", config) == "test"


def test_which_tasks_can_run_lora_and_in_context() -> None:
    # XNLI: its data's settings, LoRA beside zero-shot, and a prompt
    # (the translation settings are checked against the task's translations instead)
    assert available_settings("xnli") == (
        "zero-shot", "in-language", "multilingual", "zero-shot-lora", "in-context",
    )  # fmt: skip
    # MRPC: no prompt; Tatoeba: nothing fine-tuned, so no LoRA, and no prompt
    assert available_settings("mrpc") == ("zero-shot", "zero-shot-lora")
    assert available_settings("tatoeba") == ("zero-shot",)
    assert "in-context" in available_settings("xquad")
    assert "in-context" in available_settings("belebele")


def test_a_models_settings_narrow_the_tasks() -> None:
    config = _with(
        tasks={"xnli": {"source": "demo", "settings": ["zero-shot", "in-context"]}},
        models=[
            {"name": "xlmr", "source": "tiny", "settings": ["zero-shot"]},
            {"name": "qwen", "source": "tiny"},
        ],
    )
    encoder, decoder = config["models"]
    assert model_settings(encoder, "xnli", config) == ["zero-shot"]
    assert model_settings(decoder, "xnli", config) == ["zero-shot", "in-context"]


def _check(config: dict) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        check_config(config)
    return caught.value


def test_settings_a_task_or_model_cannot_run_are_config_errors() -> None:
    error = _check(_with(tasks={"mrpc": {"source": "hub", "settings": ["in-context"]}}))
    assert error.key == "tasks.mrpc.settings"
    assert "MRPC has no prompt for the in-context setting" in str(error)
    error = _check(_with(tasks={"tatoeba": {"source": "hub", "settings": ["zero-shot-lora"]}}))
    assert "has no zero-shot fine-tune to make with LoRA" in str(error)
    models = [{"name": "qwen", "source": "tiny", "settings": ["prompted"]}]
    error = _check(_with(models=models))
    assert error.key == "models.qwen.settings"
    assert "unknown setting 'prompted'" in str(error)


def test_zero_shot_and_zero_shot_lora_are_one_run_when_the_method_is_lora() -> None:
    task = {
        "source": "demo",
        "settings": ["zero-shot", "zero-shot-lora"],
        "hyperparameters": {"method": "lora"},
    }
    error = _check(_with(tasks={"xnli": task}))
    assert error.key == "tasks.xnli.settings"
    assert "the same run" in str(error)
    task["hyperparameters"]["method"] = "full"
    check_config(_with(tasks={"xnli": task}))
