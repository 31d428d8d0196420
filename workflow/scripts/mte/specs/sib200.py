"""SIB-200 (Adelani et al. 2024): topic classification of FLORES-200 sentences, 7 topics, 205
language variants; zero-shot from English (eng_Latn) as the paper's cross-lingual setting."""

from mte.families.pairs import PairOptions
from mte.hub.release import Release
from mte.specs._hub import SIB200
from mte.specs._release import released
from mte.specs._templates import NATIVE_TRAINING, pair_classification_task
from mte.tasks.languages import FLORES200_SIB_CODES

TASKS = (
    pair_classification_task(
        name="sib200",
        title="SIB-200",
        languages=FLORES200_SIB_CODES,
        train_language="eng_Latn",
        # data/eng/labels.txt of the release
        labels=(
            "science/technology",
            "travel",
            "politics",
            "sports",
            "health",
            "entertainment",
            "geography",
        ),  # fmt: skip
        options=PairOptions(
            # data/annotated/{lang}/{split}.tsv: index_id TAB category TAB text, with a header
            table_columns=("text", None, "category"),
            id_column="index_id",
            # the release's files were written by pandas' to_csv: a text holding a quote is
            # quoted, its quotes doubled ("... ""word"" ..."), as the hub's rows are not
            csv_quoting=True,
            # one hub config per language, named by its code; the label is a string column
            hub_text_columns=("text",),
            hub_label_column="category",
        ),
        files={
            split: (f"data/annotated/{{lang}}/{split}.tsv", f"{{lang}}/{split}.tsv")
            for split in ("train", "dev", "test")
        },
        # the authors' repository holds the annotated splits of every language
        release=Release(
            files=tuple(
                released(
                    "sib200",
                    "https://raw.githubusercontent.com/dadelani/sib-200/main/data/annotated/"
                    f"{lang}/{split}.tsv",
                    f"data/annotated/{lang}/{split}.tsv",
                    (lang,),
                )
                for lang in FLORES200_SIB_CODES
                for split in ("train", "dev", "test")
            ),
            checksums="pinned: the genuine files (github.com/dadelani/sib-200 at 593cea8)",
        ),
        hub_id="Davlan/sib200",
        hub_repos=(SIB200,),
        # every language's sets translate the same FLORES sentences (index_id)
        parallel_test_sets=True,
        settings=NATIVE_TRAINING,
        reference="Adelani et al. 2024 (SIB-200)",
    ),
)
