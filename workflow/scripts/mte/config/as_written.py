"""What is read of a config as it is written, before the schema's defaults: the tasks it skips
(``skip_tasks``, with the training sets only they used), fine-tune keys set on a task that uses
another task's fine-tunes, and the tasks whose folders await a step no URL can do."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mte.config.plan.resolve import PRETRAINED, models_of
from mte.errors import ConfigError
from mte.registry import TASKS, get_task
from mte.tasks.spec import Task

# what a task that evaluates another task's fine-tunes may not set: the fine-tune's own
SHARED_FINETUNE_KEYS = (
    "hyperparameters",
    "doc_stride",
    "do_lower_case",
    "windows",
    "max_query_length",
)


def check_shared_finetunes(config: dict[str, Any]) -> None:
    """A task evaluating another task's fine-tunes (XQuAD, MLQA, MLQA G-XLT: SQuAD's; MNLI-mm:
    MNLI's; Belebele: the configured one's) runs them with that task's hyper-parameters and
    windows; setting its own would be silently ignored, so it is an error. Runs on the config as
    written, before defaults."""
    for task_name, task_cfg in (config.get("tasks") or {}).items():
        if not isinstance(task_cfg, dict) or not isinstance(task_cfg.get("models_of", ""), str):
            continue
        owner_name = models_of(task_name, config)
        if not owner_name or owner_name not in TASKS:
            continue
        for key in (*SHARED_FINETUNE_KEYS, "start_from"):
            if key in task_cfg:
                owner = get_task(owner_name)
                raise ConfigError(
                    f"tasks.{task_name}.{key}",
                    f"{get_task(task_name).title} evaluates the {owner.title} fine-tune, which "
                    f"{owner_name} configures: set tasks.{owner_name}.{key} instead",
                )


@dataclass(frozen=True)
class AwaitedStep:
    """Configured tasks whose folder awaits one step no URL can do (Mewsli-X's
    get-mewsli-x.sh): a dry run plans them with a note, a real run stops before any job
    (common.smk), naming the step and the ``skip_tasks`` that runs the rest."""

    tasks: tuple[str, ...]
    folder: str
    step: str
    # what --config skip_tasks=[...] must hold to run every other task: the evaluated tasks
    # that need these files, with what the config skips already
    skip: tuple[str, ...]

    def message(self) -> str:
        titles = ", ".join(get_task(name).title for name in self.tasks)
        return (
            f"{titles}: {self.folder} does not exist yet: {self.step}. To run the other tasks "
            f"without it: --config skip_tasks=[{','.join(self.skip)}] (config/README.md, "
            "skip_tasks; the suite tables then say which task is missing)"
        )


def needed_tasks(task_name: str, config: dict[str, Any]) -> dict[str, str]:
    """The other configured tasks whose fine-tunes a task's runs need: task -> the key that
    names it (``models_of``, ``encoder``, ``start_from``)."""
    task_cfg = config["tasks"][task_name]
    needed = {
        "models_of": models_of(task_name, config),
        # read before the schema's defaults too (skip_tasks): absent, no other task is named
        "encoder": task_cfg.get("encoder") if isinstance(task_cfg, dict) else None,
        "start_from": task_cfg.get("start_from") if isinstance(task_cfg, dict) else None,
    }
    return {
        other: key
        for key, other in needed.items()
        if other and other != PRETRAINED and other != task_name
    }


def skip_tasks(config: dict[str, Any]) -> list[str]:
    """Remove the config's ``skip_tasks`` from its tasks (in place), with every training set
    only (SQuAD, Mewsli-X's Wikipedia pairs) that only skipped tasks used; return the removed
    tasks. A skipped name that is not configured, or a kept task that needs a skipped one's
    fine-tunes, is a ConfigError naming ``skip_tasks``. Runs before the schema's defaults."""
    asked = list(config.get("skip_tasks") or ())
    tasks = config.get("tasks") or {}
    for name in asked:
        if name not in tasks:
            raise ConfigError(
                "skip_tasks",
                f"'{name}' is not a configured task (configured: {', '.join(sorted(tasks))})",
            )
    users = {name: [n for n in tasks if name in needed_tasks(n, config)] for name in tasks}
    removed = list(dict.fromkeys(asked))
    changed = True
    while changed:
        changed = False
        for name, using in users.items():
            train_only = get_task(name).train_only
            if name not in removed and train_only and using and set(using) <= set(removed):
                removed.append(name)
                changed = True
    for name in removed:
        del tasks[name]
    if not tasks:
        raise ConfigError("skip_tasks", "every configured task is skipped: nothing to run")
    for name in tasks:
        for other, key in needed_tasks(name, config).items():
            if other in removed:
                raise ConfigError(
                    "skip_tasks",
                    f"{get_task(name).title} needs the fine-tunes of skipped '{other}' "
                    f"(tasks.{name}.{key}): skip {name} too, or keep {other}",
                )
    return removed


def awaits_manual_step(task: Task, task_cfg: dict[str, Any]) -> bool:
    """Whether a task's folder does not exist yet and its released files need a step no URL
    can do (Mewsli-X's get-mewsli-x.sh)."""
    folder = task_cfg.get("path")
    return bool(
        task_cfg["source"] == "files" and folder and not Path(folder).is_dir() and task.manual_step
    )


def awaited_steps(config: dict[str, Any]) -> list[AwaitedStep]:
    """The configured tasks whose released files await a step no URL can do, grouped by
    folder and step (Mewsli-X and its Wikipedia pairs: one folder, one step)."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for name, task_cfg in config["tasks"].items():
        task = get_task(name)
        if awaits_manual_step(task, task_cfg):
            grouped.setdefault((task_cfg["path"], task.manual_step), []).append(name)
    steps = []
    for (folder, step), names in grouped.items():
        skip = list(config.get("skip_tasks") or ())
        for name in names:
            using = [name] if not get_task(name).train_only else []
            using += [
                n
                for n in config["tasks"]
                if name in needed_tasks(n, config) and not get_task(n).train_only
            ]
            skip += using
        steps.append(AwaitedStep(tuple(names), folder, step, tuple(dict.fromkeys(skip))))
    return steps
