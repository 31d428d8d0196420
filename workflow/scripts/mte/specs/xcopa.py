"""XCOPA (Ponti et al. 2020): COPA's causal commonsense reasoning translated into 11 languages;
zero-shot from English COPA (Roemmele et al. 2011), as XTREME-R's scripts/train_xcopa.sh
fine-tunes (there after SIQa; here on COPA alone), and translate-test from the release's
data-gmt/ (the same items machine-translated into English)."""

from typing import Any

from mte.families.multiple_choice import ChoiceOptions
from mte.families.multiple_choice.records import integer, require
from mte.hub.release import Release
from mte.specs._hub import SUPER_GLUE, XCOPA
from mte.specs._release import released
from mte.specs._templates import HUB_SPLITS
from mte.tasks.prompts import Prompt
from mte.tasks.spec import Task

XCOPA_LANGUAGES = ("et", "ht", "id", "it", "qu", "sw", "ta", "th", "tr", "vi", "zh")
COPA_FIELDS = ("premise", "choice1", "choice2", "question", "label")


def copa_example(record: dict[str, Any]) -> dict[str, Any]:
    """A COPA/XCOPA record (premise, choice1, choice2, question: cause or effect, label 0 or
    1, idx) as ``id, premise, question, choices, label``; the id is ``idx``, which the
    translated (data-gmt) files share with the originals."""
    require(record, COPA_FIELDS)
    if record["question"] not in ("cause", "effect"):
        raise ValueError(f"question {record['question']!r} is not cause or effect")
    example = {
        "premise": record["premise"],
        "question": record["question"],
        "choices": [record["choice1"], record["choice2"]],
        "label": integer(record, "label"),
    }
    return {"id": str(record["idx"]), **example} if "idx" in record else example


# the premise and its question, then each choice: as XTREME-R's third_party/run_xcopa.py joins
# them (f"{context} What was the {question}?" and the choice)
COPA_INPUT = ChoiceOptions(
    first="{premise} What was the {question}?", second="{choice}", text_fields=("premise",)
)


def _copa_text(example: dict[str, Any]) -> str:
    """The premise, its closing stop dropped, and the word that asks for a cause or an
    effect."""
    premise = example["premise"].strip().rstrip(".!?\u3002\u0964")
    return premise + (" because" if example["question"] == "cause" else ", so")


def _copa_choice(choice: str) -> str:
    """A choice as the premise's continuation: its first letter in lower case."""
    return choice[:1].lower() + choice[1:]


# in-context transfer (docs/decoders.md): the premise continued by each choice. Our wording of
# the COPA prompt of GPT-3 (Brown et al. 2020, section 3.6: the choice as the premise's
# continuation) and of lm-evaluation-harness's copa and xcopa tasks ("because" /
# "therefore"); English words for every language, as the demonstrations are English.
COPA_PROMPT = Prompt(
    text=_copa_text,
    choices=lambda e: [_copa_choice(choice) for choice in e["choices"]],
    answer=lambda e: e["label"],
    source="this project's wording, after Brown et al. 2020 (GPT-3) section 3.6 and "
    "lm-evaluation-harness's copa and xcopa tasks",
)

TASKS = (
    Task(
        name="xcopa",
        title="XCOPA",
        family="multiple_choice",
        options=COPA_INPUT,
        row_adapter=copa_example,
        languages=XCOPA_LANGUAGES,
        labels=(),
        primary_metric="accuracy",
        # English COPA trains: SuperGLUE's COPA train.jsonl / val.jsonl in the same layout,
        # placed as data/en/{train,val}.en.jsonl or given with files: {train: ..., dev: ...}
        # (SuperGLUE's COPA.zip holds them as COPA/{train,val,test}.jsonl)
        files={
            "train": (
                "data/{lang}/train.{lang}.jsonl",
                "{lang}/train.{lang}.jsonl",
                "COPA/train.jsonl",
            ),
            "dev": ("data/{lang}/val.{lang}.jsonl", "{lang}/val.{lang}.jsonl", "COPA/val.jsonl"),
            "test": ("data/{lang}/test.{lang}.jsonl", "{lang}/test.{lang}.jsonl"),
        },
        # XTREME-R's download_data.sh (download_xcopa): SuperGLUE's COPA.zip for English, and
        # each language's val and test files from the repository's master
        release=Release(
            files=(
                released(
                    "xcopa",
                    "https://dl.fbaipublicfiles.com/glue/superglue/data/v2/COPA.zip",
                    "COPA.zip",
                    ("en",),
                ),
                *(
                    released(
                        "xcopa",
                        "https://raw.githubusercontent.com/cambridgeltl/xcopa/master/data/"
                        f"{lang}/{split}.{lang}.jsonl",
                        f"data/{lang}/{split}.{lang}.jsonl",
                        (lang,),
                    )
                    for lang in XCOPA_LANGUAGES
                    for split in ("val", "test")
                ),
            ),
            checksums="pinned for XCOPA's files (github.com/cambridgeltl/xcopa at e2e9d7f); "
            "COPA.zip's recorded at its first download",
            note="download_data.sh renames the files (utils_preprocess.py --task xcopa); the "
            "release's own names are read here",
        ),
        hub_id="cambridgeltl/xcopa",
        hub_repos=(
            SUPER_GLUE,
            XCOPA,
        ),
        hub_splits=HUB_SPLITS,
        hub_configs={
            "en": ("aps/super_glue", "copa"),
            **{lang: ("cambridgeltl/xcopa", lang) for lang in XCOPA_LANGUAGES},
        },
        # every language translates the same 100 validation and 500 test items (idx)
        parallel_test_sets=True,
        settings=("zero-shot", "translate-test"),
        reference="Ponti et al. 2020 (XCOPA); XTREME-R (Ruder et al. 2021)",
        prompt=COPA_PROMPT,
    ),
)
