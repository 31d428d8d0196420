"""The registry: every task family (the packages of ``mte.families``), every task and suite (the
modules of ``mte.specs``), each checked against the family contract when this module loads. A
family that lacks part of the contract, a spec naming a family that does not exist or carrying
another family's options, and a suite naming an unknown task fail here, naming themselves.

The workflow asks the registry for a task (:func:`get_task`) and its family (:func:`family_of`);
nothing below the specs imports it."""

from __future__ import annotations

import difflib
import importlib
import inspect
import pkgutil
from functools import cache
from types import ModuleType
from typing import Any

from mte.errors import ConfigError
from mte.families.base import (
    REQUIRED_ATTRIBUTES,
    FineTuningFamily,
    PooledRetrievingFamily,
    RetrievingFamily,
    TaskFamily,
)
from mte.hub.repos import HUB_STATUSES
from mte.tasks.spec import SUITE_LAYOUTS, Suite, Task


class FamilyContractError(TypeError):
    """A family class that does not keep the contract of :class:`TaskFamily`, or a task spec
    that does not keep its family's."""


# --- families ---


def _instantiate(cls: type[TaskFamily]) -> TaskFamily:
    missing = sorted(getattr(cls, "__abstractmethods__", ()))
    missing += [name for name in REQUIRED_ATTRIBUTES if not hasattr(cls, name)]
    if missing:
        raise FamilyContractError(
            f"task family {cls.__name__} ({inspect.getsourcefile(cls)}) lacks part of the "
            f"TaskFamily contract: {', '.join(missing)}"
        )
    # what the workflow does with a model for it: one of the two, never both
    kinds = [kind for kind in (FineTuningFamily, RetrievingFamily) if issubclass(cls, kind)]
    if len(kinds) != 1:
        raise FamilyContractError(
            f"task family {cls.__name__} ({inspect.getsourcefile(cls)}) must build on exactly "
            "one of FineTuningFamily and RetrievingFamily (mte.families.base), not "
            f"{len(kinds)}"
        )
    return cls()


def build_registry(classes: tuple[type[TaskFamily], ...]) -> dict[str, TaskFamily]:
    """Family name -> instance; a class that breaks the contract or repeats a name fails."""
    registry: dict[str, TaskFamily] = {}
    for cls in classes:
        family = _instantiate(cls)
        if family.name in registry:
            raise FamilyContractError(f"two task families are named '{family.name}'")
        registry[family.name] = family
    return registry


def discover_families(package: str = "mte.families") -> tuple[type[TaskFamily], ...]:
    """The ``FAMILY_CLASSES`` of every family package (or module) of ``package``, in name
    order (``base`` and names with a leading underscore are not families)."""
    classes: list[type[TaskFamily]] = []
    module = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(module.__path__), key=lambda i: i.name):
        if info.name == "base" or info.name.startswith("_"):
            continue
        family_module = importlib.import_module(f"{package}.{info.name}")
        found = getattr(family_module, "FAMILY_CLASSES", None)
        if not isinstance(found, tuple) or not found:
            raise FamilyContractError(
                f"task family module {family_module.__name__} must define FAMILY_CLASSES, a "
                "tuple of its TaskFamily classes"
            )
        for cls in found:
            if not (isinstance(cls, type) and issubclass(cls, TaskFamily)):
                raise FamilyContractError(
                    f"{family_module.__name__}.FAMILY_CLASSES holds {cls!r}, not a TaskFamily"
                )
        classes += found
    return tuple(classes)


# --- tasks and suites ---


def spec_modules(package: str = "mte.specs") -> list[ModuleType]:
    """The spec modules of ``package``, by name (modules named with a leading underscore are
    helpers): where tasks (``TASKS``) and suites (``SUITES``) are found."""
    module = importlib.import_module(package)
    return [
        importlib.import_module(f"{package}.{info.name}")
        for info in sorted(pkgutil.iter_modules(module.__path__), key=lambda i: i.name)
        if not info.name.startswith("_")
    ]


