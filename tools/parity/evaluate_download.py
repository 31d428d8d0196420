"""XTREME's evaluate.py on a whole run's submission folder, against the gold of the XTREME
download/ folder the run read (not the project's reading of it), and the project's scores
beside it: every language of PAN-X, UD-POS and Tatoeba the folder holds.

The label folder evaluate.py reads is written here straight from the download's files, by the
format's definition: PAN-X's and UD-POS's ``test-{lang}.tsv`` keep their tag column (a blank
line between sentences, as the files have it); Tatoeba's gold for the i-th foreign sentence is
line i of its English side (``tatoeba.{code}-eng.eng``, aligned by line), so its label file is
0 .. n-1. evaluate.py runs unmodified from a checkout of google-research/xtreme in the parity
environment (tools/parity/.venv: seqeval 0.0.12) through tools/parity/evaluate_py.py, its
language lists narrowed to the submission's (it stops at a language a task lacks); each of its
per-language values is compared with the run's results.json (PAN-X precision, recall and F1;
UD-POS seqeval F1; Tatoeba accuracy).

    .venv/bin/python tools/parity/evaluate_download.py --xtreme CHECKOUT --download DIR
        --submission results/runs/<run>/submission/<model>/zero-shot/seed1/xtreme
        --results results/runs/<run>/results.json [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "workflow" / "scripts"))
PARITY_PYTHON = ROOT / "tools" / "parity" / ".venv" / "bin" / "python"
# evaluate.py's folder and metric -> the project's task and metric
COMPARED = {
    "panx": ("panx", {"f1": "f1", "precision": "precision", "recall": "recall"}),
    "udpos": ("udpos", {"f1": "seqeval_f1"}),
    "tatoeba": ("tatoeba", {"accuracy": "accuracy"}),
}


def tag_labels(source: Path, target: Path) -> None:
    """A tagging file's tags, one a line, its blank lines kept (evaluate.py's read_tag)."""
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        lines.append(line.split("\t")[1] if line.strip() else "")
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def tatoeba_labels(source: Path, target: Path) -> None:
    """Line i of the English side is the gold of foreign line i."""
    count = sum(1 for _ in source.open(encoding="utf-8"))
    target.write_text("".join(f"{i}\n" for i in range(count)), encoding="utf-8")


def write_labels(download: Path, submission: Path, labels: Path) -> dict[str, list[str]]:
    """evaluate.py's label folder for the languages of the submission; folder -> languages."""
    from mte.registry import get_task

    codes = get_task("tatoeba").file_codes
    languages: dict[str, list[str]] = {}
    for folder in COMPARED:
        for predictions in sorted((submission / folder).glob("test-*.tsv")):
            language = predictions.stem.removeprefix("test-")
            target = labels / folder / predictions.name
            target.parent.mkdir(parents=True, exist_ok=True)
            if folder == "tatoeba":
                code = codes[language]
                tatoeba_labels(download / "tatoeba" / f"tatoeba.{code}-eng.eng", target)
            else:
                tag_labels(download / folder / predictions.name, target)
            languages.setdefault(folder, []).append(language)
    return languages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--xtreme", required=True, type=Path, help="google-research/xtreme")
    parser.add_argument("--download", required=True, type=Path, help="XTREME's download/")
    parser.add_argument("--submission", required=True, type=Path, help="the xtreme/ folder")
    parser.add_argument("--results", required=True, type=Path, help="the run's results.json")
    parser.add_argument("--out", type=Path, help="write the comparison as JSON here")
    args = parser.parse_args()
    results = json.loads(args.results.read_text(encoding="utf-8"))["results"]
    ours = {(r["task"], r["language"]): r["metrics"] for r in results}
    with tempfile.TemporaryDirectory() as scratch:
        labels = Path(scratch) / "labels"
        languages = write_labels(args.download, args.submission, labels)
        output = Path(scratch) / "evaluate.json"
        command = [
            str(PARITY_PYTHON), str(ROOT / "tools" / "parity" / "evaluate_py.py"),
            "--xtreme", str(args.xtreme), "--predictions", str(args.submission),
            "--labels", str(labels), "--version", "xtreme", "--output", str(output),
            "--languages", json.dumps(languages),
        ]  # fmt: skip
        subprocess.run(command, check=True)
        theirs = json.loads(output.read_text())
    rows, largest = [], 0.0
    for folder, langs in languages.items():
        task, metrics = COMPARED[folder]
        for language in langs:
            for metric, project_metric in metrics.items():
                value = theirs[folder][metric][language]
                mine = 100 * ours[(task, language)][project_metric]
                largest = max(largest, abs(value - mine))
                rows.append(
                    {"task": folder, "language": language, "metric": metric,
                     "evaluate_py": value, "project": mine, "difference": value - mine}
                )  # fmt: skip
    counts = {folder: len(langs) for folder, langs in languages.items()}
    averages = {folder: theirs[folder]["avg_metric"] for folder in languages}
    summary = {"languages": counts, "largest_difference": largest, "evaluate_py_avg": averages}
    print(json.dumps(summary, indent=2))
    if args.out:
        args.out.write_text(json.dumps({**summary, "rows": rows}, indent=2) + "\n")
    return 0 if largest <= 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
