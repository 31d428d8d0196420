"""PAWS-X (Yang et al. 2019): paraphrase identification in 7 languages."""

from mte.families.pairs import PairOptions
from mte.hub.release import Release
from mte.specs._hub import PAWSX
from mte.specs._release import released
from mte.specs._templates import NATIVE_TRAINING, pair_classification_task

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
        ),
        hub_id="google-research-datasets/paws-x",
        hub_repos=(PAWSX,),
        reference="Yang et al. 2019 (PAWS-X); XTREME Table 2",
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
