"""Build ``workflow/scripts/mte/tasks/language_metadata.tsv`` from its sources, never by hand.

For every language code the tasks use (ISO 639-1 where there is one, else ISO 639-3, as the
specs write them; FLORES-200 variants such as ``deu_Latn`` and MLQA's pairs are left out):

- family: the top-level family of the language in Glottolog (its CLDF ``cldf/languages.csv``:
  the row whose ``ISO639P3code`` is the language's ISO 639-3 code, then its ``Family_ID``'s
  name; an isolate is its own family). A macrolanguage code (ISO 639-3 scope M: ``ara``,
  ``zho``, ...) has no Glottolog row; its family is that of the member named in MACRO_MEMBERS
  (every member of a macrolanguage belongs to one family, so the member chosen does not change
  the value);
- script: the script subtag of the code's likely subtags in Unicode CLDR (``af`` -> ``af_Latn_ZA``);
- Wikipedia size: the number of documents of the language's Wikipedia in the 2023-03-20 dumps
  (``pages-articles``, after WikiExtractor), as AllenAI's OLMo repository tabulates them
  (``pretrain_data/wikipedia/README.md``, "V0 Collection", "Statistics"), for a code that is the
  wiki's own; the XTREME paper's own counts (December 2019) could not be read here.

A value the sources do not give stays empty. Run (each path a checkout at the commit SOURCES
names; CLDR and ISO 639-3 from Babel's and pycountry's bundled data):

    pip install babel==2.18.0 pycountry==26.2.16
    python tools/build_language_metadata.py GLOTTOLOG_CLDF OLMO_README > \
        workflow/scripts/mte/tasks/language_metadata.tsv
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "workflow" / "scripts"))

# ISO 639-3 macrolanguage -> one of its individual members (SIL's macrolanguage mappings): only
# to find the family in Glottolog, which lists individual languages
MACRO_MEMBERS = {
    "ara": "arb", "zho": "cmn", "fas": "pes", "msa": "zsm", "swa": "swh", "est": "ekk",
    "uzb": "uzn", "mon": "khk", "kur": "kmr", "sqi": "als", "que": "quy", "yid": "ydd",
    "aze": "azj", "lav": "lvs", "nor": "nob",
}  # fmt: skip
# a language whose Wikipedia has another code than the language
WIKI_CODES = {"yue": "zh_yue"}


def iso639_3(code: str) -> tuple[str, str]:
    """The ISO 639-3 code and scope (I individual, M macrolanguage, S special, or '' for a
    collective code) of an ISO 639-1 or 639-3 code."""
    import pycountry

    language = (
        pycountry.languages.get(alpha_2=code)
        if len(code) == 2
        else pycountry.languages.get(alpha_3=code)
    )
    if language is None:
        return "", ""
    return language.alpha_3, getattr(language, "scope", "")


def glottolog_families(path: Path) -> dict[str, tuple[str, str, str]]:
    """ISO 639-3 -> (glottocode, family name, family glottocode)."""
    with (path / "cldf" / "languages.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    names = {row["ID"]: row["Name"] for row in rows}
    families = {}
    for row in rows:
        iso = row["ISO639P3code"]
        if not iso or row["Level"] not in ("language", "dialect"):
            continue
        family_id = row["Family_ID"] or row["ID"]  # an isolate is its own family
        families[iso] = (row["Glottocode"], names[family_id], family_id)
    return families


def wikipedia_documents(readme: Path) -> dict[str, int]:
    """wiki code -> documents, from the V0 statistics table."""
    text = readme.read_text(encoding="utf-8")
    section = text[text.index("## V0 Collection") : text.index("## V1 Collection")]
    counts = {}
    for match in re.finditer(r"^\|\*([a-z_]+)\*\s*\|([\d,]+)\s*\|", section, re.M):
        counts[match.group(1)] = int(match.group(2).replace(",", ""))
    return counts


def task_language_codes() -> list[str]:
    from mte.registry import TASKS

    codes = set()
    for task in TASKS.values():
        for code in tuple(task.languages) + tuple(task.more_languages or ()):
            if re.fullmatch(r"[a-z]{2,3}", code):
                codes.add(code)
    return sorted(codes)


def main(glottolog: str, olmo_readme: str) -> None:
    from babel.core import get_global

    likely = get_global("likely_subtags")
    families = glottolog_families(Path(glottolog))
    documents = wikipedia_documents(Path(olmo_readme))
    columns = (
        "code", "iso639_3", "iso639_3_source", "glottocode", "family", "family_source", "script",
        "script_source", "wikipedia_articles", "wikipedia_date", "wikipedia_source",
    )  # fmt: skip
    print("\t".join(columns))
    for code in task_language_codes():
        iso, scope = iso639_3(code)
        lookup = MACRO_MEMBERS.get(iso, iso) if scope == "M" else iso
        glottocode, family, _ = families.get(lookup, ("", "", ""))
        subtags = likely.get(code, "").split("_")
        script = subtags[1] if len(subtags) > 1 and len(subtags[1]) == 4 else ""
        wiki = WIKI_CODES.get(code, code)
        articles = documents.get(wiki)
        row = (
            code, iso, "iso639" if iso else "", glottocode, family, "glottolog" if family else "",
            script,
            "cldr" if script else "", str(articles) if articles else "",
            "2023-03-20" if articles else "", "olmo-wikipedia" if articles else "",
        )  # fmt: skip
        print("\t".join(row))


if __name__ == "__main__":
    main(*sys.argv[1:3])
