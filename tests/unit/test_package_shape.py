"""The package's shape beyond what import-linter sees (.importlinter checks the layers, the
families apart and cycles between siblings): no function longer than a screen, and no module
that imports names from its own package's ``__init__`` (a cycle the linter misses when the
``__init__`` imports the module back inside a function)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "workflow" / "scripts" / "mte"
LONGEST_FUNCTION = 80


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def function_lengths(path: Path) -> list[tuple[int, str]]:
    lengths = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            lengths.append((node.end_lineno - start + 1, f"{path.name}:{node.lineno} {node.name}"))
    return lengths


def test_no_function_is_longer_than_80_lines() -> None:
    lengths = [length for path in modules().values() for length in function_lengths(path)]
    too_long = sorted(item for item in lengths if item[0] > LONGEST_FUNCTION)
    assert not too_long, too_long
    # the walk saw the package's functions, the long ones among them
    assert len(lengths) > 500 and max(lengths)[0] > 50


def own_package_imports(name: str, path: Path, known: dict[str, Path]) -> list[str]:
    """Names a module imports from its own package's ``__init__`` (not its sibling modules)."""
    is_package = path.name == "__init__.py"
    parents = {name.rsplit(".", i)[0] for i in range(1, name.count(".") + (0 if is_package else 1))}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module in parents and node.module != "mte":
            for alias in node.names:
                if f"{node.module}.{alias.name}" not in known:
                    found.append(f"{name}: from {node.module} import {alias.name}")
    return found


def test_no_module_imports_from_its_own_packages_init(tmp_path: Path) -> None:
    known = modules()
    found = [hit for name, path in known.items() for hit in own_package_imports(name, path, known)]
    assert not found, found
    # what the check catches: a family's reader importing a name from the family's __init__,
    # and not a sibling module named through the package
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from mte.families.pairs import PairOptions\nfrom mte.families.qa import squad_windows\n",
        encoding="utf-8",
    )
    hits = own_package_imports("mte.families.pairs.probe", probe, known)
    assert hits == ["mte.families.pairs.probe: from mte.families.pairs import PairOptions"]
