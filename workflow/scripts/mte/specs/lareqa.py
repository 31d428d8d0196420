"""LAReQA (Roy et al. 2020): language-agnostic answer retrieval over XQuAD-R, every question
against one pool of every language's answer sentences; mAP@20 (XTREME-R)."""

from mte.hub.release import Release
from mte.specs._release import released
from mte.tasks.spec import Task

# XQuAD-R's 11 languages (google-research-datasets/lareqa xquad-r/{lang}.json)
LAREQA_LANGUAGES = ("ar", "de", "el", "en", "es", "hi", "ru", "th", "tr", "vi", "zh")

TASKS = (
    Task(
        name="lareqa",
        title="LAReQA (XQuAD-R)",
        family="answer_retrieval",
        languages=LAREQA_LANGUAGES,
        labels=(),
        # mean average precision at 20 (third_party/utils_lareqa.py mean_avg_prec_at_k, k=20)
        primary_metric="map_at_20",
        metrics=("map_at_20",),
        # released as files only (the repository's xquad-r/ folder)
        hub_id="",
        settings=("zero-shot",),
        reference="Roy et al. 2020 (LAReQA); XTREME-R Table 2",
        files={"test": ("{lang}.json", "xquad-r/{lang}.json")},
        release=Release(
            files=tuple(
                released(
                    "lareqa",
                    "https://raw.githubusercontent.com/google-research-datasets/lareqa/master/"
                    f"xquad-r/{lang}.json",
                    f"xquad-r/{lang}.json",
                    (lang,),
                )
                for lang in LAREQA_LANGUAGES
            ),
            checksums="pinned: the genuine files (github.com/google-research-datasets/lareqa "
            "at 9bc8c7f)",
            note="XTREME-R's download_data.sh fetches the repository's master.zip, whose bytes "
            "GitHub does not keep stable; the same files are fetched one by one",
        ),
    ),
)
