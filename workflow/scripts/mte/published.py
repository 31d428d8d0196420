"""Published numbers read for a run: the entries of ``config/references/*.yaml`` and of a user's
own files (the config's ``references``), each checked against the task registry on load, then
merged.

An entry is one row of one paper's table for one model, task (or suite) and metric: ``values``
per language (a suite's: per task) and the table's ``average``. A cell the paper prints but no
source readable here gives is written ``null``: the tables print it ``n/s``
(mte.tables.references.UNSOURCED) instead of a blank. A user who holds the paper fills such
cells in a file of their own: an entry with the same paper, table, model, task, setting and
metric as an earlier file's fills its cells (and replaces those it gives again), and the merged
entry names both sources.

Each of these stops the run with one line naming the file, the line and the entry: a missing
citation (paper, table, protocol, source) or key; a task or suite the registry does not know; a
metric the task does not report (a suite's entries report ``score``); a language the task does
not have (a suite's cells: its tasks); a cell that is not a number; an average that is not the
mean of its complete row within rounding (a paper's own slip passes only with its
``erratum``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mte.errors import InputError
from mte.registry import TASKS, all_suites
from mte.tables.references import (
    AVERAGE_TOLERANCE,
    IDENTITY,
    cell_score,
    check_reference,
    complete_values,
    label,
)

# what a suite's entry (GLUE's Table 4 average, XTREME's Avg) reports
SUITE_METRIC = "score"
# the project's published numbers: config/references of the checkout this package lies in
# (workflow/scripts/mte/published.py)
PROJECT_REFERENCES = Path(__file__).resolve().parents[3] / "config" / "references"


def folder_files(folder: str | Path) -> list[Path]:
    """A folder's reference files in the papers' order of names (xlmr, xtreme, xtreme-r: by
    stem, so that XTREME's rows come before XTREME-R's)."""
    return sorted(Path(folder).glob("*.yaml"), key=lambda path: path.stem)


def _entry_lines(path: Path, text: str) -> list[int]:
    """The 1-based line where each entry of a reference file starts (YAML's node marks)."""
    import yaml

    node = yaml.compose(text)
    if node is None or not isinstance(node, yaml.SequenceNode):
        raise InputError(path, None, "a reference file is a list of entries")
    return [item.start_mark.line + 1 for item in node.value]


def read_reference_file(path: str | Path) -> list[tuple[dict[str, Any], int]]:
    """Every entry of one file with its line, checked on its own and against the registry."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise InputError(path, None, "no such references file (the config's references)")
    text = path.read_text(encoding="utf-8")
    loaded = yaml.safe_load(text) or []
    if not isinstance(loaded, list):
        raise InputError(path, None, "a reference file is a list of entries")
    lines = _entry_lines(path, text) if loaded else []
    entries = []
    for index, (raw, line) in enumerate(zip(loaded, lines, strict=True)):
        entry = check_reference(raw, path, index, line)
        check_against_registry(entry, path, index, line)
        entries.append((entry, line))
    return entries


def check_against_registry(entry: dict[str, Any], path: Path, index: int, line: int) -> None:
    """The entry's task (or suite), metric and languages (or a suite's tasks) exist."""
    where = f"entry {index + 1} ({label(entry)}, {entry['model']})"
    name, metric = entry["task"], entry["metric"]
    suites = all_suites()
    if name in suites:
        if metric != SUITE_METRIC:
            raise InputError(
                path, line, f"{where}: a suite's entry reports '{SUITE_METRIC}', not '{metric}'"
            )
        suite = suites[name]
        known = {*suite.tasks, *suite.merged}
        kind = f"a task of {suite.title}"
    elif name in TASKS:
        task = TASKS[name]
        if metric not in task.metrics:
            raise InputError(
                path,
                line,
                f"{where}: {task.title} does not report '{metric}' (its metrics: "
                f"{', '.join(task.metrics)})",
            )
        known = set(task.all_languages)
        kind = f"a language of {task.title}"
    else:
        raise InputError(
            path,
            line,
            f"{where}: '{name}' is neither a task nor a suite (tasks: mte.specs; suites: "
            f"{', '.join(suites)})",
        )
    unknown = [cell for cell in entry["values"] if cell not in known]
    if unknown:
        raise InputError(path, line, f"{where}: {', '.join(map(str, unknown))} is not {kind}")


def check_average(entry: dict[str, Any], path: Path, index: int, line: int) -> None:
    """A published average and the mean of its complete row agree within rounding."""
    cells = complete_values(entry)
    if entry["average"] is None or cells is None or entry.get("erratum"):
        return
    mean = sum(cell_score(value) for value in cells) / len(cells)
    if abs(mean - entry["average"]) > AVERAGE_TOLERANCE:
        raise InputError(
            path,
            line,
            f"entry {index + 1} ({label(entry)}, {entry['model']}, {entry['task']}): its cells "
            f"average {mean:.2f}, not the published {entry['average']}: a cell was mistyped",
        )


def _merge(earlier: dict[str, Any], later: dict[str, Any], path: Path) -> dict[str, Any]:
    """``earlier`` with the cells ``later`` gives: its numbers fill empty cells and replace
    given ones; the merged entry names both sources."""
    merged = dict(earlier)
    merged["values"] = {
        **earlier["values"],
        **{cell: value for cell, value in later["values"].items() if value is not None},
    }
    for cell in later["values"]:
        merged["values"].setdefault(cell, None)
    if later["average"] is not None:
        merged["average"] = later["average"]
    merged["has_average"] = earlier["has_average"] or later["has_average"]
    for option in ("average_of", "erratum"):
        if later.get(option):
            merged[option] = later[option]
    merged["source"] = f"{earlier['source']}; cells filled from {path}: {later['source']}"
    return merged


def load_references(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Every entry of the files, in order, checked; an entry of a later file with the identity
    of an earlier one (paper, table, model, task, setting, metric) merged into it, and the
    merged row's average checked again."""
    merged: dict[tuple, dict[str, Any]] = {}
    origin: dict[tuple, tuple[Path, int, int]] = {}
    for path in paths:
        path = Path(path)
        for index, (entry, line) in enumerate(read_reference_file(path)):
            key = tuple(entry[k] for k in IDENTITY)
            if key in merged:
                if origin[key][0] == path:
                    first = origin[key][2]
                    raise InputError(
                        path, line, f"entry {index + 1} repeats the entry at line {first}"
                    )
                merged[key] = _merge(merged[key], entry, path)
            else:
                merged[key], origin[key] = entry, (path, index, line)
            check_average(merged[key], path, index, line)
    return list(merged.values())