def discover_tasks(package: str = "mte.specs") -> dict[str, Task]:
    """Every task of every spec module of ``package``, by name; two specs of one name are an
    error naming both."""
    found: dict[str, Task] = {}
    where: dict[str, str] = {}
    for spec in spec_modules(package):
        tasks = getattr(spec, "TASKS", None)
        if not isinstance(tasks, tuple) or not all(isinstance(t, Task) for t in tasks):
            raise TypeError(f"task spec module {spec.__name__} must define TASKS, a tuple of Task")
        for task in tasks:
            if task.name in found:
                raise TypeError(
                    f"task '{task.name}' is defined twice: {where[task.name]} and {spec.__name__}"
                )
            found[task.name], where[task.name] = task, spec.__name__
    return found


def check_sources(task: Task) -> None:
    """Every hub repository the task names has its pinned record (hub_repos), with a status
    the hub loader knows; a release names its files and where their checksums come from."""
    named = {task.hub_id} if task.hub_id else set()
    named |= {repo for repo, _ in task.hub_configs.values()}
    recorded = [repo.id for repo in task.hub_repos]
    missing = sorted(named - set(recorded))
    if missing:
        raise FamilyContractError(
            f"task '{task.name}' reads {', '.join(missing)} from the hub without a pinned "
            "record of it in hub_repos (mte.hub.repos.HubRepo)"
        )
    for repo in task.hub_repos:
        if repo.status not in HUB_STATUSES:
            raise FamilyContractError(
                f"task '{task.name}': {repo.id} has status '{repo.status}' (known: "
                f"{', '.join(HUB_STATUSES)})"
            )
    if task.release is not None and not (task.release.files and task.release.checksums):
        raise FamilyContractError(
            f"task '{task.name}': its release names no files, or not where their checksums "
            "come from"
        )


def check_tasks(tasks: dict[str, Task], families: dict[str, TaskFamily]) -> None:
    """Every task names a registered family, carries that family's options and keeps its spec
    rules, and chooses its selection and summary metrics among those it reports."""
    for task in tasks.values():
        if task.family not in families:
            raise FamilyContractError(
                f"task '{task.name}' names task family '{task.family}', which does not exist "
                f"(known: {', '.join(sorted(families))})"
            )
        family = families[task.family]
        if type(task.options) is not family.options_type:
            raise FamilyContractError(
                f"task '{task.name}' carries {type(task.options).__name__}, not the "
                f"{family.options_type.__name__} of the {family.name} family"
            )
        family.check_spec(task)
        twice = sorted(set(task.languages) & set(task.more_languages))
        if twice or len(set(task.all_languages)) < len(task.all_languages):
            raise FamilyContractError(
                f"task '{task.name}' lists a language twice in languages and more_languages"
                + (f" ({', '.join(twice)})" if twice else "")
            )
        check_sources(task)
        chosen = [task.primary_metric, *task.summary_metrics]
        chosen += [task.selection_metric] if task.selection_metric else []
        unknown = [metric for metric in chosen if metric not in task.metrics]
        if unknown:
            raise FamilyContractError(
                f"task '{task.name}' names metric(s) {', '.join(unknown)} that it does not "
                f"report (its metrics: {', '.join(task.metrics)})"
            )


