"""Write the README's real-data tier section from ``results-real/summary.json``.

``make real-readme`` after ``make test-real``: the figures between the README's
``<!-- real-tier:start -->`` and ``<!-- real-tier:end -->`` markers are replaced, never typed.
"""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
START, END = "<!-- real-tier:start -->", "<!-- real-tier:end -->"
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


def main() -> None:
    summary = json.loads((REPO / "results-real" / "summary.json").read_text(encoding="utf-8"))
    readme = REPO / "README.md"
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{readme} lacks the {START} ... {END} markers")
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    readme.write_text(before + section(summary) + after, encoding="utf-8")
    print(f"updated {readme}")


if __name__ == "__main__":
    main()
