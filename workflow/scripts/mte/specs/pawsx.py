"""PAWS-X (Yang et al. 2019): paraphrase identification in 7 languages."""

from mte.families.pairs import PairOptions
from mte.hub.release import Release
from mte.specs._hub import PAWSX
from mte.specs._release import released
from mte.specs._templates import NATIVE_TRAINING, pair_classification_task
from mte.tasks.prompts import Prompt

# in-context transfer (docs/decoders.md): two sentences, asked whether they mean the same,
# answered no (label 0) or yes (label 1). Our wording of lm-evaluation-harness's paws-x task
# (a "right?" question between the sentences, yes / no) as a question after both; the same
# English words for every language, since the demonstrations are English.
PAWSX_PROMPT = Prompt(
    text=lambda e: (
        f"Sentence 1: {e['text_a']}\nSentence 2: {e['text_b']}\n"
        "Do the two sentences mean the same thing? Answer yes or no:"
    ),
    choices=lambda e: ["no", "yes"],
    answer=lambda e: ("0", "1").index(e["label"]),
    source="this project's wording, after lm-evaluation-harness's paws-x task",
)

TASKS = (
    pair_classification_task(
        name="pawsx",
        title="PAWS-X",
        languages=("en", "de", "es", "fr", "ja", "ko", "zh"),
        labels=("0", "1"),
        options=PairOptions(
            # the original x-final/ release: id, sentence1, sentence2, label
            table_columns=("sentence1", "sentence2", "label"),
            hub_text_columns=("sentence1", "sentence2"),
            # the hub's rows of -1 (a label the release lacked): as XTREME's reader
            hub_missing_label="xtreme",
        ),
        hub_id="google-research-datasets/paws-x",
        hub_repos=(PAWSX,),
        reference="Yang et al. 2019 (PAWS-X); XTREME Table 2",
        prompt=PAWSX_PROMPT,
        settings=NATIVE_TRAINING,
        parallel_test_sets=True,
        # XTREME's processed TSV, else the original release's x-final/{lang}/ folders
        files={
            "train": ("train-{lang}.tsv", "{lang}/train.tsv", "{lang}/translated_train.tsv"),
            "dev": ("dev-{lang}.tsv", "{lang}/dev_2k.tsv"),
            "test": ("test-{lang}.tsv", "{lang}/test_2k.tsv"),
        },
        labelled_release="the PAWS-X release's x-final/{lang}/test_2k.tsv (x-final.tar.gz from "
        "storage.googleapis.com/paws/pawsx), or source: hub (google-research-datasets/paws-x)",
        # XTREME's download_data.sh (download_pawsx)
        release=Release(
            files=(
                released(
                    "pawsx",
                    "https://storage.googleapis.com/paws/pawsx/x-final.tar.gz",
                    "x-final.tar.gz",
                ),
            ),
            checksums="recorded at the first download (no genuine copy could be reached to pin it)",
            root="x-final",
        ),
    ),
)
