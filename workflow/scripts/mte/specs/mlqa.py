"""MLQA (Lewis et al. 2020): extractive QA in 7 languages, and its generalised cross-lingual
transfer (G-XLT: every context language x question language)."""

from mte.families.qa import QAOptions
from mte.hub.release import Release
from mte.specs._hub import XTREME
from mte.specs._release import released
from mte.specs._templates import qa_task

MLQA_LANGUAGES = ("en", "es", "de", "ar", "hi", "vi", "zh")
GXLT_PAIRS = tuple(f"{c}-{q}" for c in MLQA_LANGUAGES for q in MLQA_LANGUAGES)
# XTREME's download_data.sh (download_mlqa): the release's one archive, every language pair
MLQA_RELEASE = Release(
    files=(released("mlqa", "https://dl.fbaipublicfiles.com/MLQA/MLQA_V1.zip", "MLQA_V1.zip"),),
    checksums="recorded at the first download (no genuine copy could be reached to pin it)",
)

TASKS = (
    qa_task(
        QAOptions(normalization="mlqa"),
        name="mlqa",
        title="MLQA",
        languages=MLQA_LANGUAGES,
        # facebook/mlqa holds only its loading script, which datasets 5 refuses: google/xtreme's
        # MLQA.<context>.<question> configs hold the same release, in SQuAD's columns (id,
        # title, context, question, answers), validation and test splits
        hub_id="google/xtreme",
        hub_repos=(XTREME,),
        hub_configs={lang: ("google/xtreme", f"MLQA.{lang}.{lang}") for lang in MLQA_LANGUAGES},
        models_of="squad",
        reference="Lewis et al. 2020 (MLQA); XLM-R Table 3; XTREME Table 2",
        # the release's files in a folder, or as MLQA_V1.zip extracts them
        files={
            split: (
                f"{split}-context-{{lang}}-question-{{lang}}.json",
                f"MLQA_V1/{split}/{split}-context-{{lang}}-question-{{lang}}.json",
            )
            for split in ("dev", "test")
        },
        release=MLQA_RELEASE,
    ),
    qa_task(
        QAOptions(normalization="mlqa"),
        name="mlqa_gxlt",
        title="MLQA G-XLT",
        languages=GXLT_PAIRS,
        hub_id="google/xtreme",
        hub_repos=(XTREME,),
        hub_configs={
            pair: ("google/xtreme", "MLQA.{}.{}".format(*pair.split("-"))) for pair in GXLT_PAIRS
        },
        models_of="squad",
        reference="Lewis et al. 2020 (MLQA), Table 5 (G-XLT)",
        # {context}/{question}: the two languages of a G-XLT pair "context-question"
        files={
            split: (
                f"{split}-context-{{context}}-question-{{question}}.json",
                f"MLQA_V1/{split}/{split}-context-{{context}}-question-{{question}}.json",
            )
            for split in ("dev", "test")
        },
        release=MLQA_RELEASE,
        table_layout="pair_matrix",
    ),
)
