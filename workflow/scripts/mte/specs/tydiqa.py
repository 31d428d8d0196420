"""TyDiQA-GoldP (Clark et al. 2020): the gold-passage task of TyDi QA, 9 languages."""

from mte.families.qa import QAOptions
from mte.specs._hub import XTREME
from mte.specs._templates import HUB_SPLITS, qa_task

# TyDiQA-GoldP's languages, with the names that begin the ids of its released examples
TYDIQA_ID_NAMES = {
    "en": "english", "ar": "arabic", "bn": "bengali", "fi": "finnish", "id": "indonesian",
    "ko": "korean", "ru": "russian", "sw": "swahili", "te": "telugu",
}  # fmt: skip
TYDIQA_LANGUAGES = tuple(TYDIQA_ID_NAMES)

TASKS = (
    qa_task(
        QAOptions(
            normalization="squad",
            # google/xtreme's "tydiqa" config holds all languages; ids name the language
            hub_id_prefixes={lang: f"{name}-" for lang, name in TYDIQA_ID_NAMES.items()},
        ),
        name="tydiqa",
        title="TyDiQA-GoldP",
        languages=TYDIQA_LANGUAGES,
        hub_id="google/xtreme",
        hub_repos=(XTREME,),
        # GoldP has train and dev sets; XTREME evaluates on dev (its "test")
        # the hub release has no test split: its validation split is the evaluation set
        hub_splits={**HUB_SPLITS, "test": "validation"},
        hub_configs={lang: ("google/xtreme", "tydiqa") for lang in TYDIQA_LANGUAGES},
        # XTREME fine-tunes on the English TyDiQA-GoldP training set, not on SQuAD
        # (scripts/train.sh: train_qa.sh $MODEL tydiqa; train_qa.sh: tydiqa.en.train.json)
        reference="Clark et al. 2020 (TyDi QA); XTREME Table 2",
        no_release="the GoldP training file holds every language in one file, which XTREME's "
        "utils_preprocess.py splits by id; read the hub's google/xtreme tydiqa, split the same "
        "way, or XTREME's processed files with source: files",
        # XTREME's download layout (tydiqa-goldp-v1.1-train/, tydiqa-goldp-v1.1-dev/), else
        # the files in the folder itself; GoldP's dev set is the benchmark's test set
        files={
            "train": (
                "tydiqa-goldp-v1.1-train/tydiqa.{lang}.train.json",
                "tydiqa.{lang}.train.json",
            ),
            **{
                split: (
                    "tydiqa-goldp-v1.1-dev/tydiqa.goldp.{lang}.dev.json",
                    "tydiqa-goldp-v1.1-dev/tydiqa.{lang}.dev.json",
                    "tydiqa.goldp.{lang}.dev.json",
                    "tydiqa.{lang}.dev.json",
                )
                for split in ("dev", "test")
            },
        },
    ),
)
