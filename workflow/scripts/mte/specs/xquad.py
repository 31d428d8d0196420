"""XQuAD (Artetxe et al. 2020): SQuAD v1.1's dev set translated into 10 languages."""

from mte.families.qa import QAOptions
from mte.hub.release import Release
from mte.specs._hub import XQUAD
from mte.specs._release import released
from mte.specs._templates import HUB_SPLITS, QA_PROMPT, qa_task

XQUAD_LANGUAGES = ("en", "es", "de", "el", "ru", "tr", "ar", "vi", "th", "zh", "hi")
# Romanian, released later (xquad.ro.json) and scored by XTREME-R
XTREME_R_ADDITIONS = ("ro",)

TASKS = (
    qa_task(
        QAOptions(normalization="squad"),
        name="xquad",
        title="XQuAD",
        languages=XQUAD_LANGUAGES,
        hub_id="google/xquad",
        hub_repos=(XQUAD,),
        parallel_test_sets=True,
        # XQuAD is one evaluation set, released as the hub's validation split
        # the hub release has no test split: its validation split is the evaluation set
        hub_splits={**HUB_SPLITS, "test": "validation"},
        more_languages=XTREME_R_ADDITIONS,
        hub_configs={
            lang: ("google/xquad", f"xquad.{lang}") for lang in XQUAD_LANGUAGES + XTREME_R_ADDITIONS
        },
        models_of="squad",
        reference="Artetxe et al. 2020 (XQuAD); XTREME Table 2",
        prompt=QA_PROMPT,
        files={"test": ("xquad.{lang}.json",)},
        # XTREME's download_data.sh: one file a language from the repository's master
        release=Release(
            files=tuple(
                released(
                    "xquad",
                    f"https://raw.githubusercontent.com/deepmind/xquad/master/xquad.{lang}.json",
                    f"xquad.{lang}.json",
                    (lang,),
                )
                for lang in XQUAD_LANGUAGES + XTREME_R_ADDITIONS
            ),
            checksums="pinned: the genuine files (github.com/google-deepmind/xquad at 7d30520)",
        ),
    ),
)
