"""A fine-tune's peak memory and time per step with glibc's allocator as it comes, and with its
mmap threshold fixed at 64 KiB (freed blocks of 64 KiB and more go back to the system): what
the memory a fine-tune keeps would cost to hand back. The workflow leaves glibc as it comes
(docs/whole-benchmark.md: a third slower a step for a quarter less memory).

Real PAN-X: the first English training sentences of ../shared/data/panx/train-en.first1000.tsv,
e5-small under a token classification head, XTREME's tagging recipe (batch 32, max length 128,
lr 2e-5), our fine-tune step (mte.steps.finetune) for one epoch. glibc serves an allocation
from its heap once a block of that size has been freed (its mmap threshold rises to the
largest block freed, up to 32 MiB), and a heap only shrinks from its top: the activations of
batches of varying length then leave freed memory the process keeps. Each side is a fresh
Python process, as a workflow job is; its peak resident memory (``ru_maxrss``) is its own.
Rounds alternate between the sides; the best time per step of each is kept.

    .venv/bin/python benchmarks/finetune_memory.py [--examples 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import SHARED, e5_folder, one_epoch_hp, write_result

SIDES = ("glibc", "threshold")
# mallopt's parameter number (malloc.h) and the fixed threshold
M_MMAP_THRESHOLD = -3
THRESHOLD_BYTES = 64 * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--side", nargs=3, help=argparse.SUPPRESS)  # internal: side job out
    args = parser.parse_args()
    if args.side:
        side(*args.side)
        return

    from transformers import AutoTokenizer

    from mte.families.tagging.features import tokenize_tagging
    from mte.families.tagging.readers import read_token_tag_tsv
    from mte.modelling.features import save_features
    from mte.registry import TASKS

    task, folder = TASKS["panx"], e5_folder()
    path = SHARED / "panx" / "train-en.first1000.tsv"
    if not path.is_file():
        raise SystemExit(f"benchmark needs the real PAN-X file: {path} not found")
    examples = read_token_tag_tsv(path, task)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        features = [
            tokenize_tagging(tokenizer, part, task, 128, "first", "fast")
            for part in (examples[: args.examples], examples[-64:])
        ]
        save_features(features[0], scratch / "train.pt")
        save_features(features[1], scratch / "dev.pt")
        hp = one_epoch_hp(32)
        job = scratch / "job.json"
        job.write_text(json.dumps({"folder": str(folder), "scratch": str(scratch), "hp": hp}))

        def run(name: str, round_: int) -> dict:
            out = scratch / f"{name}-{round_}.json"
            subprocess.run([sys.executable, __file__, "--side", name, job, out], check=True)
            return json.loads(out.read_text())

        runs: dict[str, list[dict]] = {name: [] for name in SIDES}
        for round_ in range(args.rounds):
            for name in SIDES:
                runs[name].append(run(name, round_))
    best = {name: min(r, key=lambda x: x["seconds_per_step"]) for name, r in runs.items()}
    glibc, ours = best["glibc"], best["threshold"]
    result = {
        "model": "e5-small (PAN-X token classification head)",
        "examples": args.examples,
        "steps": ours["steps"],
        "rounds": args.rounds,
        "peaks_mib": {name: [r["peak_mib"] for r in rs] for name, rs in runs.items()},
        "seconds_per_step": {
            name: [r["seconds_per_step"] for r in rs] for name, rs in runs.items()
        },
        "peak_ratio": glibc["peak_mib"] / ours["peak_mib"],
        "step_time_ratio": ours["seconds_per_step"] / glibc["seconds_per_step"],
        "same_losses": glibc["losses"] == ours["losses"],
    }
    path = write_result("finetune_memory", result)
    print(
        f"fine-tune peak memory, {ours['steps']} PAN-X steps of batch 32: glibc as it comes "
        f"{glibc['peak_mib']:.0f} MiB, its mmap threshold fixed at 64 KiB "
        f"{ours['peak_mib']:.0f} MiB "
        f"({result['peak_ratio']:.2f}x less); time per step {glibc['seconds_per_step']:.3f} vs "
        f"{ours['seconds_per_step']:.3f} s ({result['step_time_ratio']:.2f}x); the same losses: "
        f"{result['same_losses']}  ({path})"
    )


def side(name: str, job_path: str, out_path: str) -> None:
    """One fine-tune in this process, with the allocator as it comes or its threshold fixed
    (before any large allocation: glibc then never raises it)."""
    if name == "threshold":
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(M_MMAP_THRESHOLD, THRESHOLD_BYTES)
    from mte.modelling.hyperparameters import HyperParameters
    from mte.steps.finetune import finetune

    job = json.loads(Path(job_path).read_text())
    scratch = Path(job["scratch"])
    hp = HyperParameters.from_config(job["hp"])
    record = finetune(
        job["folder"], [scratch / "train.pt"], [scratch / "dev.pt"],
        scratch / f"model-{name}", scratch / f"checkpoints-{name}", hp, 1,
    )  # fmt: skip
    steps = len(record["losses"])
    result = {
        "steps": steps,
        "seconds_per_step": record["loop_seconds"] / steps,
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "losses": record["losses"],
    }
    Path(out_path).write_text(json.dumps(result))


if __name__ == "__main__":
    main()
