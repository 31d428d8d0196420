"""Compare two result trees of the workflow, e.g. the same config before and after a change.

    python tools/compare_results.py BEFORE AFTER [--tolerance 1e-12] [--rename OLD=NEW ...]

BEFORE and AFTER are working directories of runs (each holding results/). Predictions and
tables must be byte-identical; score files must hold the same keys and numbers equal to the
tolerance, the provenance's environment (package versions, hardware: what ran the code, not
what it computed) aside. Every other file is compared too (torch archives by content, JSON
without timings) and reported, without failing the comparison (plots and model weights may
differ in bytes from run to run). ``--rename OLD=NEW`` reads OLD as NEW in BEFORE's text files:
two checkouts at different paths record their demo files' paths in provenance.
``--code-changed``: the trees were made by different code (a refactoring), so the provenance's
``code`` digests (of the package code each job ran, which key the results) are expected to
differ and are left out of the comparison of scores and of the tables' provenance files; every
other byte and number must still agree. Exit status 1 when a prediction, table or score differs
or exists in one tree only.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# provenance fields that describe the code's environment, not the result: the packages and the
# machines (the score's, the predict job's, the fine-tune's under training)
ENVIRONMENT_KEYS = {"packages", "hardware", "predicted_on"}
# run-to-run noise: logs, timings, Snakemake's own state
SKIPPED_PARTS = {"logs", "benchmarks", ".snakemake"}


def kind(relative: Path) -> str:
    parts = relative.parts
    if "predictions" in parts:
        return "prediction"
    if "tables" in parts:
        return "table"
    if "scores" in parts and relative.suffix == ".json":
        return "score"
    return "other"


def numbers_differ(before: Any, after: Any, tolerance: float, where: str) -> list[str]:
    """Where two parsed JSON values differ: numbers by more than ``tolerance``, anything else
    by value; environment keys of a provenance record skipped."""
    if isinstance(before, dict) and isinstance(after, dict):
        problems = []
        for key in sorted(set(before) | set(after)):
            in_provenance = where.endswith(("provenance", "provenance.training"))
            if in_provenance and (key in ENVIRONMENT_KEYS or key in SKIPPED_KEYS):
                continue
            if key not in before or key not in after:
                problems.append(f"{where}.{key}: in one file only")
                continue
            problems += numbers_differ(before[key], after[key], tolerance, f"{where}.{key}")
        return problems
    if isinstance(before, list) and isinstance(after, list):
        if len(before) != len(after):
            return [f"{where}: {len(before)} items versus {len(after)}"]
        return [
            problem
            for n, (a, b) in enumerate(zip(before, after, strict=True))
            for problem in numbers_differ(a, b, tolerance, f"{where}[{n}]")
        ]
    numeric = (int, float)
    if (
        isinstance(before, numeric)
        and isinstance(after, numeric)
        and not isinstance(before, bool)
        and not isinstance(after, bool)
    ):
        both_nan = math.isnan(before) and math.isnan(after)
        if not both_nan and abs(before - after) > tolerance:
            return [f"{where}: {before!r} versus {after!r}"]
        return []
    return [] if before == after else [f"{where}: {before!r} versus {after!r}"]


RENAMES: list[tuple[str, str]] = []
# --code-changed: the provenance's code digests are left out
SKIPPED_KEYS: set[str] = set()


def before_text(path: Path) -> str:
    """A BEFORE file's text with --rename applied."""
    text = path.read_text(encoding="utf-8")
    for old, new in RENAMES:
        text = text.replace(old, new)
    return text


def same_content(old: Path, new: Path) -> bool:
    """Files equal in what they hold: bytes; a torch.save archive by its loaded content (its
    folder name and serialization id differ from write to write); a JSON record with its
    timings (keys ending in "seconds") aside."""
    if same_bytes(old, new):
        return True
    if old.suffix == ".pt":
        import torch

        return torch.load(old, weights_only=True) == torch.load(new, weights_only=True)
    if old.suffix == ".json":
        timing = lambda key: key.endswith("seconds")  # noqa: E731
        before = without_keys(json.loads(before_text(old)), timing)
        return before == without_keys(json.loads(new.read_text("utf-8")), timing)
    return False


