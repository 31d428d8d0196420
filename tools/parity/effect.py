"""The effect of the tokenization on scores: two runs of one config, ``tokenization: fast`` and
``paper``, side by side per task and language, with each score's bootstrap interval and the
paired randomization test of the difference (the same examples, the two runs' per-example
statistics swapped at random).

Usage: python tools/parity/effect.py BEFORE AFTER [--trials 10000]
BEFORE and AFTER are run folders (results-smoke/ of ``TIER_TOKENIZATION=fast`` and of
``paper``, or any two working directories of the workflow); their score files are matched by
model, task, setting, seed and language."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "workflow" / "scripts"))


def score_files(folder: Path) -> dict[tuple, dict]:
    found = {}
    for path in sorted(folder.glob("results/*/*/*/*/seed*/scores/*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        key = (record["model"], record["task"], record["setting"], record["seed"])
        found[(*key, record["language"])] = record
    return found


def cell(record: dict) -> str:
    metric = record["interval"]["metric"]
    value = 100 * record["metrics"][metric]
    low, high = 100 * record["interval"]["low"], 100 * record["interval"]["high"]
    return f"{value:.1f} [{low:.1f}, {high:.1f}]"


def main() -> None:
    import numpy as np

    from mte.registry import family_of, get_task
    from mte.stats.statistics import paired_randomization

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--trials", type=int, default=10000)
    args = parser.parse_args()
    before, after = score_files(args.before), score_files(args.after)
    print("| task | language | n | metric | fast | paper | paper - fast | p |")
    print("|---|---|---:|---|---:|---:|---:|---:|")
    for key in sorted(set(before) & set(after)):
        a, b = before[key], after[key]
        task = get_task(key[1])
        metric = a["interval"]["metric"]
        kind = family_of(task).sufficient_statistics(task)
        if len(a["example_stats"]) != len(b["example_stats"]):
            raise SystemExit(
                f"{key}: {len(a['example_stats'])} examples against "
                f"{len(b['example_stats'])}: not the same test set"
            )
        test = paired_randomization(
            kind, metric,
            [(np.asarray(b["example_stats"], float), np.asarray(a["example_stats"], float))],
            args.trials, seed=0,
        )  # fmt: skip
        print(
            f"| {key[1]} | {key[4]} | {a['n']} | {metric} | {cell(a)} | {cell(b)} | "
            f"{100 * test['difference']:+.1f} | {test['p_value']:.3f} |"
        )


if __name__ == "__main__":
    main()
