"""Results keyed on the code that made them: a digest of the package code a rule's job runs.

Each rule passes its digest as a param, so Snakemake's ``params`` rerun trigger plans a job
again when the code it runs has changed, and only then (``--rerun-triggers`` without params
relaxes it). The modules a job runs are found by reading the package's imports, not by
importing it:

- the rule's script, and every ``mte`` module it imports, at the top of a file or inside a
  function, and so on;
- the registry finds the task families and the task specs at run time: it stands here for the
  job's task's own spec module (and the helper modules it imports) and its own family package,
  or for all of them in a job that has no task;
- a family package (its ``__init__`` and its ``*_family`` modules, one family class each)
  imports its parts inside its methods, each part used by one kind of job: a part named
  ``readers`` or ``records`` is code of the jobs that read data, ``features`` and
  ``squad_windows`` of tokenisation, ``heads`` of fine-tuning and prediction, ``scoring`` and
  ``metrics`` of scoring. Such an import from the family's ``__init__`` or ``*_family``
  module counts only for the jobs of that kind; what the part itself imports at its top
  counts wherever the part does (a head's dev score reads the family's metrics: a metrics
  change reruns fine-tunes too); another family's package that a spec imports for its
  options class counts without its methods' imports.

A module's digest is that of its syntax tree, so a change to a comment or to the formatting
reruns nothing.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
# the part of a family package each kind of job runs
PART_ROLES = {
    "readers": "read",
    "records": "read",
    "features": "features",
    "squad_windows": "features",
    "heads": "model",
    "scoring": "score",
    "metrics": "score",
}
ALL_ROLES = frozenset(PART_ROLES.values())


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def package_modules() -> dict[str, Path]:
    """Every module of the package: its dotted name -> its file."""
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _target(name: str, package: str, node: ast.ImportFrom | None = None) -> list[str]:
    """The package's modules an import names (``from mte.x import y`` names mte.x.y where y is
    a module, else mte.x)."""
    modules = package_modules()
    found = []
    if node is not None:
        base = name
        if node.level:
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
            base = f"{base}.{name}" if name else base
        for alias in node.names:
            if f"{base}.{alias.name}" in modules:
                found.append(f"{base}.{alias.name}")
        if base in modules:
            found.append(base)
        return found
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return [name] if name else []


@cache
def imports(module: str) -> tuple[frozenset[str], frozenset[str]]:
    """The package's modules ``module`` imports at its top level, and inside functions."""
    path = package_modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    top: set[str] = set()
    inner: set[str] = set()
    tree = _tree(path)
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    in_function = {id(inner_node) for f in functions for inner_node in ast.walk(f)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [t for alias in node.names for t in _target(alias.name, package)]
        elif isinstance(node, ast.ImportFrom):
            names = _target(node.module or "", package, node)
        else:
            continue
        names = [n for n in names if n.split(".")[0] == "mte" and n != module]
        (inner if id(node) in in_function else top).update(names)
    return frozenset(top), frozenset(inner)


def _family_part_role(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) == 4 and parts[1] == "families":
        return PART_ROLES.get(parts[3])
    return None


def _is_family_package(module: str) -> bool:
    parts = module.split(".")
    return len(parts) == 3 and parts[1] == "families"


def _family_level(module: str) -> str | None:
    """The family package a module speaks for: the package itself, or one of its ``*_family``
    modules (one family class each, which its ``__init__`` lists), whose methods import the
    family's parts as the package's own would."""
    parts = module.split(".")
    if _is_family_package(module):
        return module
    if len(parts) == 4 and parts[1] == "families" and parts[3].endswith("_family"):
        return ".".join(parts[:3])
    return None


def closure(
    entries: Iterable[str],
    roles: frozenset[str],
    family: str | None = None,
    spec: str | None = None,
) -> list[str]:
    """The package modules a job runs, from ``entries`` (modules), as the module docstring
    says: ``family`` (a family package's name) and ``spec`` (a spec module's name) narrow the
    registry's discovery to the job's task (``mte.families.pairs``, ``mte.specs.xnli``); None
    stands for every one."""
    modules = package_modules()
    families = [m for m in modules if _is_family_package(m)]
    specs = [m for m in modules if m.startswith("mte.specs.") and not m.rsplit(".")[-1][0] == "_"]
    seen: set[str] = set()
    stack = [m for m in entries if m in modules]
    while stack:
        module = stack.pop()
        if module in seen:
            continue
        seen.add(module)
        top, inner = imports(module)
        following = set(top)
        level = _family_level(module)
        for target in inner:
            if level is not None:
                # another family's package, reached through a spec's import of its options
                # class: its methods are not run by this job
                if family is not None and level != family:
                    continue
                role = _family_part_role(target)
                if role is not None and role not in roles:
                    continue
            following.add(target)
        if module == "mte.registry":
            following |= {family} if family else set(families)
            following |= {spec} if spec else set(specs)
        stack.extend(sorted(following - seen))
    return sorted(seen)


def script_modules(script: Path) -> list[str]:
    """The package modules a rule's script imports itself."""
    found: set[str] = set()
    for node in ast.walk(_tree(script)):
        if isinstance(node, ast.Import):
            found |= {t for alias in node.names for t in _target(alias.name, "mte")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mte"):
            found |= set(_target(node.module, "mte", node))
    return sorted(found)


@cache
def _module_digest(path: Path) -> str:
    return hashlib.sha256(ast.dump(_tree(path)).encode("utf-8")).hexdigest()


@cache
def code_digest(
    script: Path,
    roles: frozenset[str] = ALL_ROLES,
    family: str | None = None,
    spec: str | None = None,
    package_data: str | None = None,
) -> str:
    """Twelve hex digits of the digest of a rule script and the package code it runs, and of
    the files of ``package_data`` (a folder of the package, such as the demo data of a task:
    data that ships with the code, changes with it, and is read by the job)."""
    modules = package_modules()
    digest = hashlib.sha256(_module_digest(script).encode())
    for module in closure(script_modules(script), roles, family, spec):
        digest.update(f"{module}:{_module_digest(modules[module])}\n".encode())
    folder = PACKAGE / package_data if package_data else None
    for path in sorted(folder.rglob("*")) if folder and folder.is_dir() else ():
        if path.is_file():
            data = hashlib.sha256(path.read_bytes()).hexdigest()
            digest.update(f"{path.relative_to(PACKAGE).as_posix()}:{data}\n".encode())
    return digest.hexdigest()[:12]
