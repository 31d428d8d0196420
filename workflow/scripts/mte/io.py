"""File helpers: atomic writes, JSON Lines, checksums."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from mte.errors import InputError


def current_umask() -> int:
    """The process's umask (read by setting it, and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def with_umask_modes(path: str | Path) -> None:
    """Give ``path`` (a file, or a folder and everything in it) the read and write bits the
    user's umask allows new files (0644 files and 0755 folders under umask 022). Libraries that
    write through a private temporary file (safetensors' save_file: 0600) would otherwise keep
    a model's weights from the user's group on shared storage; no bit is taken away."""
    mask = current_umask()
    path = Path(path)
    if not path.exists():
        return
    found = [path, *path.rglob("*")] if path.is_dir() else [path]
    for item in found:
        if item.is_symlink():
            continue
        allowed = (0o777 if item.is_dir() else 0o666) & ~mask
        mode = item.stat().st_mode & 0o7777
        if mode | allowed != mode:
            os.chmod(item, mode | allowed)


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success.

    A killed job therefore never leaves a plausible-looking output behind.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        # mkstemp makes the file private (0600); the output gets the user's umask, as any file
        # they write does (on a shared cluster, their group reads the results)
        os.chmod(tmp_path, 0o666 & ~current_umask())
        os.replace(tmp_path, path)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` atomically as UTF-8."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path: str | Path, obj: Any) -> None:
    """Write ``obj`` atomically as indented JSON."""
    write_text(path, json.dumps(obj, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


def read_json(path: str | Path) -> Any:
    """Read a JSON file, naming the file if it is malformed."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise InputError(path, err.lineno, f"not valid JSON: {err.msg}") from err


def write_jsonl(path: str | Path, records: Iterable[dict[str, Any]]) -> int:
    """Write records atomically, one JSON object a line; returns the number written."""
    count = 0
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Read JSON Lines; a malformed line raises :class:`InputError` with its number."""
    records = []
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                raise InputError(path, number, "empty line in a JSON Lines file")
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise InputError(path, number, f"not valid JSON: {err.msg}") from err
            if not isinstance(record, dict):
                raise InputError(path, number, "expected a JSON object")
            records.append(record)
    return records


def sha256_file(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
