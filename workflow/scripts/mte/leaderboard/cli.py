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
from mte.tables.published_rows import OURS


def main(argv: Sequence[str] | None = None) -> int:
    """``mte-leaderboard RUN_FOLDER [RUN_FOLDER ...] --out DIR``."""
    from mte.tables.references import load_references

    parser = argparse.ArgumentParser(
        prog="mte-leaderboard",
        description="One leaderboard (CSV and a sortable HTML page) across run folders "
        "(results/runs/<run>), with the published rows of config/references beside them.",
    )
    parser.add_argument("runs", nargs="+", help="run folders: results/runs/<run> of any checkout")
    parser.add_argument("--out", default="results/leaderboard", help="where to write (%(default)s)")
    parser.add_argument(
        "--references",
        default="config/references",
        help="a folder of published-number files, *.yaml (%(default)s); 'none' for none",
    )
    parser.add_argument(
        "--alpha", type=float, default=0.05, help="marked where p < alpha (%(default)s)"
    )
    parser.add_argument(
        "--trials", type=int, default=10000, help="randomization trials per test (%(default)s)"
    )
    parser.add_argument("--seed", type=int, default=12345, help="the tests' seed (%(default)s)")
    args = parser.parse_args(argv)
    try:
        runs = [read_run(folder) for folder in args.runs]
        references = []
        if args.references != "none":
            folder = Path(args.references)
            if not folder.is_dir():
                raise InputError(folder, None, "--references: not a folder")
            references = load_references(sorted(folder.glob("*.yaml")))
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
