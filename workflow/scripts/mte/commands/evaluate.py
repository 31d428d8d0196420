"""``mte-evaluate PREDICTIONS LABELS --xtreme-version {xtreme,xtreme-r} --output FILE.json
[--against OTHER_PREDICTIONS]``: any XTREME or XTREME-R submission folder (the project's
export, XTREME's own scripts', another toolkit's) scored as the authors' evaluate.py scores it,
with the project's bootstrap intervals and paired tests (docs/submission.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mte.errors import MteError
from mte.io import write_json
from mte.submission.scoring import Statistics, evaluate_submission
from mte.submission.versions import leaderboards


def _interval(value: list[float] | None) -> str:
    return f" [{value[0]:.2f}, {value[1]:.2f}]" if value else ""


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report as evaluate.py prints it (a task's metrics per language, then its averages),
    each score with its interval, then the groups and the paired tests."""
    scores, spans = report["scores"], report["intervals"]
    lines = [f"Evaluating on {report['xtreme_version']}: {report['predictions']}"]
    for folder, detail in scores.items():
        if not isinstance(detail, dict):
            continue
        lines.append(f"\n====== {folder} ======")
        metrics = [m for m in detail if not m.startswith("avg")]
        for metric in metrics:
            lines.append(f"------ {metric} ------")
            for language, value in detail[metric].items():
                lines.append(f"{language}: {value:.2f}{_interval(spans[folder][metric][language])}")
        for metric in [*metrics, "metric"]:
            key = f"avg_{metric}"
            lines.append(f"{metric}: {detail[key]:.2f}{_interval(spans[folder].get(key))}")
    groups = {k: v for k, v in scores.items() if not isinstance(v, dict)}
    if groups:
        lines.append("\n====== groups ======")
        lines += [f"{g}: {v:.2f}{_interval(spans.get(g))}" for g, v in groups.items()]
    lines += [f"missing: {path}" for path in report["missing"]]
    against = report.get("against")
    if against:
        lines.append(f"\n====== against {against['predictions']} ======")
        for name, test in against["tests"].items():
            overall = test.get("avg_metric", test)
            p = overall["p_value"]
            lines.append(
                f"{name}: {overall['difference']:+.2f} points, "
                + (f"p = {p:.4f}" if p is not None else "no test (no per-example statistics)")
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="mte-evaluate",
        description="Score an XTREME or XTREME-R submission folder against a label folder "
        "(both in evaluate.py's layout: <task>/test-<lang>.<tsv|json|jsonl>) with evaluate.py's "
        "metrics, the project's bootstrap intervals and paired tests.",
    )
    parser.add_argument("predictions", type=Path, help="the submission folder")
    parser.add_argument("labels", type=Path, help="the label folder")
    parser.add_argument(
        "--xtreme-version", choices=sorted(leaderboards()), default="xtreme",
        help="the leaderboard (evaluate.py's --xtreme_version; %(default)s)",
    )  # fmt: skip
    parser.add_argument("--output", type=Path, required=True, help="the JSON report to write")
    parser.add_argument(
        "--against", type=Path, help="a second submission folder: paired tests against it"
    )
    parser.add_argument(
        "--partial", action="store_true",
        help="score the languages a task folder has and list the others (evaluate.py stops at "
        "the first missing file)",
    )  # fmt: skip
    parser.add_argument(
        "--resamples", type=int, default=1000, help="bootstrap resamples (%(default)s)"
    )
    parser.add_argument(
        "--confidence", type=float, default=0.95, help="interval coverage (%(default)s)"
    )
    parser.add_argument(
        "--trials", type=int, default=10000, help="randomization trials (%(default)s)"
    )
    parser.add_argument(
        "--seed", type=int, default=12345, help="resamples' and tests' seed (%(default)s)"
    )
    args = parser.parse_args(argv)
    stats = Statistics(args.resamples, args.confidence, args.seed, args.trials)
    try:
        report = evaluate_submission(
            args.predictions,
            args.labels,
            leaderboards()[args.xtreme_version],
            stats,
            against=args.against,
            partial=args.partial,
        )
    except (MteError, OSError) as err:
        print(f"mte-evaluate: {err}", file=sys.stderr)
        return 1
    write_json(args.output, report)
    print("\n".join(report_lines(report)))
    print(f"\nwritten: {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
