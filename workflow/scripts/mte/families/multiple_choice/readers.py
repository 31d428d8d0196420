"""Released multiple-choice files and hub rows into examples: each record through the spec's
row adapter, then checked (choices, label, the fields the templates read), so that a damaged
record stops with its file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import InputError, MteError
from mte.families.multiple_choice.records import jsonl_records
from mte.tasks.spec import Task


def check_example(task: Task, example: Any, position: int) -> dict[str, Any]:
    """The example a spec's adapter made, checked; a ValueError says what is wrong. Without
    an ``id`` it is named by its position (line or row)."""
    if not isinstance(example, dict):
        raise ValueError(f"the adapter made {type(example).__name__}, not an example")
    choices = example.get("choices")
    if not isinstance(choices, list) or len(choices) < 2:
        raise ValueError("needs a list of at least two choices")
    if not all(isinstance(choice, str) and choice.strip() for choice in choices):
        raise ValueError("every choice must be a non-empty string")
    label = example.get("label")
    if not isinstance(label, int) or isinstance(label, bool):
        raise ValueError(f"label {label!r} is not an integer")
    if not 0 <= label < len(choices):
        raise ValueError(f"label {label} names no choice (there are {len(choices)})")
    for name in task.options.fields():
        if name not in example:
            raise ValueError(f"lacks {name}")
        if not isinstance(example[name], str):
            raise ValueError(f"{name} {example[name]!r} is not a string")
    empty = [name for name in task.options.text_fields if not example[name].strip()]
    if empty:
        raise ValueError(f"{', '.join(empty)} must be non-empty")
    return {"id": str(example.get("id", position)), **example}


def _adapted(task: Task, record: dict[str, Any], position: int) -> dict[str, Any]:
    """A record through the spec's adapter (none: the record is the example), checked."""
    try:
        example = task.row_adapter(record) if task.row_adapter else record
    except KeyError as err:
        raise ValueError(f"lacks {err}") from None
    except TypeError as err:
        raise ValueError(str(err)) from None
    return check_example(task, example, position)


def _unique(examples: list[dict[str, Any]], where: str | Path) -> list[dict[str, Any]]:
    ids = [e["id"] for e in examples]
    if len(set(ids)) != len(ids):
        repeated = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise InputError(where, None, f"repeated example ids: {', '.join(repeated)}")
    return examples


def read_choice_file(task: Task, path: Path, split: str = "test") -> list[dict[str, Any]]:
    """One released file's records of ``split``: JSON lines, each a record, unless the spec
    reads them otherwise (its ``records`` option, told the split)."""
    examples = []
    records = task.options.records(path, split) if task.options.records else jsonl_records(path)
    for number, record in records:
        try:
            examples.append(_adapted(task, record, number))
        except ValueError as err:
            raise InputError(path, number, str(err)) from None
    if not examples:
        raise InputError(path, None, "no examples")
    return _unique(examples, path)


def read_choice_files(task: Task, paths: list[Path], split: str) -> list[dict[str, Any]]:
    return [example for path in paths for example in read_choice_file(task, path, split)]


def choice_examples_from_hub(task: Task, dataset: Any, name: str) -> list[dict[str, Any]]:
    """A hub split's rows through the spec's adapter; a damaged row is named by its 1-based
    position, as a file's line would be."""
    examples = []
    for number, row in enumerate(dataset, 1):
        try:
            examples.append(_adapted(task, dict(row), number))
        except ValueError as err:
            raise MteError(f"{name}: row {number}: {err}") from None
    if not examples:
        raise MteError(f"{name}: no examples")
    return _unique(examples, name)
