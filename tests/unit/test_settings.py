"""The transfer-settings table against each setting's definition, written out by hand."""

from __future__ import annotations

import pytest

from mte.config.queries import PER_LANGUAGE_SETTINGS, TRANSLATION_SETTINGS, evaluation_split
from mte.config.queries import training_splits as splits_of
from mte.tasks.settings import TRANSFER_SETTINGS, model_setting, wildcard_pattern
from tests.unit.test_config import _with

LANGUAGES = ["en", "de", "sw"]


def _config(**hyperparameters) -> dict:
    task = {"source": "hub", "languages": LANGUAGES}
    if hyperparameters:
        task["hyperparameters"] = hyperparameters
    return _with(tasks={"xnli": task})


# what each setting trains and selects on, for the evaluation language "de"
EXPECTED = {
    "zero-shot": {"train": [("en", "train")], "dev": [("en", "dev")]},
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
    assert wildcard_pattern(per_language=False) == "zero-shot|translate-train-all|multilingual"


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
