"""MLQA (Lewis et al. 2020): extractive QA in 7 languages, and its generalised cross-lingual
transfer (G-XLT: every context language x question language)."""

from mte.families.qa import QAOptions
from mte.specs._hub import XTREME
from mte.specs._templates import qa_task

MLQA_LANGUAGES = ("en", "es", "de", "ar", "hi", "vi", "zh")
GXLT_PAIRS = tuple(f"{c}-{q}" for c in MLQA_LANGUAGES for q in MLQA_LANGUAGES)

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
        files={
            "dev": ("dev-context-{lang}-question-{lang}.json",),
            "test": ("test-context-{lang}-question-{lang}.json",),
        },
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
            "dev": ("dev-context-{context}-question-{question}.json",),
            "test": ("test-context-{context}-question-{question}.json",),
        },
        table_layout="pair_matrix",
    ),
)
