"""What is known about each language the tasks use, with where it was read: its family, its
script and the size of its Wikipedia (XTREME's proxy for pretraining data, section 5).

The table, ``language_metadata.tsv`` beside this module, is written by
``tools/build_language_metadata.py`` from the sources in SOURCES, never by hand; every value
names its source in the column beside it, and a language the sources do not cover has no value
(never a guess). ``load`` refuses a value without a known source, naming the file and line.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from mte.errors import InputError

TABLE = Path(__file__).with_name("language_metadata.tsv")

SOURCES = {
    "iso639": "ISO 639-3 (SIL), as Debian's iso-codes carries it in pycountry 26.2.16: the "
    "three-letter code and scope of each ISO 639-1 code",
    "glottolog": "Glottolog 5.1 (Hammarström, Forkel, Haspelmath, Bank), "
    "glottolog/glottolog-cldf@b6d3ea20a1a305a94b1e8a1198943f26b7bd2756, cldf/languages.csv: "
    "the language's glottocode and the name of its top-level family (an isolate is its own "
    "family; constructed languages are Glottolog's 'Artificial Language')",
    "cldr": "Unicode CLDR 47 likely subtags (as Babel 2.18.0 bundles them): the script subtag "
    "(ISO 15924) of the language's likely locale",
    "olmo-wikipedia": "documents of the language's Wikipedia in the 2023-03-20 dumps "
    "(pages-articles, after WikiExtractor), as tabulated in "
    "allenai/OLMo@57bdd2765bd50cd602de28949c3b41ec0e0b442f, pretrain_data/wikipedia/README.md, "
    "'V0 Collection', 'Statistics'; XTREME's own counts (December 2019) could not be read",
}

# each value column and the column that names its source
SOURCED = {
    "iso639_3": "iso639_3_source",
    "glottocode": "family_source",
    "family": "family_source",
    "script": "script_source",
    "wikipedia_articles": "wikipedia_source",
    "wikipedia_date": "wikipedia_source",
}


@dataclass(frozen=True)
class Language:
    code: str
    iso639_3: str | None
    glottocode: str | None
    family: str | None
    script: str | None
    wikipedia_articles: int | None
    wikipedia_date: str | None
    sources: dict[str, str]  # value column -> source id


def read_table(path: Path) -> dict[str, Language]:
    """Every row of a metadata table, each value checked to name a known source."""
    languages: dict[str, Language] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        header = reader.fieldnames or ()
        missing = sorted({c for c in ("code", *SOURCED, *SOURCED.values()) if c not in header})
        if missing:
            raise InputError(path, 1, f"the header lacks {', '.join(missing)}")
        for line, row in enumerate(reader, start=2):
            code = row["code"]
            if not code:
                raise InputError(path, line, "a row without a language code")
            if code in languages:
                raise InputError(path, line, f"{code} appears twice")
            sources = {}
            for column, source_column in SOURCED.items():
                if not row[column]:
                    continue
                source = row[source_column]
                if not source:
                    raise InputError(
                        path,
                        line,
                        f"{code}'s {column} ({row[column]!r}) names no source "
                        f"({source_column} is empty)",
                    )
                if source not in SOURCES:
                    raise InputError(
                        path,
                        line,
                        f"{code}'s {column} names an unknown source {source!r} "
                        f"(known: {', '.join(sorted(SOURCES))})",
                    )
                sources[column] = source
            try:
                articles = int(row["wikipedia_articles"]) if row["wikipedia_articles"] else None
            except ValueError:
                raise InputError(
                    path,
                    line,
                    f"{code}'s wikipedia_articles is not a count: {row['wikipedia_articles']!r}",
                ) from None
            if (articles is None) != (not row["wikipedia_date"]):
                raise InputError(path, line, f"{code}'s Wikipedia count needs its date")
            languages[code] = Language(
                code=code,
                iso639_3=row["iso639_3"] or None,
                glottocode=row["glottocode"] or None,
                family=row["family"] or None,
                script=row["script"] or None,
                wikipedia_articles=articles,
                wikipedia_date=row["wikipedia_date"] or None,
                sources=sources,
            )
    return languages


@cache
def load() -> dict[str, Language]:
    """The package's table, by language code."""
    return read_table(TABLE)
