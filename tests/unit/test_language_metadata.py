"""Language metadata: every value names its source, and the families and scripts of XTREME's 40
languages agree with a second, independent catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from mte.errors import InputError
from mte.modelling.translation import NLLB_CODES
from mte.tasks.language_metadata import SOURCED, SOURCES, TABLE, load, read_table
from mte.tasks.languages import FLORES200_SIB_CODES

XTREME_40 = (
    "af ar bg bn de el en es et eu fa fi fr he hi hu id it ja jv ka kk ko ml mr ms my nl pt ru "
    "sw ta te th tl tr ur vi yo zh"
).split()

# The family of each of XTREME's 40 languages in WALS 2020.4 (Dryer & Haspelmath;
# cldf-datasets/wals@3a9efd69074e1ced1da69e31b9aebfd55006eb70, cldf/languages.csv, column
# Family), read from the row whose ISO_codes holds the language's code (the individual language
# for a macrolanguage: arb, pes, ekk, zsm, swh, cmn), the 100- or 200-language sample's row
# where a language has several: an independent check of the table, whose families are
# Glottolog's.
WALS_FAMILY = {
    "af": "Indo-European", "ar": "Afro-Asiatic", "bg": "Indo-European", "bn": "Indo-European",
    "de": "Indo-European", "el": "Indo-European", "en": "Indo-European", "es": "Indo-European",
    "et": "Uralic", "eu": "Basque", "fa": "Indo-European", "fi": "Uralic", "fr": "Indo-European",
    "he": "Afro-Asiatic", "hi": "Indo-European", "hu": "Uralic", "id": "Austronesian",
    "it": "Indo-European", "ja": "Japanese", "jv": "Austronesian", "ka": "Kartvelian",
    "kk": "Altaic", "ko": "Korean", "ml": "Dravidian", "mr": "Indo-European",
    "ms": "Austronesian", "my": "Sino-Tibetan", "nl": "Indo-European", "pt": "Indo-European",
    "ru": "Indo-European", "sw": "Niger-Congo", "ta": "Dravidian", "te": "Dravidian",
    "th": "Tai-Kadai", "tl": "Austronesian", "tr": "Altaic", "ur": "Indo-European",
    "vi": "Austro-Asiatic", "yo": "Niger-Congo", "zh": "Sino-Tibetan",
}  # fmt: skip
# Where the two catalogues name or draw a family differently (WALS -> Glottolog): Glottolog does
# not accept Altaic (Turkic is a family of its own) or Niger-Congo (its largest accepted unit is
# Atlantic-Congo), names the families of Japanese and Korean Japonic and Koreanic, and spells
# Austroasiatic without a hyphen.
WALS_TO_GLOTTOLOG = {
    "Altaic": "Turkic",
    "Niger-Congo": "Atlantic-Congo",
    "Japanese": "Japonic",
    "Korean": "Koreanic",
    "Austro-Asiatic": "Austroasiatic",
}
# FLORES-200 (NLLB Team 2022) codes carry each language's script: the variant of each of XTREME's
# languages that the translation settings already name (its individual language for a
# macrolanguage; Simplified Chinese)
FLORES_VARIANT = {code: NLLB_CODES[code] for code in XTREME_40}


def test_every_value_of_the_shipped_table_names_a_known_source() -> None:
    languages = load()
    assert len(languages) > 100
    for language in languages.values():
        for column in SOURCED:
            if getattr(language, column) is not None:
                assert language.sources[column] in SOURCES, (language.code, column)


def test_xtreme_families_agree_with_wals() -> None:
    languages = load()
    differ = {}
    for code in XTREME_40:
        expected = WALS_TO_GLOTTOLOG.get(WALS_FAMILY[code], WALS_FAMILY[code])
        if languages[code].family != expected:
            differ[code] = (languages[code].family, WALS_FAMILY[code])
    assert differ == {}
    # fourteen in Glottolog's terms, Basque (an isolate) and Koreanic among them
    assert len({languages[code].family for code in XTREME_40}) == 14


def test_xtreme_scripts_agree_with_flores200() -> None:
    languages = load()
    differ = {}
    for code in XTREME_40:
        variant = FLORES_VARIANT[code]
        assert variant in FLORES200_SIB_CODES
        if languages[code].script != variant.split("_")[1]:
            differ[code] = (languages[code].script, variant)
    # CLDR writes Korean's script Kore (Hangul with Han), FLORES-200 Hang (Hangul alone)
    assert differ == {"ko": ("Kore", "kor_Hang")}


def test_every_xtreme_language_has_a_dated_wikipedia_size() -> None:
    languages = load()
    for code in XTREME_40:
        assert languages[code].wikipedia_articles, code
        assert languages[code].wikipedia_date == "2023-03-20"
    # read from the source by hand: en 6,594,267 and yo 31,647 documents
    assert languages["en"].wikipedia_articles == 6_594_267
    assert languages["yo"].wikipedia_articles == 31_647


def test_a_language_the_sources_do_not_cover_has_no_value() -> None:
    # Berber (ber) is a collective code: no Glottolog language, no CLDR locale, no Wikipedia
    berber = load()["ber"]
    assert (berber.family, berber.script, berber.wikipedia_articles) == (None, None, None)


HEADER = "\t".join(
    ("code", "iso639_3", "iso639_3_source", "glottocode", "family", "family_source", "script")
    + ("script_source", "wikipedia_articles", "wikipedia_date", "wikipedia_source")
)


def _table(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "languages.tsv"
    path.write_text("\n".join((HEADER, *rows)) + "\n", encoding="utf-8")
    return path


def test_a_value_without_a_source_is_refused_with_file_and_line(tmp_path: Path) -> None:
    good = "\t".join(
        ("en", "eng", "iso639", "stan1293", "Indo-European", "glottolog", "Latn", "cldr", "10")
        + ("2023-03-20", "olmo-wikipedia")
    )
    unsourced = "de\tdeu\tiso639\tstan1295\tIndo-European\t\tLatn\tcldr\t\t\t"
    path = _table(tmp_path, good, unsourced)
    with pytest.raises(
        InputError, match=r"languages.tsv, line 3: de's glottocode .* names no source"
    ):
        read_table(path)


def test_an_unknown_source_is_refused(tmp_path: Path) -> None:
    row = "de\tdeu\tiso639\t\t\t\tLatn\tmy-memory\t\t\t"
    with pytest.raises(
        InputError, match=r"line 2: de's script names an unknown source 'my-memory'"
    ):
        read_table(_table(tmp_path, row))


def test_a_count_without_its_date_is_refused(tmp_path: Path) -> None:
    row = "de\tdeu\tiso639\t\t\t\t\t\t12\t\tolmo-wikipedia"
    with pytest.raises(InputError, match="line 2: de's Wikipedia count needs its date"):
        read_table(_table(tmp_path, row))


def test_the_table_is_the_package_data() -> None:
    assert TABLE.name == "language_metadata.tsv" and TABLE.exists()
