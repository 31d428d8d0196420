"""A run's predictions as a leaderboard submission folder: per task evaluate.py's folder,
per test language its ``test-{lang}.{suffix}`` written by the task's family from the
prediction file, the gold test file (for the order) and the score file (the layer choice and
BUCC's threshold it scored); a ``submission.txt`` naming the model, its revision, the setting,
the seed, the data and the code, and each task or language the leaderboard has and the run
lacks, one line each. A folder is zipped (``zip_submission``) when nothing is missing, or when
asked."""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mte.errors import MteError
from mte.io import read_json, read_jsonl, write_text
from mte.registry import family_of, get_task
from mte.submission.versions import Leaderboard

ABOUT = "submission.txt"
MISSING_HEADER = "missing:"


@dataclass(frozen=True)
class Entry:
    """One task x language of a finished run: its prediction, gold test and score files."""

    task: str
    language: str
    predictions: str
    gold: str
    score: str


def missing_lines(board: Leaderboard, present: dict[str, set[str]]) -> list[str]:
    """What the leaderboard scores and ``present`` (task -> languages) lacks: a task not run,
    or the languages a run task lacks, one line each."""
    lines = []
    for task in board.tasks:
        folder = board.folders[task]
        if task not in present:
            lines.append(f"{folder}: the task is not in the run ({get_task(task).title})")
            continue
        for language in board.languages[task]:
            if language not in present[task]:
                lines.append(f"{folder}/{board.file_name(task, language)}: not in the run")
    return lines


def _data_line(score: dict[str, Any]) -> str:
    test = (score.get("provenance", {}).get("data") or [{}])[-1]
    lock = test.get("lock") or {}
    parts = [f"source {test.get('source', '?')}"]
    if test.get("commit") or test.get("revision"):
        parts.append(f"commit {test.get('commit') or test.get('revision')}")
    parts.append(f"examples sha256 {test.get('sha256_jsonl', '?')}")
    if lock.get("file"):
        parts.append(f"data lock {lock['file']} ({lock.get('state', '?')})")
    return ", ".join(parts)


def model_lines(model: dict[str, Any]) -> list[str]:
    """The model and its revision as a score file's provenance records them: a hub model's
    id and commit, a packaged one's file and checksum, a local folder's files' checksums."""
    where = model.get("id") or model.get("upstream") or model.get("path") or "?"
    if model.get("commit") or model.get("revision"):
        revision = f"commit {model.get('commit') or model.get('revision')}"
    elif isinstance(model.get("sha256"), dict):
        revision = ", ".join(f"{name} sha256:{digest}" for name, digest in model["sha256"].items())
    else:
        revision = f"sha256:{model.get('sha256', '?')}"
        if model.get("package_version"):
            revision += f" ({model['source']} {model['package_version']})"
    return [
        f"model: {model.get('name')} ({model.get('source', '?')}: {where})",
        f"model revision: {revision}",
    ]


def about_text(
    board: Leaderboard, scores: dict[tuple[str, str], dict], missing: Sequence[str]
) -> str:
    """The text file of the folder: what made the predictions, and what is missing."""
    first = next(iter(scores.values()))
    provenance = first.get("provenance", {})
    lines = [
        f"XTREME leaderboard submission (evaluate.py --xtreme_version {board.name})",
        *model_lines({"name": first.get("model"), **provenance.get("model", {})}),
        f"setting: {first.get('setting')}",
        f"seed: {first.get('seed')}",
        f"code: {provenance.get('code', {}).get('package', 'mte')} "
        f"{provenance.get('code', {}).get('version', '?')}, digest "
        f"{provenance.get('code', {}).get('digest', '?')}",
        "data (each test file):",
        *(
            f"  {board.folders[task]}/{board.file_name(task, language)}: {_data_line(score)}"
            for (task, language), score in scores.items()
        ),
    ]
    if board.unread:
        lines.append(
            "not written (evaluate.py reads no file of it): "
            + ", ".join(get_task(t).title for t in board.unread)
        )
    lines.append(MISSING_HEADER + (" none" if not missing else ""))
    lines += [f"  {line}" for line in missing]
    return "\n".join(lines) + "\n"


def export_submission(
    entries: Sequence[Entry], board: Leaderboard, folder: str | Path
) -> list[str]:
    """Write the submission folder of one model x setting x seed; returns the missing lines."""
    folder = Path(folder)
    present: dict[str, set[str]] = {}
    scores: dict[tuple[str, str], dict] = {}
    for entry in entries:
        if entry.task not in board.tasks or entry.language not in board.languages[entry.task]:
            continue
        task = get_task(entry.task)
        score = read_json(entry.score)
        try:
            text = family_of(task).submission_predictions(
                task, read_jsonl(entry.predictions), read_jsonl(entry.gold), score
            )
        except MteError as err:
            raise MteError(f"{entry.predictions} (gold {entry.gold}): {err}") from None
        write_text(
            folder / board.folders[entry.task] / board.file_name(entry.task, entry.language), text
        )
        present.setdefault(entry.task, set()).add(entry.language)
        scores[(entry.task, entry.language)] = score
    if not scores:
        raise MteError(f"no task of the {board.name} leaderboard in the run: nothing to write")
    missing = missing_lines(board, present)
    write_text(folder / ABOUT, about_text(board, scores, missing))
    return missing


def recorded_missing(folder: str | Path) -> list[str]:
    """The missing lines a submission folder's text file records."""
    lines = (Path(folder) / ABOUT).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(MISSING_HEADER))
    return [line.strip() for line in lines[start + 1 :] if line.strip()]


def zip_submission(folder: str | Path, zip_path: str | Path, incomplete: bool) -> None:
    """The folder as a zip of its files but hidden ones (sorted, fixed timestamps: the same
    bytes for the same files). A folder that lacks tasks or languages is zipped only when
    ``incomplete`` asks."""
    folder = Path(folder)
    missing = recorded_missing(folder)
    if missing and not incomplete:
        raise MteError(
            f"{folder} lacks {len(missing)} file(s) of its leaderboard (listed in "
            f"{folder / ABOUT}); set submission.zip_incomplete: true to zip it all the same"
        )
    Path(zip_path).parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
        # not Snakemake's .snakemake_timestamp in a directory output, or any other hidden file
        files = [p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")]
        for path in sorted(files):
            info = zipfile.ZipInfo(str(path.relative_to(folder)), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
