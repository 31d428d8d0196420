"""BUCC 2018 (Zweigenbaum et al. 2018): parallel sentence mining against English."""

from mte.hub.release import Release
from mte.specs._hub import XTREME
from mte.specs._release import released
from mte.tasks.spec import Task

BUCC_LANGUAGES = ("de", "fr", "ru", "zh")

TASKS = (
    Task(
        name="bucc",
        title="BUCC 2018",
        family="mining",
        languages=BUCC_LANGUAGES,
        labels=(),
        primary_metric="f1",
        metrics=("f1", "precision", "recall", "threshold"),
        hub_id="google/xtreme",
        hub_repos=(XTREME,),
        # XTREME uses the BUCC sample set as dev (it picks the threshold) and the training set,
        # whose gold pairs are public, as test
        hub_splits={"dev": "validation", "test": "test"},
        hub_configs={lang: ("google/xtreme", f"bucc18.{lang}") for lang in BUCC_LANGUAGES},
        settings=("zero-shot",),
        reference="Zweigenbaum et al. 2018 (BUCC); XTREME Table 2",
        # evaluate.py's folder of its predictions
        submission_folder="bucc2018",
        # XTREME's names, else the BUCC 2018 release's (sample = dev, training = test); the
        # .en and .gold siblings are read with it
        files={
            "dev": ("{lang}-en.dev.{lang}", "{lang}-en.sample.{lang}"),
            "test": ("{lang}-en.test.{lang}", "{lang}-en.training.{lang}"),
        },
        # XTREME's download_data.sh (download_bucc18): the sample and training sets with their
        # gold pairs, each archive extracting to bucc2018/<lang>-en/
        release=Release(
            files=tuple(
                released(
                    "bucc",
                    f"https://comparable.limsi.fr/bucc2018/bucc2018-{lang}-en.{part}-gold.tar.bz2",
                    f"bucc2018-{lang}-en.{part}-gold.tar.bz2",
                    (lang,),
                )
                for lang in BUCC_LANGUAGES
                for part in ("sample", "training")
            ),
            checksums="recorded at the first download (no genuine copy could be reached to pin it)",
            roots={lang: f"bucc2018/{lang}-en" for lang in BUCC_LANGUAGES},
        ),
    ),
)
