"""Published rows in our tables: after each of our rows, the papers' numbers for the same model
and setting, and our difference from them, each labelled with its paper, table and protocol."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from mte.tables.task_table import AVERAGE

OURS, PUBLISHED, DELTA = "ours", "published", "ours - published"
# a published row's cells that the paper prints and no readable source gives (column names
# joined by "; "; printed n/s: mte.tables.references.UNSOURCED)
UNSOURCED_COLUMN = "unsourced"
UNSOURCED_SEPARATOR = "; "


def unsourced_columns(row: Any) -> list[str]:
    """The columns a published row names as unsourced (none for other rows)."""
    named = row.get(UNSOURCED_COLUMN)
    return named.split(UNSOURCED_SEPARATOR) if isinstance(named, str) and named else []


def with_references(
    table: pd.DataFrame,
    references: list[dict[str, Any]],
    task: str,
    languages: list[str],
    metrics: dict[str, str],
    all_languages: list[str] | tuple[str, ...],
) -> pd.DataFrame:
    """``table`` with a ``row`` column, and after each (model, setting) row that has published
    numbers for the same model name, per paper and table that publish them a ``published`` row
    and an ``ours - published`` row, labelled in a ``reference`` column.

    ``metrics``: column suffix -> metric (``{"": "f1", "_em": "exact_match"}`` for QA). A
    published average covers the table's languages only when the paper has all of them. An
    entry with only an average (XTREME's Table 2) is its task's average over all its languages:
    it is printed in ``avg``, and its delta only when the table covers those languages too
    (else the row's label says what the average is over, and the delta stays empty). A cell
    the paper prints and no readable source gives is named in the row's ``unsourced`` column
    (printed ``n/s``). ``all_languages``: every language of the task.
    """
    from mte.tables.references import find_references, label

    every_language = set(languages) == set(all_languages)
    every = len(all_languages)

    def published_of(row: pd.Series) -> list[tuple[str, dict[str, Any], set[str]]]:
        by_source: dict[str, dict[str, Any]] = {}
        apart: dict[str, set[str]] = {}
        unsourced: dict[str, list[str]] = {}
        for suffix, metric in metrics.items():
            for entry in find_references(references, row["model"], task, row["setting"], metric):
                source = label(entry)
                if not entry["values"] and not every_language:
                    source += f" (avg over all {every} languages)"
                    apart.setdefault(source, set()).add(f"{AVERAGE}{suffix}")
                published = by_source.setdefault(source, {})
                missing = unsourced.setdefault(source, [])
                if not entry["values"]:
                    published[f"{AVERAGE}{suffix}"] = entry["average"]
                    if entry["average"] is None:
                        missing.append(f"{AVERAGE}{suffix}")
                    continue
                values = [entry["values"].get(lang) for lang in languages]
                for lang, value in zip(languages, values, strict=True):
                    published[f"{lang}{suffix}"] = value
                    if value is None and lang in entry["values"]:
                        missing.append(f"{lang}{suffix}")
                complete = all(v is not None for v in values)
                published[f"{AVERAGE}{suffix}"] = sum(values) / len(values) if complete else None
                # the paper has every language of the table, one of them unsourced
                if not complete and all(lang in entry["values"] for lang in languages):
                    missing.append(f"{AVERAGE}{suffix}")
        found = []
        for source, published in by_source.items():
            if unsourced[source]:
                published[UNSOURCED_COLUMN] = UNSOURCED_SEPARATOR.join(unsourced[source])
            numbers = [v for c, v in published.items() if c != UNSOURCED_COLUMN]
            if any(value is not None for value in numbers) or unsourced[source]:
                found.append((source, published, apart.get(source, set())))
        return found

    return interleave_published(table, published_of)


def interleave_published(
    table: pd.DataFrame,
    published_of: Callable[[pd.Series], list[tuple[str, dict[str, Any], set[str]]]],
) -> pd.DataFrame:
    """``table`` with a ``row`` column; after each row, for every (reference label, published
    values, columns not to compare) that ``published_of(row)`` gives (column -> number, or None
    where the paper has none), a ``published`` row and an ``ours - published`` row, labelled in
    a ``reference`` column (present only when some row has one)."""
    rows = []
    for _, row in table.iterrows():
        ours = {**row.to_dict(), "row": OURS}
        rows.append(ours)
        key = {"model": row["model"], "setting": row["setting"]}
        for source, published, apart in published_of(row):
            rows.append({**key, **published, "row": PUBLISHED, "reference": source})
            delta = {
                c: ours[c] - value
                for c, value in published.items()
                if c != UNSOURCED_COLUMN
                and value is not None
                and c not in apart
                and ours.get(c) is not None
                and not pd.isna(ours[c])
            }
            rows.append({**key, **delta, "row": DELTA, "reference": source})
    labelled = any("reference" in r for r in rows)
    unsourced = any(UNSOURCED_COLUMN in r for r in rows)
    columns = [
        "model",
        "setting",
        "row",
        *(["reference"] if labelled else []),
        *[c for c in table.columns if c not in ("model", "setting")],
        *([UNSOURCED_COLUMN] if unsourced else []),
    ]
    return pd.DataFrame(rows).reindex(columns=columns)
