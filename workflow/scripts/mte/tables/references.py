"""Published numbers (``config/references/*.yaml``) to print beside ours.

Every entry names its ``paper`` (``xlmr-paper``, ``xtreme``), ``table``, ``protocol`` (how the
paper ran it: "mean of 5 seeds", "one run") and ``source`` (where the number was read); an
entry that lacks one, or whose cells do not average to its published ``average``, is refused,
so a number never enters a table without a citation. Two papers may publish the same cell
(XLM-R large XNLI: 80.9 in the XLM-R paper, 79.2 in XTREME): both entries are printed, each
labelled with its paper and table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import InputError

REQUIRED = ("paper", "table", "protocol", "source", "model", "task", "setting", "metric")
# a published average is rounded to 0.1 and so are its cells: their mean may differ by 0.1
AVERAGE_TOLERANCE = 0.11


def cell_score(value: float | list[float]) -> float:
    """A cell's score: the number, or the mean of a QA cell's [F1, EM] (XTREME's score)."""
    return sum(value) / len(value) if isinstance(value, list) else float(value)


def check_reference(entry: Any, path: str | Path, index: int) -> dict[str, Any]:
    """One entry, or an :class:`InputError` naming the file and entry."""
    where = f"entry {index + 1}"
    if not isinstance(entry, dict):
        raise InputError(path, None, f"{where} is not a mapping")
    missing = [key for key in REQUIRED if not str(entry.get(key) or "").strip()]
    if missing:
        raise InputError(
            path,
            None,
            f"{where} lacks {', '.join(missing)} (every number needs its paper, table, "
            "protocol and the source it was read in)",
        )
    if not entry.get("values") and entry.get("average") is None:
        raise InputError(path, None, f"{where} has neither values nor an average")
    entry.setdefault("values", {})
    # an entry of per-language cells only (a partial appendix table) has no average
    entry.setdefault("average", None)
    averaged = entry.get("average_of") or list(entry["values"])
    if entry.get("average") is not None and entry["values"]:
        absent = [cell for cell in averaged if cell not in entry["values"]]
        if absent:
            raise InputError(path, None, f"{where}: average_of names {absent}, not in values")
        cells = [cell_score(entry["values"][cell]) for cell in averaged]
        mean = sum(cells) / len(cells)
        # a paper's own slip, entered as printed and explained in ``erratum``: its tables
        # then show the cells' mean
        if abs(mean - entry["average"]) > AVERAGE_TOLERANCE and not entry.get("erratum"):
            raise InputError(
                path,
                None,
                f"{where} ({label(entry)}): its cells average {mean:.2f}, not the published "
                f"{entry['average']}: a cell was mistyped",
            )
    return entry


def load_references(paths: list[str | Path]) -> list[dict[str, Any]]:
    """Every entry of the reference files, checked."""
    import yaml

    entries = []
    for path in paths:
        loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
        if not isinstance(loaded, list):
            raise InputError(path, None, "a reference file is a list of entries")
        entries += [check_reference(e, path, i) for i, e in enumerate(loaded)]
    return entries


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
    references: list[dict[str, Any]], model: str, task: str, setting: str, metric: str
) -> dict[str, Any] | None:
    """The first entry with per-language values for this model name, task, setting and metric
    (what a per-language bar plot can show), if one was published."""
    found = find_references(references, model, task, setting, metric)
    return next((entry for entry in found if entry["values"]), None)


def published_task_score(
    references: list[dict[str, Any]],
    model: str,
    task: str,
    setting: str,
    metrics: tuple[str, ...],
    table: tuple[str, str],
) -> tuple[float, dict[str, Any]] | None:
    """A task's published score in one paper's table (``(paper, table)``): the mean of the
    entries' averages over ``metrics`` (XTREME's QA cell: F1 and exact match), with the first
    entry; None unless every metric has one."""
    found = []
    for metric in metrics:
        entries = [
            entry
            for entry in find_references(references, model, task, setting, metric)
            if (entry["paper"], entry["table"]) == tuple(table) and entry.get("average") is not None
        ]
        if not entries:
            return None
        found.append(entries[0])
    return sum(e["average"] for e in found) / len(found), found[0]
