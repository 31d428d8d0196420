"""Sentence(-pair) readers (XNLI, PAWS-X, MultiNLI, GLUE) into ``id, text_a, text_b, label``.

``text_b`` is None for single-sentence tasks (CoLA, SST-2); ``label`` is a label name, or a
float for regression (STS-B).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mte.errors import InputError, MteError
from mte.tasks.spec import Task
from mte.text import read_lines, some_examples, split_tsv


def canonical_label(task: Task, label: str) -> str | None:
    """The canonical spelling of ``label``, or None when it is not a label of the task."""
    label = task.options.label_aliases.get(label, label)
    return label if label in task.labels else None


HEADER_LABEL_NAMES = ("label", "gold_label")
ID_COLUMNS = ("pairID", "id", "index")
# XTREME's translate-train files: the English pair, its translation, the label
TRANSLATED_PAIR_COLUMNS = 5


def _label(task: Task, path: str | Path, number: int, raw: str) -> str | float:
    if not task.labels:  # a regression task (STS-B): a score
        try:
            return float(raw)
        except ValueError:
            raise InputError(path, number, f"score '{raw}' is not a number") from None
    label = canonical_label(task, raw.strip())
    if label is None:
        raise InputError(
            path,
            number,
            f"unknown label '{raw}' for {task.title} (expected one of {', '.join(task.labels)})",
        )
    return label


def read_pair_tsv(path: str | Path, task: Task, id_prefix: str = "") -> list[dict[str, Any]]:
    """XTREME's processed layout: ``text_a TAB text_b TAB label``, no header; or the layout of
    XTREME's translate-train release, ``en_a TAB en_b TAB translated_a TAB translated_b TAB
    label``, of which the translated pair is read. The first line decides the layout; every
    line must then have as many fields.

    A first line whose label field is a column name (``label``/``gold_label``) is taken as a
    header. Ids are ``{id_prefix}{line number}``: the files of one split are parallel across
    languages, so the same id names the same item in every language.
    """
    examples = []
    columns = None
    for number, line in read_lines(path):
        if not line and number > 1:
            raise InputError(path, number, "empty line in a pair TSV file")
        if columns is None:
            columns = TRANSLATED_PAIR_COLUMNS if line.count("\t") == 4 else 3
        fields = split_tsv(path, number, line, columns)
        if number == 1 and fields[-1].strip() in HEADER_LABEL_NAMES:
            continue
        examples.append(
            {
                "id": f"{id_prefix}{number}",
                "text_a": fields[-3],
                "text_b": fields[-2],
                "label": _label(task, path, number, fields[-1]),
            }
        )
    return some_examples(examples, path, "examples")


def _table_rows(path: str | Path, csv_quoting: bool) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of a header-named TSV file, the header first: fields split on TAB
    only, or with ``csv_quoting`` as Python's csv module reads what pandas' ``to_csv`` wrote (a
    field holding a quote, TAB or line break is quoted, its quotes doubled); a record's number
    is the line it starts on. An empty line gives no fields."""
    if not csv_quoting:
        for number, line in read_lines(path):
            yield number, line.split("\t") if line else []
        return
    import csv

    with Path(path).open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t", quotechar='"', doublequote=True, strict=True)
        start = 1
        try:
            for fields in reader:
                yield start, fields
                start = reader.line_num + 1
        except csv.Error as err:
            raise InputError(path, start, f"not a CSV-quoted TSV record: {err}") from None
        except UnicodeDecodeError as err:
            raise InputError(
                path, None, f"not valid utf-8 (byte {err.start}): {err.reason}"
            ) from None


def read_pair_table(
    path: str | Path, task: Task, language: str | None = None
) -> list[dict[str, Any]]:
    """Header-named TSV: the original ``xnli.{dev,test}.tsv``, MultiNLI, PAWS-X ``x-final/``,
    the GLUE files and SIB-200's (written with CSV quoting, read as such: the task's options say
    so), with the columns named in ``task.options.table_columns``.

    A ``language`` column, when present, selects the rows of ``language``; ``pairID``, ``id``
    or ``index`` becomes the id (else the line number).
    """
    rows = _table_rows(path, task.options.csv_quoting)
    try:
        _, header = next(rows)
    except StopIteration:
        raise InputError(path, None, "empty file") from None
    wanted = [c for c in task.options.table_columns if c is not None]
    missing = [c for c in wanted if c not in header]
    if missing:
        raise InputError(path, 1, f"header lacks column(s) {', '.join(missing)}")
    col = {name: index for index, name in enumerate(header)}
    if language is not None and "language" not in col:
        raise InputError(path, 1, "header lacks the 'language' column needed to pick a language")
    id_column = next((c for c in (task.options.id_column, *ID_COLUMNS) if c and c in col), None)
    column_a, column_b, column_label = task.options.table_columns
    examples = []
    for number, fields in rows:
        if not fields:
            raise InputError(path, number, "empty line")
        if len(fields) != len(header):
            raise InputError(
                path, number, f"expected {len(header)} tab-separated fields, found {len(fields)}"
            )
        if language is not None and fields[col["language"]] != language:
            continue
        examples.append(
            {
                "id": fields[col[id_column]] if id_column else str(number),
                "text_a": fields[col[column_a]],
                "text_b": fields[col[column_b]] if column_b else None,
                "label": _label(task, path, number, fields[col[column_label]]),
            }
        )
    if not examples:
        what = f" for language '{language}'" if language else ""
        raise InputError(path, None, f"no examples{what}")
    return examples


