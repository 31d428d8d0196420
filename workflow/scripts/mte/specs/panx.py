"""PAN-X (WikiANN) named entities in XTREME's 40 languages and XTREME-R's 8 more."""

from mte.families.tagging import TaggingOptions
from mte.specs._hub import WIKIANN, XTREME
from mte.specs._templates import NER_TAGS, XTREME_TAGGING_FILES, tagging_task

# XTREME's 40 PAN-X languages (Hu et al. 2020, Table 6)
PANX_LANGUAGES = (
    "en", "af", "ar", "bg", "bn", "de", "el", "es", "et", "eu", "fa", "fi", "fr", "he",
    "hi", "hu", "id", "it", "ja", "jv", "ka", "kk", "ko", "ml", "mr", "ms", "my", "nl",
    "pt", "ru", "sw", "ta", "te", "th", "tl", "tr", "ur", "vi", "yo", "zh",
)  # fmt: skip
# XTREME-R's additions (its evaluate.py XTREME_R_TASK2LANGS); google/xtreme has no PAN-X
# config for them: the hub's WikiANN with Rahimi et al.'s splits (unimelb-nlp/wikiann, one
# config per language, the same tokens and ner_tags columns) holds them
XTREME_R_ADDITIONS = ("qu", "pl", "uk", "az", "lt", "pa", "gu", "ro")

TASKS = (
    tagging_task(
        TaggingOptions(scheme="entities", hub_tag_column="ner_tags"),
        name="panx",
        title="PAN-X (WikiANN) NER",
        languages=PANX_LANGUAGES,
        labels=NER_TAGS,
        hub_id="google/xtreme",
        hub_repos=(
            XTREME,
            WIKIANN,
        ),
        more_languages=XTREME_R_ADDITIONS,
        hub_configs={
            **{lang: ("google/xtreme", f"PAN-X.{lang}") for lang in PANX_LANGUAGES},
            **{lang: ("unimelb-nlp/wikiann", lang) for lang in XTREME_R_ADDITIONS},
        },
        reference="Pan et al. 2017; Rahimi et al. 2019 splits; XTREME Table 2",
        files=XTREME_TAGGING_FILES,
        labelled_release="source: hub (google/xtreme PAN-X.{lang}), or WikiANN with Rahimi et "
        "al.'s splits",
        no_release="XTREME's download_data.sh asks for AmazonPhotos.zip, saved by hand from a "
        "cloud drive share: no URL downloads it; read the hub's google/xtreme PAN-X.<lang>",
    ),
)
