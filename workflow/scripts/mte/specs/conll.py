"""CoNLL-2002 (Spanish, Dutch) and CoNLL-2003 (English, German) named entities."""

from mte.families.tagging import TaggingOptions
from mte.specs._hub import CONLL2002, CONLL2003
from mte.specs._templates import NER_TAGS, tagging_task

TASKS = (
    tagging_task(
        TaggingOptions(scheme="entities", hub_tag_column="ner_tags"),
        name="conll",
        title="CoNLL-2002/2003 NER",
        languages=("en", "nl", "es", "de"),
        labels=(*NER_TAGS, "B-MISC", "I-MISC"),
        hub_id="eriktks/conll2003",
        hub_repos=(
            CONLL2003,
            CONLL2002,
        ),
        # CoNLL-2003 German is not on the hub (its text is licensed); en and es/nl are
        hub_configs={
            "en": ("eriktks/conll2003", "conll2003"),
            "es": ("eriktks/conll2002", "es"),
            "nl": ("eriktks/conll2002", "nl"),
        },
        file_codes={"en": "eng", "es": "esp", "nl": "ned", "de": "deu"},
        reference="Tjong Kim Sang 2002; Tjong Kim Sang & De Meulder 2003; XLM-R Table 2",
        no_release="CoNLL-2003's English and German texts are Reuters' and Frankfurter "
        "Rundschau's, licensed, not downloadable; read the hub's parquet export (en, es, nl) or "
        "your licensed copy with source: files",
        # eng/esp/ned/deu .train, .testa (development), .testb (test)
        files={"train": ("{code}.train",), "dev": ("{code}.testa",), "test": ("{code}.testb",)},
    ),
)