def read_headerless(path: str | Path, task: Task) -> list[dict[str, Any]]:
    """Files without a header whose fields ``task.options.headerless_fields`` locates (GLUE CoLA:
    source, label, original label, sentence); ids are line numbers."""
    columns, field_a, field_b, field_label = task.options.headerless_fields
    examples = []
    for number, line in read_lines(path):
        fields = split_tsv(path, number, line, columns)
        examples.append(
            {
                "id": str(number),
                "text_a": fields[field_a],
                "text_b": fields[field_b] if field_b is not None else None,
                "label": _label(task, path, number, fields[field_label]),
            }
        )
    return some_examples(examples, path, "examples")


def read_pair_jsonl(path: str | Path, task: Task) -> list[dict[str, Any]]:
    """MultiNLI's JSON Lines release: ``sentence1``, ``sentence2``, ``gold_label``, ``pairID``."""
    examples = []
    for number, line in read_lines(path):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(path, number, f"not valid JSON: {err.msg}") from err
        try:
            text_a, text_b, raw = record["sentence1"], record["sentence2"], record["gold_label"]
        except (KeyError, TypeError) as err:
            raise InputError(path, number, f"missing field {err}") from None
        examples.append(
            {
                "id": str(record.get("pairID", number)),
                "text_a": text_a,
                "text_b": text_b,
                "label": _label(task, path, number, raw),
            }
        )
    return some_examples(examples, path, "examples")


def read_pairs(path: str | Path, task: Task, language: str) -> list[dict[str, Any]]:
    """Read any of the pair layouts, chosen by the file's name and first line."""
    path = Path(path)
    if path.suffix == ".jsonl":
        return read_pair_jsonl(path, task)
    first = next(read_lines(path), (1, ""))[1].split("\t")
    if {c for c in task.options.table_columns if c is not None} <= set(first):
        has_language = "language" in first
        return read_pair_table(path, task, language if has_language else None)
    if task.options.headerless_fields:
        return read_headerless(path, task)
    return read_pair_tsv(path, task)


def pair_examples_from_hub(
    dataset: Any, task: Task, id_prefix: str = "", notes: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Map a hub sentence(-pair) split into ``id, text_a, text_b, label``.

    Label ids go through the dataset's own ``ClassLabel`` names, never through our label order;
    a regression task (STS-B) keeps its float score. Single-sentence tasks have no ``text_b``.
    Ids: the row's ``id`` or ``idx`` (GLUE), else the row number. A label of -1 is an error,
    or, under the task's ``hub_missing_label``, handled as that says and counted in ``notes``
    (``unlabelled``: count and how).
    """
    split = str(getattr(dataset, "split", "") or "")
    policy = task.options.hub_missing_label
    missing = 0
    column_a, column_b = (*task.options.hub_text_columns, None)[:2]
    column = task.options.hub_label_column
    float_labels = not task.labels  # a regression task (STS-B): scores
    # a ClassLabel column holds ids into its names; a string column holds the names
    names = None if float_labels else getattr(dataset.features[column], "names", None)
    examples = []
    for index, row in enumerate(dataset):
        if float_labels:
            label = float(row[column])
        elif names is None:
            label = canonical_label(task, str(row[column]).strip())
            if label is None:
                raise MteError(
                    f"{task.hub_id}: row {index} has label '{row[column]}', not a label of "
                    f"{task.title} ({', '.join(task.labels)})"
                )
        else:
            label_id = row[column]
            if label_id == -1 and policy == "xtreme":
                missing += 1
                if split != "test":
                    continue  # XTREME's reader cannot read a training or dev row without one
                label_id = 0  # its processors label a test line without a label "0"
            if not 0 <= label_id < len(names):
                raise MteError(
                    f"{task.hub_id}: row {index} has label id {label_id}, outside the dataset's "
                    f"label names {names} (a test split without public labels?)"
                )
            label = canonical_label(task, names[label_id])
            if label is None:
                raise MteError(
                    f"{task.hub_id}: row {index} has label '{names[label_id]}', not a label of "
                    f"{task.title} ({', '.join(task.labels)})"
                )
        id_column = next((c for c in (task.options.id_column, "id", "idx") if c and c in row), None)
        example_id = str(row[id_column]) if id_column else f"{id_prefix}{index + 1}"
        examples.append(
            {
                "id": example_id,
                "text_a": row[column_a],
                "text_b": row[column_b] if column_b else None,
                "label": label,
            }
        )
    if missing and notes is not None:
        handled = (
            f"labelled {names[0]!r}, as XTREME's reader labels a test line without one"
            if split == "test"
            else "left out, as XTREME's reader cannot read them"
        )
        notes["unlabelled"] = {"count": missing, "handled": handled}
    return examples
