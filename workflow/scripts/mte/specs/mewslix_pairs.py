"""Mewsli-X's English Wikipedia mention-entity pairs (Botha et al. 2020; XTREME-R's
download_data.sh writes wikipedia_pairs-{train,dev}.jsonl with get-mewsli-x.sh): the training
set of the dual encoder that XTREME-R fine-tunes for Mewsli-X (scripts/train_mewslix.sh,
third_party/run_retrieval_el.py). A training set only: Mewsli-X embeds with its fine-tunes
(``encoder: mewslix_pairs``)."""

from mte.families.retrieval import DualEncoderOptions
from mte.tasks.spec import Task

TASKS = (
    Task(
        name="mewslix_pairs",
        title="Mewsli-X Wikipedia mention-entity pairs",
        family="dual_encoder",
        options=DualEncoderOptions(pairs="mention_entity"),
        languages=("en",),
        labels=(),
        # the dev score: each dev mention's own entity nearest among every dev entity
        primary_metric="accuracy",
        metrics=("accuracy",),
        # released as files only (get-mewsli-x.sh)
        hub_id="",
        # no URL gives the files: google-research/dense_representations_for_entity_retrieval
        # mel/get-mewsli-x.sh builds them from Wikipedia and WikiNews dumps
        manual_step="build them with google-research's dense_representations_for_entity_"
        "retrieval/mel/get-mewsli-x.sh (XTREME-R's download_data.sh, download_mewslix: its "
        "own conda environment, Wikipedia and WikiNews dumps) and put its output in this "
        "folder (docs/data-sources.md)",
        train_only=True,
        reference="Botha et al. 2020 (Mewsli-X); XTREME-R's Mewsli-X fine-tune",
        files={"train": ("wikipedia_pairs-train.jsonl",), "dev": ("wikipedia_pairs-dev.jsonl",)},
    ),
)
