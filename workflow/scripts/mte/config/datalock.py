"""The run's data lock at the level of a whole config: which downloads a run reads, whether the
data already in its folders agrees with the lock, and what the end of a run writes into it.
The lock file itself (its entries, the comparison, the merge) is mte.hub.lock's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mte.config.plan import RunPlan
from mte.hub.lock import (
    differences,
    entry_of,
    merge_task,
    read_lock,
    task_record,
    write_lock,
)
from mte.io import read_json
from mte.tasks.spec import TRANSLATED_SPLITS


def run_downloads(plan: RunPlan) -> Iterator[tuple[str, str, str]]:
    """(task, language, split) of every download a run of ``plan`` reads (the translated
    splits are made, not downloaded: they are not locked)."""
    for task in plan.tasks.values():
        for language, split in task.needed_splits:
            if split not in TRANSLATED_SPLITS:
                yield task.name, language, split


def check_local_data(
    plan: RunPlan, meta_of: Callable[[str, str, str], str]
) -> tuple[int, list[str]]:
    """Hold the data already downloaded into the run's folders (``meta_of(task, lang, split)``:
    the data record's path, the workflow's ``data_meta``) to the lock: the number that agree
    with an entry, and one line for each that does not (a lock pulled from a teammate whose
    data differs from what this checkout downloaded before it). Tasks the lock does not record
    are passed over without a look at their files."""
    path = plan.data_lock
    lock = read_lock(path)
    records = {
        task: task_record(lock, task, plan.source_key(task))
        for task in lock["tasks"]
        if task in plan.tasks
    }
    agree, problems = 0, []
    for task, language, split in run_downloads(plan):
        locked = (records.get(task) or {}).get("splits", {}).get(f"{language}/{split}")
        if locked is None:
            continue
        meta = Path(meta_of(task, language, split))
        if not meta.is_file():
            continue
        changed = differences(locked, entry_of(read_json(meta)))
        if not changed:
            agree += 1
            continue
        problems.append(
            f"{meta.parent}/{split}.jsonl holds other data than the data lock {path} records for "
            f"{task} {language}/{split}: {'; '.join(changed)}. Remove {meta.parent.parent} to "
            "download it again (held to the lock), or accept what a fresh download reads with "
            "make update-lock CONFIG=<config>"
        )
    return agree, problems


def record_downloads(
    plan: RunPlan, meta_of: Callable[[str, str, str], str], config_name: str, accept: bool
) -> list[str]:
    """At the end of a run: add each download of the run not yet in the lock; with ``accept``
    (``update_lock``), replace entries whose bytes differ and remove the data accepted from the
    folder named before (its key changes with the lock). Returns what changed, one line each;
    the lock is written only where something did."""
    path = plan.data_lock
    if not path:
        return []
    lock = read_lock(path)
    reads: dict[str, dict[str, dict[str, Any]]] = {}
    metas: dict[tuple[str, str], Path] = {}
    for task, language, split in run_downloads(plan):
        meta = Path(meta_of(task, language, split))
        if meta.is_file():
            part = f"{language}/{split}"
            reads.setdefault(task, {})[part] = entry_of(read_json(meta))
            metas[task, part] = meta
    lines = []
    for task, parts in reads.items():
        changed, accepted = merge_task(lock, task, plan.source_key(task), parts, accept)
        lines += changed
        for part in accepted:
            # the bytes now belong to the folder the new key names: none left under the old
            meta = metas[task, part]
            meta.unlink(missing_ok=True)
            meta.with_name(f"{part.split('/')[1]}.jsonl").unlink(missing_ok=True)
    if lines:
        write_lock(path, lock, config_name)
    return lines
