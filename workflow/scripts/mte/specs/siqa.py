"""Social IQa (Sap et al. 2019): commonsense reasoning about social situations, a context, a
question and three answers. English only; XTREME-R fine-tunes on it before English COPA for
XCOPA (scripts/train_xcopa.sh). Its test labels are not public: it is scored on dev."""

from typing import Any

from mte.families.multiple_choice import ChoiceOptions
from mte.families.multiple_choice.records import lettered_choice, numbered_choice, require
from mte.hub.release import Release
from mte.specs._hub import SIQA
from mte.specs._release import released
from mte.tasks.spec import Task

ANSWER_FIELDS = ("answerA", "answerB", "answerC")


def siqa_example(record: dict[str, Any]) -> dict[str, Any]:
    """A Social IQa record as ``context, question, choices, label``: the release's JSON lines
    (``socialIQa_v1.4_{trn,dev,tst}.jsonl``: context, question, answerA..C, ``correct`` A/B/C,
    as XTREME-R's third_party/siqa_data/siqa_data.py reads them) or a row of the hub's
    allenai/social_i_qa (the same texts, ``label`` "1".."3")."""
    require(record, ("context", "question", *ANSWER_FIELDS))
    if "correct" in record:
        label = lettered_choice(record["correct"], "correct", len(ANSWER_FIELDS))
    elif "label" in record:
        label = numbered_choice(record["label"], "label", len(ANSWER_FIELDS))
    else:
        raise ValueError("lacks correct (the release's answer letter) or label (the hub's number)")
    return {
        "context": record["context"],
        "question": record["question"],
        "choices": [record[name] for name in ANSWER_FIELDS],
        "label": label,
    }


TASKS = (
    Task(
        name="siqa",
        title="Social IQa",
        family="multiple_choice",
        # XTREME-R's third_party/run_xcopa.py: f"{context} {question}", then each answer
        options=ChoiceOptions(
            first="{context} {question}", second="{choice}", text_fields=("context", "question")
        ),
        row_adapter=siqa_example,
        languages=("en",),
        labels=(),
        primary_metric="accuracy",
        hub_id="allenai/social_i_qa",
        hub_repos=(SIQA,),
        hub_splits={"train": "train", "dev": "validation"},
        hub_configs={"en": ("allenai/social_i_qa", None)},
        # the test split's labels are not public (the hub has none): dev is the evaluation set
        default_eval_split="dev",
        files={
            split: (
                f"socialIQa_v1.4_{name}.jsonl",
                f"siqa/socialIQa_v1.4_{name}.jsonl",
                f"*/socialIQa_v1.4_{name}.jsonl",
            )
            for split, name in (("train", "trn"), ("dev", "dev"), ("test", "tst"))
        },
        # XTREME-R's download_data.sh (download_siqa)
        release=Release(
            files=(
                released(
                    "siqa",
                    "https://maartensap.github.io/social-iqa/data/socialIQa_v1.4.tgz",
                    "socialIQa_v1.4.tgz",
                ),
            ),
            checksums="recorded at the first download (no genuine copy could be reached to pin it)",
        ),
        reference="Sap et al. 2019 (Social IQa); XTREME-R (Ruder et al. 2021), before XCOPA",
    ),
)
