"""The cross-lingual transfer settings, one record each: what a setting trains and selects on,
what it predicts, and whose model it reuses. The config checks, the training splits of a
fine-tune, the evaluated split and the rules' wildcard patterns all read this table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TransferSetting:
    name: str
    description: str
    # one fine-tune per evaluation language (else one model for every language)
    per_language: bool
    # training data: "english" (the task's training language), "own" (the evaluation
    # language's), "all" (every evaluated language's)
    trains_on: str
    # machine translations of the English training data added to it: "" none, "own" into the
    # evaluation language, "all" into every evaluated language
    translated_training: str = ""
    # the dev data that selects the epoch: "english", "own", "all", "dev_languages" (the
    # task's option: English, or every language as the XLM-R paper's single models select),
    # or "" none (in-context: nothing is trained)
    selects_on: str = "dev_languages"
    # predicts each non-English test set machine-translated into English
    translated_test: bool = False
    # the setting whose fine-tune it uses instead of its own ("" its own), and the one its
    # training-language model is (translate-train's English model trains on English only: it is
    # the zero-shot one)
    reuses: str = ""
    training_language_reuses: str = ""
    # how the model learns the task: "" the task's hyper-parameters say (method: full or lora),
    # "lora" a LoRA fine-tune whatever they say, "prompted" not at all (in-context transfer:
    # English demonstrations drawn from the training data, then the test item)
    method: str = ""

    @property
    def fine_tunes(self) -> bool:
        return not self.reuses and not self.prompted

    @property
    def prompted(self) -> bool:
        return self.method == "prompted"

    @property
    def translation(self) -> str:
        """The kind of machine translation it reads ("" none): translate-train or -test."""
        if self.translated_training:
            return "translate-train"
        return "translate-test" if self.translated_test else ""


TRANSFER_SETTINGS = {
    setting.name: setting
    for setting in (
        TransferSetting(
            "zero-shot", "train on English, test every language", per_language=False,
            trains_on="english",
        ),
        TransferSetting(
            "zero-shot-lora", "zero-shot with a LoRA fine-tune (rank, alpha, dropout and target "
            "modules: the task's hyper-parameter 'lora')", per_language=False,
            trains_on="english", method="lora",
        ),
        TransferSetting(
            "in-context",
            "nothing trained: k English training examples as demonstrations, then the test item "
            "(a decoder's log-likelihood of each answer, or its greedy answer)",
            per_language=False, trains_on="english", selects_on="", method="prompted",
        ),
        TransferSetting(
            "translate-train",
            "per language, English training data plus its machine translation into the language",
            per_language=True, trains_on="english", translated_training="own",
            # on the English dev set, as XTREME's translate-train models select
            selects_on="english", training_language_reuses="zero-shot",
        ),
        TransferSetting(
            "translate-train-all", "one model on English and every translation",
            per_language=False, trains_on="english", translated_training="all",
            selects_on="english",
        ),
        TransferSetting(
            "translate-test",
            "each test set machine-translated into English, predicted by the zero-shot model",
            per_language=False, trains_on="english", translated_test=True, reuses="zero-shot",
        ),
        TransferSetting(
            "in-language", "one model per language, trained and tested on it",
            per_language=True, trains_on="own", selects_on="own",
        ),
        TransferSetting(
            "multilingual", "one model on every language's training data", per_language=False,
            trains_on="all", selects_on="all",
        ),
    )
}  # fmt: skip


def wildcard_pattern(per_language: bool) -> str:
    """The ``setting`` wildcard of the fine-tune rule for one model per language or not."""
    return "|".join(
        name
        for name, setting in TRANSFER_SETTINGS.items()
        if setting.fine_tunes and setting.per_language == per_language
    )


def model_setting(name: str, language: str, training_language: str) -> str:
    """The setting whose fine-tuned model predicts ``language`` in setting ``name``."""
    setting = TRANSFER_SETTINGS[name]
    if setting.reuses:
        return setting.reuses
    if language == training_language and setting.training_language_reuses:
        return setting.training_language_reuses
    return name
