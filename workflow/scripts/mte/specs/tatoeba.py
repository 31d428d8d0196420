"""Tatoeba (Artetxe & Schwenk 2019): sentence retrieval against English, XTREME's 36
languages."""

from mte.taskspec import Task

# ISO 639-1 code -> the three-letter code of Tatoeba's files
TATOEBA_CODES = {
    "af": "afr", "ar": "ara", "bg": "bul", "bn": "ben", "de": "deu", "el": "ell", "es": "spa",
    "et": "est", "eu": "eus", "fa": "pes", "fi": "fin", "fr": "fra", "he": "heb", "hi": "hin",
    "hu": "hun", "id": "ind", "it": "ita", "ja": "jpn", "jv": "jav", "ka": "kat", "kk": "kaz",
    "ko": "kor", "ml": "mal", "mr": "mar", "nl": "nld", "pt": "por", "ru": "rus", "sw": "swh",
    "ta": "tam", "te": "tel", "th": "tha", "tl": "tgl", "tr": "tur", "ur": "urd", "vi": "vie",
    "zh": "cmn",
}  # fmt: skip

TASKS = (
    Task(
        name="tatoeba",
        title="Tatoeba",
        family="retrieval",
        languages=tuple(TATOEBA_CODES),
        labels=(),
        primary_metric="accuracy",
        metrics=("accuracy", "error_rate", "accuracy_en_to_xx"),
        hub_id="google/xtreme",
        # XTREME releases Tatoeba as one evaluation set, the hub's validation split
        hub_splits={"test": "validation"},
        hub_configs={
            lang: ("google/xtreme", f"tatoeba.{code}") for lang, code in TATOEBA_CODES.items()
        },
        file_codes=TATOEBA_CODES,
        settings=("zero-shot",),
        reference="Artetxe & Schwenk 2019 (Tatoeba); XTREME Table 2",
        # the foreign side; its .eng sibling is read with it
        files={"test": ("tatoeba.{code}-eng.{code}",)},
    ),
)
