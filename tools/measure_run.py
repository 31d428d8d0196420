"""Measure `make run`'s workflow on a fresh clone and record it: `make measure-run`.

Clones this checkout's HEAD into a temporary folder (so nothing is cached: the model's conversion,
the demo's data, the fine-tune and every table run as on a user's first `make run`), runs the
default workflow and its report there with this checkout's installed environment, samples the
machine's load every few seconds, and writes `docs/measured/make-run.json`: the commit, the date,
the machine (CPUs, memory, platform), the load before and during the run, the wall time and the
time per rule (from Snakemake's benchmark files). Then it rewrites the sentence between the
README's `<!-- make-run:start -->` and `<!-- make-run:end -->` markers from that file, so that the
time the README states is always one that a run wrote (tests/unit/test_docs.py checks it).
The installation (`pip install`, a minute or two with a warm cache) is not in the figure.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RECORD = REPO / "docs" / "measured" / "make-run.json"
README = REPO / "README.md"
START, END = "<!-- make-run:start -->", "<!-- make-run:end -->"


def _minutes(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"


def sentence(record: dict) -> str:
    """The README's sentence about `make run`'s time, from a record this tool wrote."""
    machine = record["machine"]
    load = record["load"]
    finetune = record["rules"].get("finetune")
    parts = [
        f"`make run` took {_minutes(record['wall_seconds'])} here (the workflow and its report, "
        f"installation not counted; the fine-tune {_minutes(finetune)})"
        if finetune is not None
        else f"`make run` took {_minutes(record['wall_seconds'])} here (the workflow and its "
        "report, installation not counted)",
        f" on {machine['cpus']} CPUs ({machine['cpu_model']}), commit {record['commit'][:7]}, "
        f"{record['date'][:10]}, load average {load['during_mean']:.1f} on average during the run "
        f"({load['before']:.1f} before it): [docs/measured/make-run.json]"
        "(docs/measured/make-run.json), written by `make measure-run`.",
    ]
    return "".join(parts)


def readme_block(record: dict) -> str:
    return f"{START}\n{sentence(record)}\n{END}"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024**2, 1)
    except OSError:
        pass
    return None


def _rule_seconds(workdir: Path) -> dict[str, float]:
    """Seconds per rule: the sum of its jobs' wall times in Snakemake's benchmark files
    (results/benchmarks/{rule folder}/...)."""
    totals: dict[str, float] = {}
    for path in (workdir / "results" / "benchmarks").rglob("*.tsv"):
        folder = path.relative_to(workdir / "results" / "benchmarks").parts[0]
        with path.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                totals[folder] = totals.get(folder, 0.0) + float(row["s"])
    return {rule: round(seconds, 1) for rule, seconds in sorted(totals.items())}


class LoadSampler(threading.Thread):
    """The 1-minute load average every ``every`` seconds until stopped."""

    def __init__(self, every: float = 5.0) -> None:
        super().__init__(daemon=True)
        self.every, self.samples, self._done = every, [], threading.Event()

    def run(self) -> None:
        while not self._done.wait(self.every):
            self.samples.append(os.getloadavg()[0])

    def stop(self) -> list[float]:
        self._done.set()
        self.join()
        return self.samples


def measure(cores: str) -> dict:
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    bin_dir = Path(sys.executable).parent
    with tempfile.TemporaryDirectory(prefix="mte-measure-run-") as folder:
        clone = Path(folder) / "clone"
        subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
        subprocess.run(["git", "checkout", "-q", commit], cwd=clone, check=True)
        before = os.getloadavg()[0]
        sampler = LoadSampler()
        sampler.start()
        started = time.monotonic()
        env = {**os.environ, "PYTHONPATH": str(clone / "workflow" / "scripts")}
        for command in (
            [str(bin_dir / "snakemake"), "--cores", cores],
            # make run's report step, mte-report, from the clone's package
            [sys.executable, "-m", "mte.commands.report"],
        ):
            print("$", " ".join(command), flush=True)
            subprocess.run(command, cwd=clone, env=env, check=True)
        wall = time.monotonic() - started
        samples = sampler.stop() or [os.getloadavg()[0]]
        rules = _rule_seconds(clone)
    return {
        "what": "make run's workflow and report on a fresh clone (installation not counted)",
        "commit": commit,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "cores": cores,
        "wall_seconds": round(wall, 1),
        "rules": rules,
        "load": {
            "before": round(before, 2),
            "during_mean": round(sum(samples) / len(samples), 2),
            "during_max": round(max(samples), 2),
            "samples": len(samples),
        },
        "machine": {
            "cpus": os.cpu_count(),
            "cpu_model": _cpu_model(),
            "memory_gib": _memory_gib(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
    }


def write_readme(record: dict, readme: Path = README) -> None:
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{readme}: no {START} ... {END} markers")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(head + readme_block(record) + tail, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cores", default="all", help="snakemake --cores (%(default)s)")
    parser.add_argument(
        "--readme-only", action="store_true", help="rewrite the README from the record only"
    )
    args = parser.parse_args()
    if not args.readme_only:
        record = measure(args.cores)
        RECORD.parent.mkdir(parents=True, exist_ok=True)
        RECORD.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {RECORD}")
    write_readme(json.loads(RECORD.read_text(encoding="utf-8")))
    print(f"rewrote the make run sentence of {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
