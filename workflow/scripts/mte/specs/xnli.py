"""XNLI (Conneau et al. 2018): natural language inference in 15 languages."""

from mte.families.pairs import PairOptions
from mte.specs._hub import XNLI
from mte.specs._templates import NATIVE_TRAINING, pair_classification_task

TASKS = (
    pair_classification_task(
        name="xnli",
        title="XNLI",
        # XNLI's 15 languages (Conneau et al. 2018), the set used by XLM-R and XTREME
        languages=(
            "en",
            "fr",
            "es",
            "de",
            "el",
            "bg",
            "ru",
            "tr",
            "ar",
            "vi",
            "th",
            "zh",
            "hi",
            "sw",
            "ur",
        ),  # fmt: skip
        labels=("entailment", "neutral", "contradiction"),
        hub_id="facebook/xnli",
        hub_repos=(XNLI,),
        options=PairOptions(
            hub_text_columns=("premise", "hypothesis"),
            # XNLI-MT and MultiNLI releases spell one label "contradictory"
            label_aliases={"contradictory": "contradiction"},
        ),
        demo_languages=("en", "de", "es", "ru", "zh", "ar"),
        parallel_test_sets=True,
        settings=NATIVE_TRAINING,
        reference="Conneau et al. 2018 (XNLI); XLM-R Table 1; XTREME Table 2",
        # XTREME's processed files; MultiNLI (the XNLI English training set); the original
        # XNLI 1.0 release with a language column
        files={
            "train": (
                "train-{lang}.tsv",
                "multinli_1.0_train.jsonl",
                "multinli_1.0_train.txt",
                "train.tsv",
            ),
            "dev": ("dev-{lang}.tsv", "xnli.dev.tsv"),
            "test": ("test-{lang}.tsv", "xnli.test.tsv"),
        },
        labelled_release="XNLI 1.0's xnli.test.tsv (XNLI-1.0.zip from dl.fbaipublicfiles.com/"
        "XNLI), or source: hub (facebook/xnli)",
    ),
)
