"""SQuAD v1.1 (Rajpurkar et al. 2016): the English training set of XQuAD, MLQA and MLQA G-XLT.
A training set only: fine-tuned on, never evaluated."""

from mte.families.qa import QAOptions
from mte.hub.release import Release
from mte.specs._hub import SQUAD
from mte.specs._release import released
from mte.specs._templates import qa_task

# XTREME's download_data.sh (download_squad); the LAReQA dual encoder's pairs read the same files
SQUAD_RELEASE = Release(
    files=tuple(
        released(
            "squad",
            f"https://raw.githubusercontent.com/rajpurkar/SQuAD-explorer/master/dataset/{name}",
            name,
        )
        for name in ("train-v1.1.json", "dev-v1.1.json")
    ),
    checksums="recorded at the first download (no genuine copy could be reached to pin it)",
)

TASKS = (
    qa_task(
        QAOptions(normalization="squad"),
        name="squad",
        title="SQuAD v1.1",
        languages=("en",),
        hub_id="rajpurkar/squad",
        hub_repos=(SQUAD,),
        hub_splits={"train": "train", "dev": "validation"},
        hub_configs={"en": ("rajpurkar/squad", "plain_text")},
        train_only=True,
        reference="Rajpurkar et al. 2016 (SQuAD v1.1), the training set of XQuAD and MLQA",
        files={"train": ("train-v1.1.json",), "dev": ("dev-v1.1.json",)},
        release=SQUAD_RELEASE,
    ),
)
