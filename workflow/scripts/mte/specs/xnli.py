"""XNLI (Conneau et al. 2018): natural language inference in 15 languages."""

from mte.families.pairs import PairOptions
from mte.hub.release import Release
from mte.specs._hub import XNLI
from mte.specs._release import released
from mte.specs._templates import NATIVE_TRAINING, pair_classification_task
from mte.tasks.prompts import Prompt

# in-context transfer (docs/decoders.md): the premise and the hypothesis, asked whether one
# entails the other, answered yes, maybe or no. Our wording of the NLI prompts of GPT-3 (Brown
# et al. 2020, appendix G: a question after the premise, a word per label) and of
# lm-evaluation-harness's xnli task (a yes / also / no word per label); the same English
# words for every language, since the demonstrations are English.
XNLI_ANSWERS = {"entailment": "yes", "neutral": "maybe", "contradiction": "no"}
LABELS = ("entailment", "neutral", "contradiction")
XNLI_PROMPT = Prompt(
    text=lambda e: (
        f"Premise: {e['text_a']}\nHypothesis: {e['text_b']}\n"
        "Does the premise entail the hypothesis? Answer yes, maybe or no:"
    ),
    choices=lambda e: [XNLI_ANSWERS[label] for label in LABELS],
    answer=lambda e: LABELS.index(e["label"]),
    source="this project's wording, after Brown et al. 2020 (GPT-3) appendix G and "
    "lm-evaluation-harness's xnli task",
)

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
        prompt=XNLI_PROMPT,
        # XTREME's processed files; MultiNLI (the XNLI English training set); the original
        # XNLI 1.0 release with a language column
        files={
            "train": (
                "train-{lang}.tsv",
                "multinli_1.0_train.jsonl",
                "multinli_1.0_train.txt",
                "train.tsv",
                "multinli_1.0/multinli_1.0_train.jsonl",
            ),
            "dev": ("dev-{lang}.tsv", "xnli.dev.tsv", "XNLI-1.0/xnli.dev.tsv"),
            "test": ("test-{lang}.tsv", "xnli.test.tsv", "XNLI-1.0/xnli.test.tsv"),
        },
        # XNLI 1.0 (dev and test, every language) and its English training set, MultiNLI
        release=Release(
            files=(
                released(
                    "xnli", "https://dl.fbaipublicfiles.com/XNLI/XNLI-1.0.zip", "XNLI-1.0.zip"
                ),
                released(
                    "xnli",
                    "https://cims.nyu.edu/~sbowman/multinli/multinli_1.0.zip",
                    "multinli_1.0.zip",
                    ("en",),
                    members=("multinli_1.0/multinli_1.0_train.jsonl",),
                ),
            ),
            checksums="recorded at the first download (no genuine copy could be reached to pin it)",
            note="XTREME's download_data.sh trains on XNLI-MT-1.0.zip's multinli.train.en.tsv, "
            "MultiNLI's 392,702 training pairs, read here from MultiNLI's own release",
        ),
        labelled_release="XNLI 1.0's xnli.test.tsv (XNLI-1.0.zip from dl.fbaipublicfiles.com/"
        "XNLI), or source: hub (facebook/xnli)",
    ),
)
