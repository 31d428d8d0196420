"""Tatoeba (Artetxe & Schwenk 2019): sentence retrieval against English; XTREME's 36
languages by default, XTREME-R's 41, or the release's 112."""

from mte.hub.release import Release
from mte.specs._hub import XTREME
from mte.specs._release import released
from mte.tasks.spec import Task

# ISO 639-1 code -> the three-letter code of Tatoeba's files
TATOEBA_CODES = {
    "af": "afr", "ar": "ara", "bg": "bul", "bn": "ben", "de": "deu", "el": "ell", "es": "spa",
    "et": "est", "eu": "eus", "fa": "pes", "fi": "fin", "fr": "fra", "he": "heb", "hi": "hin",
    "hu": "hun", "id": "ind", "it": "ita", "ja": "jpn", "jv": "jav", "ka": "kat", "kk": "kaz",
    "ko": "kor", "ml": "mal", "mr": "mar", "nl": "nld", "pt": "por", "ru": "rus", "sw": "swh",
    "ta": "tam", "te": "tel", "th": "tha", "tl": "tgl", "tr": "tur", "ur": "urd", "vi": "vie",
    "zh": "cmn",
}  # fmt: skip
# XTREME-R's five more (its evaluate.py XTREME_R_TASK2LANGS)
XTREME_R_CODES = {"az": "aze", "lt": "lit", "pl": "pol", "uk": "ukr", "ro": "ron"}
# the release's other 71 (LASER's data/tatoeba/v1, 112 languages in all; ``languages: all``):
# the ISO 639-1 code where ISO 639-3's tables give the file's code one, else the file's code
# (lvs and zsm are the individual languages Standard Latvian and Standard Malay, kzj a retired
# code and ber a collective one, kept as the files name them)
OTHER_CODES = {
    "am": "amh", "ang": "ang", "arq": "arq", "arz": "arz", "ast": "ast", "awa": "awa",
    "be": "bel", "ber": "ber", "br": "bre", "bs": "bos", "ca": "cat", "cbk": "cbk", "ceb": "ceb",
    "ch": "cha", "cs": "ces", "csb": "csb", "cy": "cym", "da": "dan", "dsb": "dsb", "dtp": "dtp",
    "eo": "epo", "fo": "fao", "fy": "fry", "ga": "gle", "gd": "gla", "gl": "glg", "gsw": "gsw",
    "hr": "hrv", "hsb": "hsb", "hy": "hye", "ia": "ina", "ie": "ile", "io": "ido", "is": "isl",
    "kab": "kab", "km": "khm", "ku": "kur", "kw": "cor", "kzj": "kzj", "la": "lat", "lfn": "lfn",
    "lvs": "lvs", "max": "max", "mhr": "mhr", "mk": "mkd", "mn": "mon", "nb": "nob", "nds": "nds",
    "nn": "nno", "nov": "nov", "oc": "oci", "orv": "orv", "pam": "pam", "pms": "pms", "sk": "slk",
    "sl": "slv", "sq": "sqi", "sr": "srp", "sv": "swe", "swg": "swg", "tk": "tuk", "tt": "tat",
    "tzl": "tzl", "ug": "uig", "uz": "uzb", "war": "war", "wuu": "wuu", "xh": "xho", "yi": "yid",
    "yue": "yue", "zsm": "zsm",
}  # fmt: skip
FILE_CODES = {**TATOEBA_CODES, **XTREME_R_CODES, **OTHER_CODES}

TASKS = (
    Task(
        name="tatoeba",
        title="Tatoeba",
        family="retrieval",
        languages=tuple(TATOEBA_CODES),
        more_languages=(*XTREME_R_CODES, *OTHER_CODES),
        labels=(),
        primary_metric="accuracy",
        metrics=("accuracy", "error_rate", "accuracy_en_to_xx"),
        hub_id="google/xtreme",
        hub_repos=(XTREME,),
        # XTREME releases Tatoeba as one evaluation set, the hub's validation split
        hub_splits={"test": "validation"},
        hub_configs={
            lang: ("google/xtreme", f"tatoeba.{code}") for lang, code in TATOEBA_CODES.items()
        },
        # google/xtreme has tatoeba.* configs for XTREME's 36 only: the others are read from
        # the release's files (source: files)
        file_codes=FILE_CODES,
        settings=("zero-shot",),
        reference="Artetxe & Schwenk 2019 (Tatoeba); XTREME Table 2",
        # the foreign side; its .eng sibling is read with it
        files={"test": ("tatoeba.{code}-eng.{code}",)},
        release=Release(
            files=tuple(
                released(
                    "tatoeba",
                    "https://raw.githubusercontent.com/facebookresearch/LASER/main/data/tatoeba/"
                    f"v1/tatoeba.{code}-eng.{side}",
                    f"tatoeba.{code}-eng.{side}",
                    (lang,),
                )
                for lang, code in FILE_CODES.items()
                for side in (code, "eng")
            ),
            checksums="pinned: the genuine files (github.com/facebookresearch/LASER at 74bc6ae, "
            "data/tatoeba/v1)",
            note="XTREME's download_data.sh fetches LASER's main.zip (a whole repository "
            "archive, not byte-stable) and renames the files (utils_preprocess.py --task "
            "tatoeba); the same files are fetched one by one and read under their own names",
        ),
    ),
)