def discover_suites(tasks: dict[str, Task], package: str = "mte.specs") -> dict[str, Suite]:
    """Every suite of every spec module (an optional ``SUITES`` tuple), by name; checked: a
    known layout, tasks that exist, and a name that is no task's (their tables share a folder)."""
    found: dict[str, Suite] = {}
    for spec in spec_modules(package):
        for suite in getattr(spec, "SUITES", ()):
            where = f"suite '{suite.name}' ({spec.__name__})"
            if suite.name in found or suite.name in tasks:
                raise TypeError(f"{where}: the name is taken by another suite or a task")
            if suite.layout not in SUITE_LAYOUTS:
                raise TypeError(f"{where}: layout {suite.layout!r} is not one of {SUITE_LAYOUTS}")
            grouped = [task for _, members in suite.groups for task in members]
            named = (*suite.merged, *suite.averaged, *suite.languages, *grouped)
            named += suite.opt_in_tasks
            unknown = [t for t in (*suite.tasks, *named) if t not in tasks]
            if unknown:
                raise TypeError(f"{where}: unknown task(s) {', '.join(unknown)}")
            outside = [
                t for t in (*suite.languages, *grouped, *suite.opt_in_tasks) if t not in suite.tasks
            ]
            if outside:
                raise TypeError(f"{where}: {', '.join(outside)} not among its tasks")
            for name, languages in suite.languages.items():
                strange = [lang for lang in languages if lang not in tasks[name].all_languages]
                if strange:
                    raise TypeError(
                        f"{where}: {', '.join(strange)} not language(s) of task '{name}'"
                    )
            found[suite.name] = suite
    return found


FAMILIES: dict[str, TaskFamily] = build_registry(discover_families())
TASKS: dict[str, Task] = discover_tasks()
check_tasks(TASKS, FAMILIES)
GLUE_TASKS = tuple(task for task in TASKS.values() if task.group == "glue")


def get_task(name: str, key: str = "tasks") -> Task:
    """Look up a task by name; an unknown name raises a :class:`ConfigError` naming ``key``."""
    try:
        return TASKS[name]
    except KeyError:
        near = difflib.get_close_matches(name, TASKS, n=1, cutoff=0.6)
        hint = f"; did you mean '{near[0]}'?" if near else ""
        raise ConfigError(
            f"{key}.{name}",
            f"unknown task '{name}'{hint} (known tasks: {', '.join(sorted(TASKS))})",
        ) from None


@cache
def spec_module_of(name: str) -> str:
    """The spec module that defines task ``name`` (mte.specs.xnli): the code of its spec."""
    for spec in spec_modules():
        if any(task.name == name for task in getattr(spec, "TASKS", ())):
            return spec.__name__
    raise KeyError(name)


def family_package_of(task: Task) -> str:
    """The package of the task's family (mte.families.pairs): the code of its family."""
    return type(family_of(task)).__module__


def family_of(task: Task) -> TaskFamily:
    """The family of ``task``."""
    return FAMILIES[task.family]


def retrieves(task: Task) -> bool:
    """Whether the task embeds and searches with an encoder (a RetrievingFamily: the retrieve
    rule) rather than fine-tuning a model of its own (a FineTuningFamily)."""
    return isinstance(family_of(task), RetrievingFamily)


def pools(task: Task) -> bool:
    """Whether the task's queries search one pool, embedded once (the embed_pool rule)."""
    return isinstance(family_of(task), PooledRetrievingFamily)


def trains_dual_encoders(task: Task) -> bool:
    """Whether the task's fine-tunes are dual encoders, which a pooled task can embed with."""
    family = family_of(task)
    return isinstance(family, FineTuningFamily) and family.dual_encoder


def family_named(name: str) -> TaskFamily:
    return FAMILIES[name]


def model_need(task: Task) -> str:
    """What ``task`` asks of a model's architecture (mte.modelling.architectures.refusal): a
    retrieval task its encoder, any other its head's transformers Auto class (a dual
    encoder's: its encoder)."""
    from mte.modelling.architectures import ENCODER

    if retrieves(task):
        return ENCODER
    return family_of(task).model_head(task).auto_class


def head_for(features: dict[str, Any]) -> Any:
    """The head (mte.modelling.heads.Head) that fine-tunes and predicts the features' task."""
    task = get_task(features["task"])
    return family_of(task).model_head(task)


@cache
def all_suites() -> dict[str, Suite]:
    """Every suite, by name."""
    return discover_suites(TASKS)


def get_suite(name: str) -> Suite:
    return all_suites()[name]
