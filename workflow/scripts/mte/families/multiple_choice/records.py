"""Reading multiple-choice records: JSON lines, and the checks a spec's row adapter uses so
that a damaged record stops with what is wrong (the family adds the file and line)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from mte.errors import InputError
from mte.text import read_lines


def jsonl_records(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of every non-blank line of a JSON-lines file."""
    for number, line in read_lines(path):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(path, number, f"not JSON: {err.msg}") from None
        if not isinstance(record, dict):
            raise InputError(path, number, f"expected a JSON object, found {type(record).__name__}")
        yield number, record


def require(record: dict[str, Any], names: Sequence[str]) -> None:
    """A ValueError naming every field of ``names`` that ``record`` lacks."""
    missing = [name for name in names if name not in record]
    if missing:
        raise ValueError(f"lacks {', '.join(missing)}")


def integer(record: dict[str, Any], name: str) -> int:
    """The integer in field ``name``: a JSON integer, not a float (1.0), a string ("1") or a
    boolean."""
    value = record[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} {value!r} is not an integer")
    return value


def numbered_choice(value: Any, name: str, choices: int, first: int = 1) -> int:
    """The 0-based index of a choice written as its number from ``first`` in a string ("2", as
    Belebele's correct_answer_num and Social IQa's hub label write it)."""
    if not isinstance(value, str) or not value.strip().isdigit():
        raise ValueError(f"{name} {value!r} is not a choice number written as a string")
    index = int(value) - first
    if not 0 <= index < choices:
        raise ValueError(f"{name} {value!r} names no choice (there are {choices})")
    return index


def lettered_choice(value: Any, name: str, choices: int) -> int:
    """The 0-based index of a choice written as a capital letter (A, B, ...)."""
    letters = "ABCDEFGHIJ"[:choices]
    if not isinstance(value, str) or len(value) != 1 or value not in letters:
        raise ValueError(f"{name} {value!r} is not one of {', '.join(letters)}")
    return letters.index(value)
