"""Published numbers (``config/references/*.yaml``, read by mte.published) to print beside ours.

Every entry names its ``paper`` (``xlmr-paper``, ``xtreme``, ``xtreme-r``), ``table``,
``protocol`` (how the paper ran it: "mean of 5 seeds", "one run") and ``source`` (where the
number was read); an entry that lacks one is refused, so a number never enters a table without a
citation. A cell the paper prints that no readable source gives is ``null``: it is printed
:data:`UNSOURCED`, never left blank. Two papers may publish the same cell (XLM-R large XNLI: 80.9
in the XLM-R paper, 79.2 in XTREME): both entries are printed, each labelled with its paper and
table.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mte.errors import InputError

REQUIRED = ("paper", "table", "protocol", "source", "model", "task", "setting", "metric")
# one published row: two entries with these alike are one (a later file fills the earlier)
IDENTITY = ("paper", "table", "model", "task", "setting", "metric")
# a published average is rounded to 0.1 and so are its cells: their mean may differ by 0.1
AVERAGE_TOLERANCE = 0.11
# how a table prints a published cell the paper has and no readable source gives; and one the
# published table does not have (a language it leaves out, a per-language cell of a table of
# averages)
UNSOURCED = "n/s"
NOT_PUBLISHED = "–"
UNSOURCED_NOTE = (
    f"{UNSOURCED}: the paper prints this cell, but no source readable here gives it "
    "(config/references; fill it in a references file of your own: docs/outputs.md, "
    f"'Published numbers'); {NOT_PUBLISHED}: not in that published table"
)


def cell_score(value: float | list[float]) -> float:
    """A cell's score: the number, or the mean of a QA cell's [F1, EM] (XTREME's score)."""
    return sum(value) / len(value) if isinstance(value, list) else float(value)


def _is_number(value: Any) -> bool:
    if isinstance(value, list):
        return len(value) == 2 and all(_is_number(v) for v in value)
    return isinstance(value, int | float) and not isinstance(value, bool)


def check_reference(
    entry: Any, path: str | Path, index: int, line: int | None = None
) -> dict[str, Any]:
    """One entry as written (its citation, its keys, its cells numbers or null), or an
    :class:`InputError` naming the file, line and entry; the entry with ``values`` and
    ``average`` filled in (null where absent) and ``has_average`` (whether the table has an
    average at all: an entry of per-language cells only, a partial appendix table, has none)."""
    where = f"entry {index + 1}"
    if not isinstance(entry, dict):
        raise InputError(path, line, f"{where} is not a mapping")
    missing = [key for key in REQUIRED if not str(entry.get(key) or "").strip()]
    if missing:
        raise InputError(
            path,
            line,
            f"{where} lacks {', '.join(missing)} (every number needs its paper, table, "
            "protocol and the source it was read in)",
        )
    if "values" not in entry and "average" not in entry:
        raise InputError(path, line, f"{where} has neither values nor an average")
    entry["values"] = entry.get("values") or {}
    if not isinstance(entry["values"], dict):
        raise InputError(path, line, f"{where}: values is a mapping of cells to numbers")
    entry["has_average"] = "average" in entry or not entry["values"]
    entry.setdefault("average", None)
    cells = {**entry["values"], "average": entry["average"]}
    for cell, value in cells.items():
        if value is not None and not _is_number(value):
            raise InputError(
                path, line, f"{where}: {cell} is {value!r}, not a number (or null: unsourced)"
            )
    averaged = entry.get("average_of")
    if averaged:
        absent = [cell for cell in averaged if cell not in entry["values"]]
        if absent:
            raise InputError(path, line, f"{where}: average_of names {absent}, not in values")
    return entry


def complete_values(entry: dict[str, Any]) -> list[Any] | None:
    """The cells an entry's average is the mean of (``average_of``, else every value), or None
    where the row has none or one of them is unsourced (the check cannot be made)."""
    averaged = entry.get("average_of") or list(entry["values"])
    cells = [entry["values"].get(cell) for cell in averaged]
    if not cells or any(value is None for value in cells):
        return None
    return cells


def unsourced_cells(entry: dict[str, Any]) -> list[str]:
    """The cells of an entry the paper prints and no readable source gives (``average`` for
    its average)."""
    cells = [cell for cell, value in entry["values"].items() if value is None]
    if entry["has_average"] and entry["average"] is None:
        cells.append("average")
    return cells


def label(entry: dict[str, Any]) -> str:
    """How a published row is labelled: paper, table and protocol."""
    return f"{entry['paper']} {entry['table']}, {entry['protocol']}"


def find_references(
    references: list[dict[str, Any]], model: str, task: str, setting: str, metric: str
) -> list[dict[str, Any]]:
    """Every entry for this model name, task, setting and metric, in file order."""
    key = (model, task, setting, metric)
    return [e for e in references if (e["model"], e["task"], e["setting"], e["metric"]) == key]


def find_reference(
    references: list[dict[str, Any]],
    model: str,
    task: str,
    setting: str,
    metric: str,
    languages: Iterable[str] | None = None,
) -> dict[str, Any] | None:
    """The first entry with per-language values for this model name, task, setting and metric
    (what a per-language bar plot can show), if one was published; with ``languages``, the
    first with a number for one of them."""
    found = find_references(references, model, task, setting, metric)
    return next((entry for entry in found if published_languages(entry, languages)), None)


def published_languages(entry: dict[str, Any], languages: Iterable[str] | None = None) -> list[str]:
    """The cells of an entry that hold a number (of ``languages``, where given)."""
    wanted = None if languages is None else set(languages)
    return [
        cell
        for cell, value in entry["values"].items()
        if value is not None and (wanted is None or cell in wanted)
    ]


def published_task_score(
    references: list[dict[str, Any]],
    model: str,
    task: str,
    setting: str,
    metrics: tuple[str, ...],
    table: tuple[str, str],
) -> tuple[float | None, dict[str, Any]] | None:
    """A task's published score in one paper's table (``(paper, table)``): the mean of the
    entries' averages over ``metrics`` (XTREME's QA cell: F1 and exact match), with the first
    entry; None where the table has no entry of some metric; (None, entry) where it has every
    one but no readable source gives one of their averages (printed :data:`UNSOURCED`)."""
    found = []
    for metric in metrics:
        entries = [
            entry
            for entry in find_references(references, model, task, setting, metric)
            if (entry["paper"], entry["table"]) == tuple(table) and entry["has_average"]
        ]
        if not entries:
            return None
        found.append(entries[0])
    if any(entry["average"] is None for entry in found):
        return None, found[0]
    return sum(e["average"] for e in found) / len(found), found[0]
