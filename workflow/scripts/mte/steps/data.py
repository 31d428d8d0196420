"""Materialise one task x language x split from its source into canonical examples."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

from mte.errors import ConfigError
from mte.hub.datasets import RevisionNotServedError, load_from_repo, offline_hint
from mte.hub.network import HubUnavailableError
from mte.io import sha256_file
from mte.registry import family_of
from mte.tasks.spec import TRANSLATED_SPLITS, Task
from mte.text import read_lines


def has_no_labels(task: Task, path: Path) -> bool:
    """An XTREME processed TSV without its labels: pair lines of two fields (text_a, text_b),
    or tagging lines of a token alone. The first non-blank line decides."""
    if not task.labelled_release or path.suffix != ".tsv":
        return False
    for _, line in read_lines(path):
        if line.strip():
            return len(line.split("\t")) == family_of(task).unlabelled_fields
    return False


# XTREME's release of its translations names them so (one folder per task)
TRANSLATION_FILES = {
    "translate-train": "translate-train/en-{lang}-translated.{ext}",
    "translate-test": "translate-test/test-{lang}-en-translated.{ext}",
    "pseudo-test": "pseudo-test/test-en-{lang}-translated.{ext}",
}


def demo_dir(task: Task) -> Path:
    """The folder of the demo data shipped inside the package for ``task``."""
    return Path(str(resources.files("mte") / "demo" / task.name))


def _expand(template: Path) -> list[Path]:
    """The files a template names; a ``*`` in any part (``UD_*/{lang}_*-ud-test.conllu``:
    every treebank folder of a Universal Dependencies release) takes every match, ordered by
    file name as XTREME's preprocessing reads a language's treebanks."""
    parts = template.parts
    wild = next((i for i, part in enumerate(parts) if "*" in part), None)
    if wild is None:
        return [template] if template.is_file() else []
    root = Path(*parts[:wild]) if wild else Path(".")
    found = [path for path in root.glob(str(Path(*parts[wild:]))) if path.is_file()]
    return sorted(found, key=lambda path: (path.name, str(path)))


def candidate_files(task: Task, task_cfg: dict[str, Any], language: str, split: str) -> list[Path]:
    """The file templates that may hold ``split`` of ``language``, in the order tried."""
    if split in TRANSLATED_SPLITS:
        translations = task_cfg.get("translations") or {}
        template = (translations.get("files") or {}).get(split) or TRANSLATION_FILES[split]
        ext = family_of(task).translation_extension
        name = template.format(lang=language, ext=ext)
        return [Path(translations.get("path") or ".") / name]
    if task_cfg["source"] == "demo":
        return [demo_dir(task) / f"{split}-{language}.tsv"]
    base = Path(task_cfg.get("path") or ".")
    explicit = (task_cfg.get("files") or {}).get(split)
    templates = (explicit,) if explicit else task.files.get(split, ())
    code = task.file_codes.get(language, language)
    context, _, question = language.partition("-")
    keys = {"lang": language, "code": code, "context": context, "question": question or context}
    return [base / template.format(**keys) for template in templates]


def absent_files(task: Task, task_cfg: dict[str, Any], language: str, split: str) -> list[Path]:
    """The file templates tried for ``split`` of ``language`` when none of them exists (a
    folder without the language, such as a copy of XTREME's download/ missing PAN-X's th);
    empty when one exists, whatever else may be wrong with it (:func:`resolve_files` says)."""
    candidates = candidate_files(task, task_cfg, language, split)
    if any(_expand(candidate) for candidate in candidates):
        return []
    return candidates


def resolve_files(task: Task, task_cfg: dict[str, Any], language: str, split: str) -> list[Path]:
    """The files of the first candidate that exists, or a :class:`ConfigError` naming what
    was tried."""
    candidates = candidate_files(task, task_cfg, language, split)
    folder = task_cfg.get("path")
    if task_cfg["source"] == "files" and folder and not Path(folder).is_dir():
        step = f"; {task.manual_step}" if task.manual_step else ""
        raise ConfigError(
            f"tasks.{task.name}.path",
            f"the folder {folder} does not exist{step} (give the folder that holds the "
            "released files: docs/running.md, 'Running on local files')",
        )
    unlabelled = None
    for candidate in candidates:
        found = _expand(candidate)
        # a folder with XTREME's unlabelled test-{lang}.tsv and a labelled release beside it:
        # the labelled one is read
        if found and split not in TRANSLATED_SPLITS and has_no_labels(task, found[0]):
            unlabelled = unlabelled or found[0]
            continue
        if found:
            return found
    key = f"tasks.{task.name}.{'files' if task_cfg.get('files') else 'path'}"
    if unlabelled is not None:
        where = task.labelled_release.format(lang=language)
        raise ConfigError(
            key,
            f"{unlabelled} has no labels (XTREME's processed {split} files of {task.title} hide "
            f"them): give the labelled release, {where}",
        )
    if split in TRANSLATED_SPLITS:
        translations = task_cfg.get("translations") or {}
        explicit = split in (translations.get("files") or {})
        key = f"tasks.{task.name}.translations.{'files' if explicit else 'path'}"
    elif task_cfg["source"] == "demo":
        key = f"tasks.{task.name}.languages"
    if not candidates and split == "train" and not task.files.get("train"):
        # a test set without a training set of its own (Belebele)
        raise ConfigError(
            f"tasks.{task.name}.models_of",
            f"{task.title} releases no training set: name a configured task of its family whose "
            "fine-tunes it evaluates (models_of), or give its training file (files.train)",
        )
    if not candidates:
        raise ConfigError(key, f"{task.title} releases no {split} files (give files.{split})")
    tried = ", ".join(str(c) for c in candidates)
    raise ConfigError(
        key, f"no {split} file for {task.title} language '{language}' (looked for: {tried})"
    )


def released_files(task: Task, task_cfg: dict[str, Any], language: str, split: str) -> list[str]:
    """The files a download job of a files or demo source reads (with their companions), as
    its inputs: a file changed on disk reruns the job. None where they cannot be resolved (the
    config's checks have said why, or the job will)."""
    try:
        paths = resolve_files(task, task_cfg, language, split)
    except ConfigError:
        return []
    read = [*paths, *(c for p in paths for c in family_of(task).companion_files(task, p))]
    return [str(path) for path in read if path.is_file()]


def unread_beside(task: Task, paths: list[Path], language: str, split: str) -> list[str]:
    """Files beside those the task's layouts read whose names hold ``language`` and ``split``
    as words and no other language of the task (a UD v1 ``ar-ud-test.conllu`` beside the v2
    ``ar_padt-ud-test.conllu`` that was read; not MLQA's other language pairs): no layout of the
    task took them, and the job says so."""

    def holds(name: str, word: str) -> bool:
        return re.search(rf"(?<![0-9A-Za-z]){re.escape(word)}(?![0-9A-Za-z])", name) is not None

    others = [other for other in task.languages if other != language]
    read = {path.resolve() for path in paths}
    left = []
    for folder in sorted({path.parent for path in paths}):
        for other in sorted(folder.iterdir()):
            if not other.is_file() or other.resolve() in read:
                continue
            named = holds(other.name, language) and holds(other.name, split)
            if named and not any(holds(other.name, code) for code in others):
                left.append(str(other))
    return left


def hub_location(task: Task, language: str, split: str = "test") -> tuple[str, str | None]:
    """The hub dataset id and config that hold ``split`` of ``language`` of ``task``; a task
    that is not on the hub (no ``hub_id``: MCTest's release is files only) says so."""
    if not task.hub_id:
        raise ConfigError(
            f"tasks.{task.name}.source",
            f"{task.title} is not on the Hugging Face hub; use source: files",
        )
    if task.hub_configs or family_of(task).hub_configs_required:
        if language not in task.hub_configs:
            raise ConfigError(
                f"tasks.{task.name}.source",
                f"{task.title} '{language}' is not on the Hugging Face hub; use source: files",
            )
        return task.hub_configs[language]
    return task.hub_id, language


def read_files(task: Task, paths: list[Path], language: str, split: str) -> list[dict[str, Any]]:
    """Read released files of ``task`` with the reader of its family."""
    return family_of(task).read_files(task, paths, language, split)


def materialize(
    task: Task, task_cfg: dict[str, Any], language: str, split: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Read ``split`` of ``language`` from the task's configured source.

    Returns the canonical examples and a provenance record (source, files and checksums, or
    hub id, config and revision).
    """
    source = task_cfg["source"]
    if split in TRANSLATED_SPLITS:
        source = "files"
    if source == "release":
        # the fetched release (rule fetch_release) is read as a folder of released files
        folder = Path(task_cfg["release_dir"]) / task.release.root_for(language)
        release_cfg = {**task_cfg, "source": "files", "path": str(folder)}
        examples, origin = materialize(task, release_cfg, language, split)
        origin["source"] = "release"
        origin["release"] = [
            {"url": f.url, "name": f.name, "sha256": f.sha256 or "recorded at first download"}
            for f in task.release.files_for([language])
        ]
        return examples, origin
    if source in ("demo", "files"):
        paths = resolve_files(task, task_cfg, language, split)
        examples = read_files(task, paths, language, split)
        # and the files read with them (BUCC's .en and .gold beside de-en.test.de)
        read = [*paths, *(c for p in paths for c in family_of(task).companion_files(task, p))]
        origin = {
            "source": source,
            "files": [{"file": str(p), "sha256": sha256_file(p)} for p in read],
        }
        # files the user named (files:) were chosen; the task's own layouts may miss some
        chosen = split in (task_cfg.get("files") or {}) or split in TRANSLATED_SPLITS
        if not chosen and (left := unread_beside(task, read, language, split)):
            origin["not_read"] = left
    elif source == "hub":
        hub_id, config_name = hub_location(task, language, split)
        repo = task.hub_repo(hub_id)
        key = f"tasks.{task.name}"
        try:
            dataset, read = load_from_repo(
                repo, config_name, task.hub_splits[split], task_cfg.get("revision"),
                offline_hint(key), key=key,
            )  # fmt: skip
        except RevisionNotServedError:
            raise  # its line names the task's key already
        except HubUnavailableError as err:
            # the task's key first: which of a config's tasks to point at local files
            raise HubUnavailableError(f"{key}: {err}") from err
        name = f"{hub_id} {config_name}"
        examples, noted = family_of(task).read_hub_noted(task, dataset, name, language)
        origin = {
            "source": "hub",
            **read,
            "fingerprint": getattr(dataset, "_fingerprint", None),
            **noted,
        }
    else:
        raise ConfigError(f"tasks.{task.name}.source", f"unknown source '{source}'")
    family_of(task).after_read(task, examples, origin)
    # a translation keeps the subset of what it translates (the files are parallel)
    original = {"translate-train": "train"}.get(split, split)
    if split in ("translate-test", "pseudo-test"):
        original = task_cfg.get("eval_split") or task.default_eval_split
    subset = (task_cfg.get("subset") or {}).get(original)
    if subset:
        examples, origin["subset"] = take_subset(examples, subset)
    return examples, origin


def take_subset(
    examples: list[dict[str, Any]], subset: dict[str, int]
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """At most the first or last N examples, in file order, and the subset's record: the
    config's ``{first: N}`` or ``{last: N}``, with ``kept`` the number taken where the split has
    fewer than N (PAN-X yo's 100 of a subset of 1000), so that what ran is on record."""
    ((where, size),) = subset.items()
    taken = examples[:size] if where == "first" else examples[-size:]
    if len(taken) < size:
        return taken, {where: size, "kept": len(taken)}
    return taken, dict(subset)


def read_notes(origin: dict[str, Any], language: str, split: str) -> tuple[str, list[str]]:
    """What a download job says of what it read: the console line's note (the source, and
    what is worth a look) and the warnings for its log."""
    notes, warnings = [origin.get("source", "files")], []
    if origin.get("lock", {}).get("state") == "accepted":
        notes.append("other bytes than the data lock's: accepted (update_lock)")
    if origin.get("unlabelled"):
        done = origin["unlabelled"]
        notes.append(f"{done['count']} row(s) without a label: {done['handled']}")
        warnings.append(
            f"{done['count']} row(s) of {split} have no label the task knows (the hub's -1): "
            f"{done['handled']}"
        )
    if origin.get("not_read"):
        names = ", ".join(Path(name).name for name in origin["not_read"])
        notes.append(f"not read beside it: {names}")
        warnings.append(
            f"read {', '.join(f['file'] for f in origin['files'])}; not read, though their "
            f"names hold {language} and {split}: {', '.join(origin['not_read'])} (no file layout "
            f"of the task takes them; give files.{split} to read one instead)"
        )
    if "kept" in origin.get("subset", {}):
        notes.append("fewer than the subset asks for")
        asked = {k: v for k, v in origin["subset"].items() if k != "kept"}
        warnings.append(
            f"the subset {asked} asks for more examples than {split} has: all "
            f"{origin['subset']['kept']} kept"
        )
    if origin.get("empty_tokens"):
        warnings.append(
            f"{origin['empty_tokens']} word(s) with an empty token (a line 'TAB tag') were read "
            "and kept as words with no text, each with its gold tag; they get the unknown "
            "sub-token"
        )
    return "; ".join(notes), warnings
