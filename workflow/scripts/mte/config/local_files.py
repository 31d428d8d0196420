"""What a ``source: files`` task's folder decides before the checks: where its relative
``path`` lies (``files_root``), and, under ``missing_files: skip``, which of its languages the
folder lacks (left out of the run, each with the file looked for)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.config.as_written import awaits_manual_step
from mte.config.plan.resolve import LEFT_OUT, eval_split_of, task_languages
from mte.errors import ConfigError
from mte.registry import family_of, get_task
from mte.steps.data import absent_files


def root_relative_paths(config: dict[str, Any]) -> None:
    """``files_root``: every relative ``path`` of a ``source: files`` task, and of files
    translations, is read below that folder (in place), so that one ``--config
    files_root=...`` points an overlay's tasks at a user's copy of a benchmark's files (such as
    XTREME's ``download/``). Absolute paths stay; without ``files_root`` nothing changes (the
    working directory, as before)."""
    root = config.get("files_root")
    if not root:
        return
    for task_cfg in config["tasks"].values():
        entries = [task_cfg] if task_cfg.get("source") == "files" else []
        translations = task_cfg.get("translations") or {}
        if translations.get("source") == "files":
            entries.append(translations)
        for entry in entries:
            if entry.get("path") and not Path(entry["path"]).is_absolute():
                entry["path"] = str(Path(root) / entry["path"])


def leave_out_missing_languages(config: dict[str, Any]) -> dict[str, dict[str, str]]:
    """``missing_files: skip``: the task's languages whose evaluated files its folder lacks are
    left out of the run (in place: the entry's ``languages`` become those kept, its
    ``left_out`` says why each other one is missing); returns task -> left_out. A language
    whose file is there but unreadable, a missing training or dev file, or a folder that holds
    none of the languages stays an error (the checks that follow raise it)."""
    left: dict[str, dict[str, str]] = {}
    for name, task_cfg in config["tasks"].items():
        task = get_task(name)
        if task_cfg.get("missing_files") != "skip" or task_cfg["source"] != "files":
            continue
        if not task_cfg.get("path") or not Path(task_cfg["path"]).is_dir():
            continue  # the checks say what is wrong with the folder (or the step it awaits)
        if awaits_manual_step(task, task_cfg):
            continue
        # a language the task does not have is an error, never a file left out
        chosen = task_cfg.get("languages")
        for language in chosen if isinstance(chosen, list) else ():
            task.check_language(language, f"tasks.{name}.languages")
        splits = (eval_split_of(name, config), *family_of(task).extra_eval_splits)
        missing: dict[str, str] = {}
        for language in task_languages(name, config):
            for split in splits:
                tried = absent_files(task, task_cfg, language, split)
                if tried:
                    names = ", ".join(_within(path, task_cfg["path"]) for path in tried)
                    folder = task_cfg["path"]
                    missing[language] = f"no {split} file in {folder} (looked for {names})"
                    break
        if not missing:
            continue
        kept = [language for language in task_languages(name, config) if language not in missing]
        if not kept:
            raise ConfigError(
                f"tasks.{name}.path",
                f"{task_cfg['path']} holds no {splits[0]} file of any {task.title} language "
                f"asked for ({', '.join(missing)}); missing_files: skip leaves out some, not all",
            )
        task_cfg["languages"] = kept
        task_cfg[LEFT_OUT] = missing
        left[name] = missing
    return left


def _within(path: Path, folder: str) -> str:
    """A file looked for, named within the task's folder where it lies there."""
    try:
        return str(Path(path).relative_to(folder))
    except ValueError:
        return str(path)
