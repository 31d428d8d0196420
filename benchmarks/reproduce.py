"""Every row of BENCHMARKS.md measured again, several times, each run a fresh process: runs each
benchmark script ``--runs`` times, one after the other, and keeps every run's result in
benchmarks/results/{name}.runs.json beside the last one ({name}.json). benchmarks/report.py
then prints each figure as the median of the runs with their range, so that a figure one run
does not reach is not printed as reached.

Run it alone on the machine (each run records the load before and after it). Not here: the
rows whose sides each take an hour (benchmarks/panx_peer.py, benchmarks/bf16_workflow.py),
which say in their row that they are one run; benchmarks/bf16_cpu.py,
benchmarks/bf16_ceiling.py and benchmarks/bf16_variants.py run their own rounds, each side in a
fresh process: one run of three rounds is what their rows report, so they are left out unless
named.

    .venv/bin/python benchmarks/reproduce.py [--runs 3] [NAME ...]   # NAME: a script's stem
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from _common import REPO, RESULTS

# each script and the results it writes (benchmarks/results/{name}.json)
SCRIPTS = {
    "predict_throughput": ["predict_throughput"],
    "forward_flops": ["forward_flops"],
    "finetune_throughput": ["finetune_throughput"],
    "tokenize_throughput": ["tokenize_throughput"],
    "paper_tokenization": ["paper_tokenization"],
    "workflow_overhead": ["workflow_overhead"],
    "predict_memory": ["predict_memory"],
    "retrieval_scale": ["retrieval_scale"],
    "bf16_cpu": ["bf16_cpu"],
    "bf16_ceiling": ["bf16_ceiling"],
    "bf16_variants": ["bf16_variants"],
    "lora_memory": ["lora_memory"],
    "finetune_memory": ["finetune_memory"],
    "llm_memory": ["llm_memory"],
}
# the benchmarks whose one run is already rounds of fresh processes (left out unless named)
OWN_ROUNDS = {"bf16_cpu", "bf16_ceiling", "bf16_variants"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[[], *SCRIPTS], default=[])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for name in args.names or [name for name in SCRIPTS if name not in OWN_ROUNDS]:
        runs: dict[str, list] = {result: [] for result in SCRIPTS[name]}
        for number in range(1, args.runs + 1):
            load = os.getloadavg()[0]
            start = time.perf_counter()
            subprocess.run([sys.executable, str(REPO / "benchmarks" / f"{name}.py")], check=True)
            seconds = time.perf_counter() - start
            print(f"{name}: run {number} of {args.runs} in {seconds:.0f} s (load {load:.2f})")
            for result in runs:
                runs[result].append(json.loads((RESULTS / f"{result}.json").read_text()))
        for result, records in runs.items():
            path = RESULTS / f"{result}.runs.json"
            path.write_text(json.dumps({"runs": records}, indent=2) + "\n", encoding="utf-8")
            print(f"  {path.relative_to(REPO)}: {len(records)} runs")


if __name__ == "__main__":
    main()
