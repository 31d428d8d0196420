"""Write the real-data tier sections of docs/results.md from the tiers' summaries.

``make real-readme`` after ``make test-real``: the figures between docs/results.md's
``<!-- real-tier:start -->`` and ``<!-- real-tier:end -->`` markers are replaced from
``results-real/summary.json``, never typed. ``make smoke-readme`` after a smoke run with
``TIER_SEEDS=1,2,3`` does the same between ``<!-- smoke-tier:start -->`` and
``<!-- smoke-tier:end -->`` from ``results-smoke/summary.json``: every floor figure per seed,
beside the floor the smoke test holds it to.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
START, END = "<!-- real-tier:start -->", "<!-- real-tier:end -->"
SMOKE_START, SMOKE_END = "<!-- smoke-tier:start -->", "<!-- smoke-tier:end -->"
# experiment -> (task, metric, label)
SHOWN = {
    "xnli": ("xnli", "accuracy", "XNLI accuracy"),
    "panx": ("panx", "f1", "PAN-X entity F1"),
    "conll": ("conll", "f1", "CoNLL entity F1"),
    "qa": ("xquad", "f1", "XQuAD F1"),
}


def _row(label: str, values: dict[str, float], minutes: float) -> list[str]:
    mean = sum(values.values()) / len(values)
    cells = " ".join(f"{lang} {100 * v:.1f}" for lang, v in values.items())
    return [f"| {label} | {cells} | {100 * mean:.1f} | {minutes:.1f} |"]


def section(summary: dict) -> str:
    """The Markdown section: per experiment, each language's figure, the mean and the time."""
    experiments = summary["experiments"]
    lines = [
        START,
        "| experiment | per language (%) | mean | minutes |",
        "|---|---|---:|---:|",
    ]
    for name, (task, metric, label) in SHOWN.items():
        if name in experiments:
            languages = experiments[name]["tasks"][task]["languages"]
            values = {lang: figures["metrics"][metric] for lang, figures in languages.items()}
            lines += _row(label, values, experiments[name]["seconds"] / 60)
    if "tatoeba" in experiments:
        languages = experiments["tatoeba"]["tasks"]["tatoeba"]["languages"]
        for choice in ("model", "xtreme"):
            values = {
                lang: figures["by_layer"][choice]["accuracy"] for lang, figures in languages.items()
            }
            layer = next(iter(languages.values()))["by_layer"][choice]["layer"]
            label = f"Tatoeba accuracy, layer {layer} ({choice})"
            lines += _row(label, values, experiments["tatoeba"]["seconds"] / 60)
    lines += [
        "",
        f"Whole tier: {summary['seconds'] / 60:.1f} minutes on {summary['machine']['cpus']} CPUs "
        f"({summary['machine']['platform']}).",
        END,
    ]
    return "\n".join(lines)


def smoke_section(summary: dict) -> str:
    """The smoke tier's floors: per experiment and floor figure, each seed's value, the lowest,
    the spread (highest - lowest) and the floor."""
    sys.path.insert(0, str(REPO))  # run as a script: the floors live in the tests package
    from tests.smoke.test_floors import FLOORS

    lines = [
        SMOKE_START,
        "| experiment | figure (%) | per seed | lowest | spread | floor |",
        "|---|---|---|---:|---:|---:|",
    ]
    for name, (task, _, floors) in FLOORS.items():
        experiment = summary["experiments"][name]
        by_seed = experiment["tasks"][task]["by_seed"]
        for floor in floors:
            values = {seed: floor.figure(figures) for seed, figures in by_seed.items()}
            cells = ", ".join(f"{seed}: {100 * v:.1f}" for seed, v in values.items())
            low, high = min(values.values()), max(values.values())
            lines.append(
                f"| {name} | {floor.label} | {cells} | {100 * low:.1f} | {100 * (high - low):.1f} "
                f"| {100 * floor.floor:.1f} |"
            )
    lines += [
        "",
        "Seeds per experiment: "
        + ", ".join(f"{n} {len(e['seeds'])}" for n, e in summary["experiments"].items())
        + f" (Tatoeba trains nothing); {summary['machine']['cpus']} CPUs "
        f"({summary['machine']['platform']}).",
        SMOKE_END,
    ]
    return "\n".join(lines)


def replace_section(text: str, start: str, end: str, body: str) -> str:
    """``text`` with what lies between the ``start`` and ``end`` markers replaced by ``body``
    (which carries the markers itself)."""
    if start not in text or end not in text:
        raise SystemExit(f"docs/results.md lacks the {start} ... {end} markers")
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    return before + body + after


def main(tier: str = "real") -> None:
    summary_path = REPO / f"results-{tier}" / "summary.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    readme = REPO / "docs" / "results.md"
    text = readme.read_text(encoding="utf-8")
    if tier == "smoke":
        text = replace_section(text, SMOKE_START, SMOKE_END, smoke_section(summary))
    else:
        text = replace_section(text, START, END, section(summary))
    readme.write_text(text, encoding="utf-8")
    print(f"updated {readme}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
