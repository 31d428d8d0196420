"""The task families, one module each behind the contract of :class:`TaskFamily`, and their
registry: every module of this package (but ``base``) lists its classes in ``FAMILY_CLASSES``.
Loading the registry checks every family against the contract and every task spec against the
registry: a family that lacks part of the contract, or a task naming a family that does not
exist, fails here, at import, naming it."""

from __future__ import annotations

import inspect
from typing import Any

from mte.families.base import REQUIRED_ATTRIBUTES, TaskFamily


class FamilyContractError(TypeError):
    """A family class that does not keep the contract of :class:`TaskFamily`."""


def _instantiate(cls: type[TaskFamily]) -> TaskFamily:
    missing = sorted(getattr(cls, "__abstractmethods__", ()))
    missing += [name for name in REQUIRED_ATTRIBUTES if not hasattr(cls, name)]
    if missing:
        raise FamilyContractError(
            f"task family {cls.__name__} ({inspect.getsourcefile(cls)}) lacks part of the "
            f"TaskFamily contract: {', '.join(missing)}"
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
    """The ``FAMILY_CLASSES`` of every module of ``package`` but ``base``, in module order."""
    import importlib
    import pkgutil

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


FAMILIES = build_registry(discover_families())


def check_tasks(tasks: dict[str, Any], families: dict[str, TaskFamily]) -> None:
    """Every task names a registered family and keeps that family's spec rules."""
    for task in tasks.values():
        if task.family not in families:
            raise FamilyContractError(
                f"task '{task.name}' names task family '{task.family}', which does not exist "
                f"(known: {', '.join(sorted(families))})"
            )
        families[task.family].check_spec(task)
        chosen = [task.primary_metric, *task.summary_metrics]
        chosen += [task.selection_metric] if task.selection_metric else []
        unknown = [metric for metric in chosen if metric not in task.metrics]
        if unknown:
            raise FamilyContractError(
                f"task '{task.name}' names metric(s) {', '.join(unknown)} that it does not "
                f"report (its metrics: {', '.join(task.metrics)})"
            )


def family_of(task: Any) -> TaskFamily:
    """The family of ``task`` (a Task)."""
    return FAMILIES[task.family]


def family_named(name: str) -> TaskFamily:
    return FAMILIES[name]


def _check_all_tasks() -> None:
    from mte.tasks import TASKS

    check_tasks(TASKS, FAMILIES)


_check_all_tasks()
