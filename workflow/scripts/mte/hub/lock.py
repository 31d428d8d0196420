"""The data lock of a run config: what each task x language x split read the first time, held
against every later download.

A lock is one YAML file per run config (``config/xtreme.lock`` beside ``config/xtreme.yaml``),
written by the workflow at the end of a run and meant to be committed with the config: a team
that shares both reads the same bytes, or is told it does not. Per task it records the data
folder the config's source and pins name (``source``) and per ``<lang>/<split>`` what was read:
the commit a hub revision resolved to, the SHA-256 and count of the canonical examples file the
download step wrote, and the digest of each file read (the hub's LFS SHA-256 or git blob id, or
the SHA-256 of a local file). A later download of the same source whose bytes differ stops with
both sums; ``update_lock`` accepts them on purpose, and the accepted data's digest then enters
the task's data key (mte.config.plan.keys.data_key), so the results made from it are named apart.

A pin names what to read; the lock says what was read. MTEB and the hub's own clients stop at
the pin: a parquet export whose commits are squashed away, a branch that moves, or a file
replaced under a tag would change the data without a trace.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from pathlib import Path
from typing import Any

from mte.errors import MteError
from mte.io import write_text

LOCK_FORMAT = "mte-data-lock/1"
HEADER = (
    "# The data lock of {config}: what each download of the run read (docs/data-sources.md,\n"
    "# 'The data lock'). Written by the workflow at the end of a run; commit it with the config.\n"
    "# A download whose bytes differ from an entry stops; `make update-lock CONFIG={config}`\n"
    "# accepts new data on purpose (the task's data key changes with it).\n"
)


class DataLockError(MteError):
    """A download read other bytes than the lock records for the same pin, or the lock file
    cannot be read."""


def empty_lock() -> dict[str, Any]:
    return {"format": LOCK_FORMAT, "tasks": {}}


def read_lock(path: str | Path | None) -> dict[str, Any]:
    """The lock at ``path`` (an empty one where there is no file yet). A file that is not a lock
    is an error naming it and, for YAML, the line."""
    import yaml

    if not path or not Path(path).is_file():
        return empty_lock()
    try:
        lock = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = f", line {mark.line + 1}" if mark else ""
        raise DataLockError(f"{path}{line}: not a data lock: {err}") from None
    if not isinstance(lock, dict) or lock.get("format") != LOCK_FORMAT:
        raise DataLockError(
            f"{path}: not a data lock (its first key must be format: {LOCK_FORMAT}); move it "
            "away or give the config's data_lock another file"
        )
    lock.setdefault("tasks", {})
    return lock


def write_lock(path: str | Path, lock: dict[str, Any], config_name: str) -> None:
    """The lock as YAML with its header, keys sorted so that a change reads as a small diff;
    written atomically (a reader never sees half a file)."""
    import yaml

    body = yaml.safe_dump(lock, sort_keys=True, allow_unicode=True, width=100)
    write_text(path, HEADER.format(config=config_name) + body)


def _digest(payload: Any) -> str:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def entry_of(meta: dict[str, Any]) -> dict[str, Any]:
    """The lock entry of one download, from its data record (the ``.meta.json`` the download
    step writes): the commit read, the canonical examples' SHA-256 and count, and the digest of
    each file read (hub paths; a local file by its name)."""
    files = dict(meta.get("files_read") or {})
    for record in meta.get("files") or ():
        files[Path(record["file"]).name] = f"sha256:{record['sha256']}"
    return {
        "commit": meta.get("commit"),
        "examples": {"sha256": meta["sha256_jsonl"], "count": meta["count"]},
        "files": files,
    }


def task_record(lock: dict[str, Any], task: str, source: str) -> dict[str, Any] | None:
    """The lock's record of ``task`` when it is of the same source and pins (``source``, the
    data key the config names before any accepted update); None for another source (the config
    changed the task's pins: a new data folder, recorded afresh)."""
    record = lock["tasks"].get(task)
    return record if record and record.get("source") == source else None


def accepted_digest(lock: dict[str, Any], task: str, source: str) -> str | None:
    """The digest of the data accepted by an update of ``task``, which its data key carries;
    None for data only ever recorded (a first download never renames what it made)."""
    record = task_record(lock, task, source)
    return (record.get("accepted") or {}).get("digest") if record else None


def differences(locked: dict[str, Any], read: dict[str, Any]) -> list[str]:
    """How a download differs from its lock entry: the examples' SHA-256, or a file read under
    the same path with another digest (a digest the hub did not give, offline, is not compared);
    an empty list where they agree."""
    lines = []
    if locked["examples"]["sha256"] != read["examples"]["sha256"]:
        lines.append(
            f"examples: sha256 {read['examples']['sha256']} ({read['examples']['count']}), the "
            f"lock has {locked['examples']['sha256']} ({locked['examples']['count']})"
        )
    for path, digest in sorted(read.get("files", {}).items()):
        before = locked.get("files", {}).get(path)
        if digest and before and digest != before:
            lines.append(f"file {path}: {digest}, the lock has {before}")
    return lines


def check_download(
    lock_path: str | None,
    task: str,
    source: str,
    part: str,
    read: dict[str, Any],
    written: str,
    accept: bool,
) -> str:
    """Hold one download (``part``: ``<lang>/<split>``) to the lock: "recorded" (no entry
    yet), "matched", or "accepted" (other bytes, ``update_lock`` on). Other bytes without
    ``accept`` raise :class:`DataLockError` with both sums and the file written (which the
    caller removes)."""
    if not lock_path:
        return "unlocked"
    record = task_record(read_lock(lock_path), task, source)
    locked = (record or {}).get("splits", {}).get(part)
    if locked is None:
        return "recorded"
    changed = differences(locked, read)
    if not changed:
        return "matched"
    if accept:
        return "accepted"
    # a source read without commits (files, a bundled demo) has nothing to say of them
    commits = (read.get("commit"), locked.get("commit"))
    pins = f" and pins (commit read {commits[0]}, the lock's {commits[1]})" if any(commits) else ""
    raise DataLockError(
        f"{task} {part}: the download read other data than the data lock {lock_path} records "
        f"for the same source{pins}: {'; '.join(changed)}. File written: {written} "
        f"(removed). To accept the new data on purpose: `make update-lock CONFIG=<config>` "
        f"(snakemake --config update_lock=true: the downloads only); the task's data key changes "
        f"with it, and its jobs run again"
    )


def merge_task(
    lock: dict[str, Any], task: str, source: str, reads: dict[str, dict[str, Any]], accept: bool
) -> tuple[list[str], list[str]]:
    """Add the downloads ``reads`` (``<lang>/<split>`` -> entry) of ``task`` to ``lock``: a
    part without an entry is recorded; a part whose bytes differ replaces its entry only with
    ``accept``, and then the task's accepted digest changes (its data key with it). Returns one
    line per change of what the lock holds (recorded parts are counted, not listed), and the
    parts accepted."""
    record = task_record(lock, task, source)
    if record is None:
        record = {"source": source, "accepted": None, "splits": {}}
        lock["tasks"][task] = record
    lines, recorded, accepted = [], 0, []
    for part, read in sorted(reads.items()):
        locked = record["splits"].get(part)
        if locked is None:
            record["splits"][part] = read
            recorded += 1
        elif accept and (changed := differences(locked, read)):
            record["splits"][part] = read
            accepted.append(part)
            lines.append(f"{task} {part}: accepted: {'; '.join(changed)}")
    if accepted:
        before = (record.get("accepted") or {}).get("digest")
        record["accepted"] = {
            "digest": _digest(record["splits"]),
            "at": datetime.date.today().isoformat(),
            "previous": before,
        }
        lines.append(
            f"{task}: data accepted as {record['accepted']['digest']} (was "
            f"{before or 'the first recorded data'}): its data key changes, and the next run "
            "downloads it again into the new folder and reruns its jobs"
        )
    if recorded:
        lines.insert(0, f"{task}: {recorded} download(s) recorded")
    return lines, accepted
