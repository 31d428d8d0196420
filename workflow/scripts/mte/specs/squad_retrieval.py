"""SQuAD v1.1 as question-answer pairs (Rajpurkar et al. 2016): the training set of the dual
encoder that XTREME-R fine-tunes for LAReQA (scripts/train_lareqa.sh: train-v1.1.json, its
dev-v1.1.json as the dev set). A training set only: LAReQA embeds with its fine-tunes
(``encoder: squad_retrieval``)."""

from mte.families.retrieval import DualEncoderOptions
from mte.specs._hub import SQUAD
from mte.specs.squad import SQUAD_RELEASE
from mte.tasks.spec import Task

TASKS = (
    Task(
        name="squad_retrieval",
        title="SQuAD v1.1 (answer retrieval pairs)",
        family="dual_encoder",
        options=DualEncoderOptions(pairs="squad"),
        languages=("en",),
        labels=(),
        # the dev score: each dev question's own answer nearest among every dev answer
        primary_metric="accuracy",
        metrics=("accuracy",),
        hub_id="rajpurkar/squad",
        hub_repos=(SQUAD,),
        hub_splits={"train": "train", "dev": "validation"},
        hub_configs={"en": ("rajpurkar/squad", "plain_text")},
        train_only=True,
        reference="Rajpurkar et al. 2016 (SQuAD v1.1); XTREME-R's LAReQA fine-tune",
        files={"train": ("train-v1.1.json",), "dev": ("dev-v1.1.json",)},
        release=SQUAD_RELEASE,
    ),
)
