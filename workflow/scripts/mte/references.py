"""Published numbers (``config/references/*.yaml``) to print beside ours.

Every entry carries its ``source`` (paper and table); an entry without one, or whose cells do
not average to its published ``average``, is refused, so a number never enters a table without
a citation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import InputError

REQUIRED = ("source", "model", "task", "setting", "metric", "values")
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
    missing = [key for key in REQUIRED if not entry.get(key)]
    if missing:
        raise InputError(
            path, None, f"{where} lacks {', '.join(missing)} (every number needs a source)"
        )
    if not str(entry["source"]).strip():
        raise InputError(path, None, f"{where} has an empty source")
    if "average" in entry:
        cells = [cell_score(v) for v in entry["values"].values()]
        mean = sum(cells) / len(cells)
        if abs(mean - entry["average"]) > AVERAGE_TOLERANCE:
            raise InputError(
                path,
                None,
                f"{where} ({entry['source']}): its cells average {mean:.2f}, not the published "
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


def find_reference(
    references: list[dict[str, Any]], model: str, task: str, setting: str, metric: str
) -> dict[str, Any] | None:
    """The entry for this model name, task, setting and metric, if one was published."""
    for entry in references:
        key = (entry["model"], entry["task"], entry["setting"], entry["metric"])
        if key == (model, task, setting, metric):
            return entry
    return None
