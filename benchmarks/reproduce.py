"""Every row of BENCHMARKS.md measured again, several times, each run a fresh process: runs each
benchmark script ``--runs`` times, one after the other, and keeps every run's result in
benchmarks/results/{name}.runs.json beside the last one ({name}.json). benchmarks/report.py
then prints each figure as the median of the runs with their range, so that a figure one run
does not reach is not printed as reached.

Run it alone on the machine (each run records the load before and after it). Left out unless
named: the rows whose sides each take an hour (benchmarks/panx_peer.py,
benchmarks/bf16_workflow.py; their arguments after ``--``, the same for every run), and
benchmarks/bf16_cpu.py, benchmarks/bf16_ceiling.py and benchmarks/bf16_variants.py, which run
their own rounds, each side in a fresh process (one run of three rounds is what their rows
report). A run's results are the result files it wrote. The longest of the default ones is
benchmarks/bf16_agreement.py (about 16 minutes a run here: 37,350 pairs predicted three ways).

    .venv/bin/python benchmarks/reproduce.py [--runs 3] [NAME ...]   # NAME: a script's stem
    .venv/bin/python benchmarks/reproduce.py bf16_workflow -- --task tatoeba --download DIR
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from _common import REPO, RESULTS

SCRIPTS = (
    "predict_throughput", "forward_flops", "finetune_throughput", "tokenize_throughput",
    "paper_tokenization", "workflow_overhead", "predict_memory", "retrieval_scale", "bf16_cpu",
    "bf16_ceiling", "bf16_variants", "bf16_agreement", "lora_memory", "finetune_memory",
    "llm_memory", "panx_peer", "bf16_workflow",
)  # fmt: skip
# left out unless named: those whose one run is already rounds of fresh processes, and those
# that take an hour a side (and need --download)
OWN_ROUNDS = {"bf16_cpu", "bf16_ceiling", "bf16_variants"}
HOURS = {"panx_peer", "bf16_workflow"}


def written_since(start: float) -> set[str]:
    """The results (benchmarks/results/{name}.json) written since ``start`` (time.time())."""
    return {
        path.stem
        for path in RESULTS.glob("*.json")
        if not path.name.endswith(".runs.json") and path.stat().st_mtime >= start
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], usage="%(prog)s [--runs N] [NAME ...] [-- ARGS]"
    )
    parser.add_argument("names", nargs="*", choices=[[], *SCRIPTS], default=[])
    parser.add_argument("--runs", type=int, default=3)
    # what follows "--" is every run's arguments (argparse would read them as names)
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args, script_args = parser.parse_args(argv[:split]), argv[split + 1 :]
    names = args.names or [name for name in SCRIPTS if name not in OWN_ROUNDS | HOURS]
    for name in names:
        runs: dict[str, list] = {}
        for number in range(1, args.runs + 1):
            load = os.getloadavg()[0]
            began, start = time.time(), time.perf_counter()
            command = [sys.executable, str(REPO / "benchmarks" / f"{name}.py"), *script_args]
            subprocess.run(command, check=True)
            seconds = time.perf_counter() - start
            print(f"{name}: run {number} of {args.runs} in {seconds:.0f} s (load {load:.2f})")
            written = written_since(began)
            if not written:
                raise SystemExit(f"{name}: run {number} wrote no result")
            if runs and written != set(runs):
                raise SystemExit(
                    f"{name}: run {number} wrote {sorted(written)}, not {sorted(runs)}"
                )
            for result in written:
                runs.setdefault(result, []).append(read_result(result))
        for result, records in runs.items():
            path = RESULTS / f"{result}.runs.json"
            path.write_text(json.dumps({"runs": records}, indent=2) + "\n", encoding="utf-8")
            print(f"  {path.relative_to(REPO)}: {len(records)} runs")


def read_result(name: str) -> dict:
    return json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
