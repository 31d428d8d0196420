"""Universal Dependencies part-of-speech tags: v2.5 in XTREME's 33 languages, v2.7 for
XTREME-R's lt, pl, uk, wo and ro."""

from mte.families.tagging import TaggingOptions
from mte.hub.release import Release
from mte.specs._hub import XTREME
from mte.specs._release import released
from mte.specs._templates import tagging_task

# the 17 Universal POS tags of UD v2
UPOS_TAGS = (
    "ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM",
    "PART", "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X",
)  # fmt: skip
# XTREME-R's additions, read from UD v2.7 (XTREME's download_data.sh download_treebank
# xtreme-r); the hub's google/xtreme has no udpos config for them
XTREME_R_ADDITIONS = ("lt", "pl", "uk", "wo", "ro")
# XTREME's UD-POS languages, with the names google/xtreme gives its udpos.* configs
UDPOS_LANGUAGES = {
    "en": "English", "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "de": "German",
    "el": "Greek", "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian",
    "fi": "Finnish", "fr": "French", "he": "Hebrew", "hi": "Hindi", "hu": "Hungarian",
    "id": "Indonesian", "it": "Italian", "ja": "Japanese", "kk": "Kazakh", "ko": "Korean",
    "mr": "Marathi", "nl": "Dutch", "pt": "Portuguese", "ru": "Russian", "ta": "Tamil",
    "te": "Telugu", "th": "Thai", "tl": "Tagalog", "tr": "Turkish", "ur": "Urdu",
    "vi": "Vietnamese", "yo": "Yoruba", "zh": "Chinese",
}  # fmt: skip

TASKS = (
    tagging_task(
        TaggingOptions(
            scheme="tags",
            hub_tag_column="pos_tags",
            former_labels={"CONJ": ("CCONJ", "Universal Dependencies v1")},
            # a release's CoNLL-U as XTREME's download_data.sh converts it (conllu_to_conll.py
            # --replace_subtokens_with_fused_forms): its processed TSV and the hub hold the
            # fused forms
            conllu_multiword="fused",
        ),
        name="udpos",
        title="UD POS",
        languages=tuple(UDPOS_LANGUAGES),
        more_languages=XTREME_R_ADDITIONS,
        labels=UPOS_TAGS,
        hub_id="google/xtreme",
        hub_repos=(XTREME,),
        hub_configs={
            lang: ("google/xtreme", f"udpos.{name}") for lang, name in UDPOS_LANGUAGES.items()
        },
        # XTREME's protocol scores POS with seqeval's F1 over the tags: its run_tag.py selects the
        # checkpoint by it (result["f1"]) and its evaluate.py gives udpos the f1 metric, whose
        # mean over languages is the task's score (avg_metric = avg_f1)
        selection_metric="seqeval_f1",
        summary_metrics=("seqeval_f1",),
        # and XTREME's per-language POS table prints it: the task's table, its leaderboard
        # column and its references are seqeval F1; token accuracy is kept beside it
        primary_metric="seqeval_f1",
        metrics=("seqeval_f1", "accuracy"),
        reference="Universal Dependencies v2.5 (v2.7 for lt, pl, uk, wo, ro); XTREME Table 2",
        # XTREME's processed TSV, else every UD treebank of the language in CoNLL-U, in one
        # folder or in a release's UD_* treebank folders, merged per split as XTREME's
        # utils_preprocess.udpos_preprocess merges them
        files={
            split: (
                f"{split}-{{lang}}.tsv",
                f"{{lang}}_*-ud-{split}.conllu",
                f"UD_*/{{lang}}_*-ud-{split}.conllu",
            )
            for split in ("train", "dev", "test")
        },
        labelled_release="the Universal Dependencies v2.5 treebanks' {lang}_*-ud-test.conllu "
        "files (hdl.handle.net/11234/1-3105), or source: hub (google/xtreme udpos.*)",
        # XTREME's download_data.sh (download_treebank): UD v2.5 for its languages, v2.7 for
        # XTREME-R's five; only the asked languages' CoNLL-U files are extracted
        release=Release(
            files=(
                released(
                    "udpos",
                    "https://lindat.mff.cuni.cz/repository/xmlui/bitstream/handle/11234/1-3105/"
                    "ud-treebanks-v2.5.tgz",
                    "ud-treebanks-v2.5.tgz",
                    tuple(UDPOS_LANGUAGES),
                    members=("*/UD_*/{lang}_*-ud-*.conllu",),
                ),
                released(
                    "udpos",
                    "https://lindat.mff.cuni.cz/repository/xmlui/bitstream/handle/11234/1-3424/"
                    "ud-treebanks-v2.7.tgz",
                    "ud-treebanks-v2.7.tgz",
                    XTREME_R_ADDITIONS,
                    members=("*/UD_*/{lang}_*-ud-*.conllu",),
                ),
            ),
            checksums="recorded at the first download (no genuine copy could be reached to pin it)",
            root="ud-treebanks-v2.5",
            roots={lang: "ud-treebanks-v2.7" for lang in XTREME_R_ADDITIONS},
            note="download_data.sh converts each file with conllu_to_conll.py "
            "--replace_subtokens_with_fused_forms; the reader reads the CoNLL-U files as that "
            "conversion does (fused forms)",
        ),
    ),
)
