"""XCOPA (Ponti et al. 2020): COPA's causal commonsense reasoning translated into 11 languages;
zero-shot from English COPA (Roemmele et al. 2011), as XTREME-R's scripts/train_xcopa.sh
fine-tunes (there after SIQa; here on COPA alone), and translate-test from the release's
data-gmt/ (the same items machine-translated into English)."""

from mte.specs._templates import HUB_SPLITS
from mte.tasks import Task

XCOPA_LANGUAGES = ("et", "ht", "id", "it", "qu", "sw", "ta", "th", "tr", "vi", "zh")

TASKS = (
    Task(
        name="xcopa",
        title="XCOPA",
        family="multiple_choice",
        languages=XCOPA_LANGUAGES,
        labels=(),
        primary_metric="accuracy",
        # English COPA trains: SuperGLUE's COPA train.jsonl / val.jsonl in the same layout,
        # placed as data/en/{train,val}.en.jsonl or given with files: {train: ..., dev: ...}
        files={
            "train": ("data/{lang}/train.{lang}.jsonl", "{lang}/train.{lang}.jsonl"),
            "dev": ("data/{lang}/val.{lang}.jsonl", "{lang}/val.{lang}.jsonl"),
            "test": ("data/{lang}/test.{lang}.jsonl", "{lang}/test.{lang}.jsonl"),
        },
        hub_id="cambridgeltl/xcopa",
        hub_splits=HUB_SPLITS,
        hub_configs={
            "en": ("aps/super_glue", "copa"),
            **{lang: ("cambridgeltl/xcopa", lang) for lang in XCOPA_LANGUAGES},
        },
        # every language translates the same 100 validation and 500 test items (idx)
        parallel_test_sets=True,
        settings=("zero-shot", "translate-test"),
        reference="Ponti et al. 2020 (XCOPA); XTREME-R (Ruder et al. 2021)",
    ),
)
