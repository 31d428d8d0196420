"""``mte-leaderboard RUN_FOLDER [RUN_FOLDER ...] --out DIR`` (``make leaderboard``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from mte.errors import InputError, MteError
from mte.leaderboard.board import build_leaderboard
from mte.leaderboard.page import write_leaderboard
from mte.leaderboard.runs import read_run
from mte.published import PROJECT_REFERENCES, folder_files
from mte.tables.published_rows import OURS


def reference_files(given: Sequence[str]) -> list[Path]:
    """The published-number files ``--references`` names: each folder's *.yaml, each file
    itself, in order (a user's file after the project's folder fills its cells); none for
    'none'."""
    if list(given) == ["none"]:
        return []
    files = []
    for name in given:
        path = Path(name)
        if path.is_dir():
            files += folder_files(path)
        elif path.is_file():
            files.append(path)
        else:
            raise InputError(path, None, "--references: neither a folder nor a file")
    return files


def main(argv: Sequence[str] | None = None) -> int:
    """``mte-leaderboard RUN_FOLDER [RUN_FOLDER ...] --out DIR``."""
    from mte.published import load_references

    parser = argparse.ArgumentParser(
        prog="mte-leaderboard",
        description="One leaderboard (CSV and a sortable HTML page) across run folders "
        "(results/runs/<run>), with the published rows of config/references beside them.",
    )
    parser.add_argument("runs", nargs="*", help="run folders: results/runs/<run> of any checkout")
    parser.add_argument("--out", default="results/leaderboard", help="where to write (%(default)s)")
    parser.add_argument(
        "--references",
        action="append",
        help="a folder of published-number files (its *.yaml) or one file; repeat it to add "
        "your own file after the project's folder (its entries fill the project's empty "
        f"cells); default: {PROJECT_REFERENCES}; 'none' for none",
    )
    parser.add_argument(
        "--alpha", type=float, default=0.05, help="marked where p < alpha (%(default)s)"
    )
    parser.add_argument(
        "--trials", type=int, default=10000, help="randomization trials per test (%(default)s)"
    )
    parser.add_argument("--seed", type=int, default=12345, help="the tests' seed (%(default)s)")
    args = parser.parse_args(argv)
    if not args.runs:
        print(
            "mte-leaderboard: no run folder to rank. A run folder is results/runs/<run>, which "
            "snakemake writes for each config it runs (make run: results/runs/default; "
            "--configfile config/xtreme.yaml: results/runs/xtreme). Run a config first, then "
            "give its folders: mte-leaderboard results/runs/default [...] --out DIR (make "
            "leaderboard takes every folder of results/runs/, or RUNS=...).",
            file=sys.stderr,
        )
        return 2
    try:
        runs = [read_run(folder) for folder in args.runs]
        references = load_references(reference_files(args.references or [PROJECT_REFERENCES]))
        board = build_leaderboard(runs, references, args.alpha, args.trials, args.seed)
        csv, page = write_leaderboard(board, args.out)
    except MteError as error:  # a file or line, or a config key (a task no longer known)
        print(f"mte-leaderboard: {error}", file=sys.stderr)
        return 1
    ours = sum(row.kind == OURS for row in board.rows)
    published = len(board.rows) - ours
    print(f"{ours} rows of {len(runs)} run folder(s) and {published} published: {csv}, {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