def without_keys(value: Any, leave_out: Callable[[str], bool]) -> Any:
    """A JSON value with every mapping's keys that ``leave_out`` names left out, at any depth."""
    if isinstance(value, dict):
        return {k: without_keys(v, leave_out) for k, v in value.items() if not leave_out(k)}
    if isinstance(value, list):
        return [without_keys(v, leave_out) for v in value]
    return value


def same_bytes(old: Path, new: Path) -> bool:
    """Byte-identical, BEFORE's text read with --rename when there is any."""
    if old.read_bytes() == new.read_bytes():
        return True
    if not RENAMES:
        return False
    try:
        return before_text(old).encode("utf-8") == new.read_bytes()
    except UnicodeDecodeError:  # not text: nothing to rename
        return False


def same_provenance(old: Path, new: Path) -> bool:
    """A table's provenance file equal to the other once the skipped keys (the code digests)
    are left out wherever they are."""
    if not old.name.endswith(".provenance.json"):
        return False
    skipped = SKIPPED_KEYS.__contains__
    before = without_keys(json.loads(before_text(old)), skipped)
    return before == without_keys(json.loads(new.read_text(encoding="utf-8")), skipped)


def files(root: Path) -> dict[Path, Path]:
    found = {}
    for base in ("results", "resources/data"):
        for path in sorted((root / base).rglob("*")):
            relative = path.relative_to(root)
            # a predict job's machine record describes where it ran, not what it predicted
            if path.name.endswith(".machine.json"):
                continue
            if path.is_file() and not SKIPPED_PARTS & set(relative.parts):
                found[relative] = path
    return found


def compare(before: Path, after: Path, tolerance: float) -> dict[str, list[str]]:
    """Per kind of file: how many were compared, and the differences."""
    old, new = files(before), files(after)
    report: dict[str, list[str]] = {k: [] for k in ("prediction", "table", "score", "other")}
    counts = dict.fromkeys(report, 0)
    for relative in sorted(set(old) | set(new)):
        group = kind(relative)
        counts[group] += 1
        if relative not in old or relative not in new:
            report[group].append(f"{relative}: only in {'after' if relative in new else 'before'}")
        elif group == "score":
            a = json.loads(before_text(old[relative]))
            b = json.loads(new[relative].read_text(encoding="utf-8"))
            report[group] += [f"{relative}: {p}" for p in numbers_differ(a, b, tolerance, "")]
        elif group == "other" and not same_content(old[relative], new[relative]):
            report[group].append(f"{relative}: content differs")
        elif group != "other" and not same_bytes(old[relative], new[relative]):
            if not (SKIPPED_KEYS and same_provenance(old[relative], new[relative])):
                report[group].append(f"{relative}: bytes differ")
    report["counts"] = [f"{group}={count}" for group, count in counts.items()]
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--tolerance", type=float, default=1e-12)
    parser.add_argument("--rename", action="append", default=[], metavar="OLD=NEW")
    parser.add_argument(
        "--code-changed",
        action="store_true",
        help="the trees were made by different code: leave the provenance's code digests out",
    )
    args = parser.parse_args()
    if args.code_changed:
        SKIPPED_KEYS.add("code")
    for rename in args.rename:
        old, sep, new = rename.partition("=")
        if not sep or not old:
            parser.error(f"--rename {rename!r}: expected OLD=NEW")
        RENAMES.append((old, new))
    report = compare(args.before, args.after, args.tolerance)
    print("files compared: " + ", ".join(report.pop("counts")))
    failed = False
    for group, problems in report.items():
        verdict = "identical" if not problems else f"{len(problems)} differ"
        print(f"{group}: {verdict}")
        for problem in problems[:20]:
            print(f"  {problem}")
        failed |= bool(problems) and group != "other"
    print("RESULT: " + ("DIFFERENT" if failed else "SAME (predictions, tables, scores)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
