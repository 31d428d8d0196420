"""What a run of the workflow cost, per job and per rule, from Snakemake's benchmark files.

Two commands, both given the run's config files and ``--config`` values as snakemake was:

``python tools/run_costs.py measure --configfile A [B ...] [--config K=V ...] [--cores N]``
    runs the workflow (``snakemake --cores N`` on this checkout's Snakefile, in ``--directory``),
    samples the machine's 1-minute load average every 10 seconds, and writes what only a watch
    of the whole run can know beside the run's tables: ``results/runs/{run}/costs/sessions.json``
    (start, wall-clock, exit status, load before and during, the command and the commit; a run
    stopped and measured again keeps one entry per session, and the report adds them up).

``python tools/run_costs.py report --configfile A [B ...] [--config K=V ...] [--out PREFIX]``
    lists every job of the run (a forced dry run names each job's rule, wildcards, threads and
    benchmark file), reads each job's benchmark file (wall-clock, CPU seconds, peak resident
    memory), the examples and sub-word tokens it handled (the data records and feature files
    of its inputs and outputs), and writes ``PREFIX.json`` and ``PREFIX.md`` (default
    ``docs/measured/{run}-costs``): every job, the sums per rule and per rule x task, their
    shares, the rates a user extrapolates from (seconds per 1,000 examples and tokens), the
    run's wall-clock and load (from ``measure``'s session where there is one, else the span
    of its jobs), the machine (CPU model, cores, bf16 units, memory) and the threads.

A job planned but without a benchmark file (not run yet, or made before the benchmark existed)
is counted and named, never guessed. The page says what the sums are: job wall-clock summed
over jobs that ran side by side is more than the run's wall-clock.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import re
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "workflow" / "scripts"))
sys.path.insert(0, str(REPO))

# a dry run's job block: "rule NAME:" then indented "key: value" lines (indented once more
# inside a group job: the tokenisations a cluster profile groups)
RULE_LINE = re.compile(r"^\s*(?:local)?rule (\w+):$")
FIELD_LINE = re.compile(r"^\s+(\w+): (.*)$")
# Snakemake's benchmark columns (seconds, MB) and what this tool calls them
BENCHMARK_COLUMNS = {"s": "wall_s", "cpu_time": "cpu_s", "max_rss": "max_rss_mb"}
LOAD_EVERY_S = 10.0


@dataclass
class Job:
    """One job of the run as its dry run names it."""

    rule: str
    wildcards: dict[str, str]
    benchmark: str | None
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    threads: int = 1

    @property
    def name(self) -> str:
        return "/".join(self.wildcards.values()) or self.rule


def _paths(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def parse_dry_run(text: str) -> list[Job]:
    """The jobs of a dry run's console output (``snakemake -n -F --workflow-profile none``,
    whose per-job blocks name the rule, inputs, outputs, benchmark, wildcards and threads)."""
    jobs: list[Job] = []
    current: Job | None = None
    for line in text.splitlines():
        if match := RULE_LINE.match(line):
            current = Job(match.group(1), {}, None)
            jobs.append(current)
            continue
        if current is None or not (found := FIELD_LINE.match(line)):
            if line.strip():
                current = None  # a line outside the block (a timestamp, a group's heading)
            continue
        key, value = found.groups()
        if key == "benchmark":
            current.benchmark = value.strip()
        elif key == "wildcards":
            pairs = (item.split("=", 1) for item in value.split(", ") if "=" in item)
            current.wildcards = {k.strip(): v.strip() for k, v in pairs}
        elif key == "input":
            current.inputs = _paths(value)
        elif key == "output":
            current.outputs = _paths(value)
        elif key == "threads":
            current.threads = int(value)
    return [job for job in jobs if job.rule != "all"]


def read_benchmark(path: Path) -> dict[str, float] | None:
    """A benchmark file's figures (its last row: a job benchmarked again overwrites the file),
    or None where the job has none."""
    if not path.is_file():
        return None
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    if not rows:
        return None
    row = rows[-1]
    figures = {}
    for column, name in BENCHMARK_COLUMNS.items():
        text = row.get(column, "")
        figures[name] = float(text) if text not in ("", "NA", "-") else 0.0
    figures["ended"] = path.stat().st_mtime
    return figures


class Sizes:
    """Examples and sub-word tokens of the files a job read or wrote, each file read once:
    a data record's ``count``, a feature file's inputs (their lengths summed for tokens), a
    JSON Lines file's lines."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self._known: dict[str, tuple[int | None, int | None]] = {}

    def of(self, path: str) -> tuple[int | None, int | None]:
        if path not in self._known:
            self._known[path] = self._measure(self.workdir / path)
        return self._known[path]

    @staticmethod
    def _measure(path: Path) -> tuple[int | None, int | None]:
        if path.name == "features.pt" and path.is_file():
            import torch

            features = torch.load(path, weights_only=False, map_location="cpu")
            ids = features.get("input_ids") or []
            examples = len(features.get("ids") or ids)
            return examples, sum(len(row) for row in ids)
        if path.name.endswith(".meta.json") and path.is_file():
            return json.loads(path.read_text(encoding="utf-8")).get("count"), None
        if path.suffix == ".jsonl" and path.is_file():
            with path.open("rb") as handle:
                return sum(1 for line in handle if line.strip()), None
        return None, None


def job_sizes(job: Job, sizes: Sizes) -> dict[str, int | None]:
    """What a job handled: a download its data record's examples, a tokenisation the inputs
    of the features it wrote, a fine-tune its training features (per epoch), a prediction or
    an embedding pass the features or examples it read, a score the predictions it scored."""
    if job.rule == "download":
        chosen = [p for p in job.outputs if p.endswith(".meta.json")]
    elif job.rule == "tokenize":
        chosen = [p for p in job.outputs if p.endswith("features.pt")]
    elif job.rule == "finetune":
        chosen = [p for p in job.inputs if p.endswith("/train/features.pt")][:1]
    elif job.rule == "predict":
        chosen = [p for p in job.inputs if p.endswith("features.pt")]
    elif job.rule in ("retrieve", "embed_pool"):
        chosen = [p for p in job.inputs if p.endswith(".jsonl")]
    elif job.rule == "score":
        chosen = [p for p in job.inputs if "/predictions/" in p and p.endswith(".jsonl")][:1]
    else:
        chosen = []
    examples = tokens = None
    for path in chosen:
        found_examples, found_tokens = sizes.of(path)
        if found_examples is not None:
            examples = (examples or 0) + found_examples
        if found_tokens is not None:
            tokens = (tokens or 0) + found_tokens
    if job.rule == "finetune":
        # a fine-tune reads its training set once an epoch: what its time grows with
        epochs = _epochs(sizes.workdir, job)
        examples = examples * epochs if examples is not None and epochs else examples
        tokens = tokens * epochs if tokens is not None and epochs else tokens
    return {"examples": examples, "tokens": tokens}


def _epochs(workdir: Path, job: Job) -> int | None:
    """The epochs a fine-tune trained (its training.json beside the model it wrote)."""
    for output in job.outputs:
        record = workdir / output / "training.json"
        if record.is_file():
            hyperparameters = json.loads(record.read_text(encoding="utf-8"))["hyperparameters"]
            return int(hyperparameters["epochs"])
    return None


def _rate(seconds: float, amount: int | None) -> float | None:
    return round(1000.0 * seconds / amount, 3) if amount else None


def _summed(rows: list[dict[str, Any]], total_wall: float) -> dict[str, Any]:
    wall = sum(row["wall_s"] for row in rows)
    examples = [row["examples"] for row in rows if row["examples"] is not None]
    tokens = [row["tokens"] for row in rows if row["tokens"] is not None]
    timed_examples = sum(row["wall_s"] for row in rows if row["examples"] is not None)
    timed_tokens = sum(row["wall_s"] for row in rows if row["tokens"] is not None)
    return {
        "jobs": len(rows),
        "wall_s": round(wall, 1),
        "cpu_s": round(sum(row["cpu_s"] for row in rows), 1),
        "share": round(wall / total_wall, 4) if total_wall else None,
        "max_rss_mb": round(max(row["max_rss_mb"] for row in rows), 1),
        "examples": sum(examples) if examples else None,
        "tokens": sum(tokens) if tokens else None,
        "s_per_1000_examples": _rate(timed_examples, sum(examples)) if examples else None,
        "s_per_1000_tokens": _rate(timed_tokens, sum(tokens)) if tokens else None,
    }


def costs(jobs: list[Job], workdir: Path) -> dict[str, Any]:
    """Every job's figures, their sums per rule and per rule x task, and the run's totals."""
    sizes = Sizes(workdir)
    rows, missing = [], []
    for job in jobs:
        figures = read_benchmark(workdir / job.benchmark) if job.benchmark else None
        if figures is None:
            missing.append({"rule": job.rule, "job": job.name})
            continue
        rows.append(
            {
                "rule": job.rule,
                "job": job.name,
                "task": job.wildcards.get("task", ""),
                "threads": job.threads,
                **{k: round(v, 2) for k, v in figures.items() if k != "ended"},
                "ended": figures["ended"],
                **job_sizes(job, sizes),
            }
        )
    total_wall = sum(row["wall_s"] for row in rows)
    by_rule: dict[str, list[dict[str, Any]]] = {}
    by_task: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_rule.setdefault(row["rule"], []).append(row)
        by_task.setdefault(f"{row['rule']} {row['task']}".strip(), []).append(row)
    rules = {name: _summed(group, total_wall) for name, group in by_rule.items()}
    rules = dict(sorted(rules.items(), key=lambda item: -item[1]["wall_s"]))
    per_task = {name: _summed(group, total_wall) for name, group in by_task.items()}
    per_task = dict(sorted(per_task.items(), key=lambda item: -item[1]["wall_s"]))
    span = None
    if rows:
        started = min(row["ended"] - row["wall_s"] for row in rows)
        span = round(max(row["ended"] for row in rows) - started, 1)
    for row in rows:
        row["ended"] = datetime.fromtimestamp(row["ended"], UTC).isoformat(timespec="seconds")
    return {
        "jobs_planned": len(jobs),
        "jobs_measured": len(rows),
        "jobs_without_benchmark": missing,
        "job_wall_s": round(total_wall, 1),
        "job_cpu_s": round(sum(row["cpu_s"] for row in rows), 1),
        "jobs_span_s": span,
        "peak_rss_mb": round(max((row["max_rss_mb"] for row in rows), default=0.0), 1),
        "rules": rules,
        "rule_task": per_task,
        "top_rules": [
            {"rule": name, "wall_s": group["wall_s"], "share": group["share"]}
            for name, group in list(rules.items())[:3]
        ],
        "per_job": rows,
    }


# --- the run: its config, jobs, machine and session ---


def run_config(configfiles: Sequence[str], overrides: Sequence[str]) -> dict[str, Any]:
    from mte.commands.report import run_config as merged

    return merged(configfiles, overrides)


def run_folder(workdir: Path, configfiles: Sequence[str], overrides: Sequence[str]) -> Path:
    from mte.config.plan.keys import run_name

    name = run_name(run_config(configfiles, overrides), list(configfiles))
    return workdir / "results" / "runs" / name


def _snakemake(workdir: Path, configfiles: Sequence[str], overrides: Sequence[str]) -> list[str]:
    command = [
        sys.executable, "-m", "snakemake",
        "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(workdir),
    ]  # fmt: skip
    if configfiles:
        command += ["--configfile", *configfiles]
    if overrides:
        command += ["--config", *overrides]
    return command


def planned_jobs(workdir: Path, configfiles: Sequence[str], overrides: Sequence[str]) -> list[Job]:
    """Every job of the run, done or not: a forced dry run with Snakemake's per-job blocks."""
    command = [*_snakemake(workdir, configfiles, overrides), "-n", "-F"]
    command += ["--workflow-profile", "none", "--cores", "1"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"run_costs: the dry run failed:\n{done.stderr[-3000:]}")
    return parse_dry_run(done.stdout + done.stderr)


def machine() -> dict[str, Any]:
    """The machine (CPU model, cores, bf16 units, memory), as the other measured files say it."""
    import torch

    from mte.runtime.machine import cpu_bf16_units
    from tools.measure_run import _cpu_model, _memory_gib

    return {
        "cpu_model": _cpu_model(),
        "cpus": os.cpu_count(),
        "bf16_units": cpu_bf16_units(),
        "memory_gib": _memory_gib(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "torch": torch.__version__,
    }


def threads_of(config: dict[str, Any], cores: int | None) -> dict[str, Any]:
    """Threads per job of the heavy rules, as the run's config and the schema's defaults set
    them, and the cores Snakemake caps them by."""
    import yaml

    schema = yaml.safe_load((REPO / "config" / "schema.yaml").read_text(encoding="utf-8"))
    defaults = {
        rule: entry["default"]
        for rule, entry in schema["properties"]["threads"]["properties"].items()
    }
    return {"per_rule": {**defaults, **(config.get("threads") or {})}, "cores": cores}


def _commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
    )
    return done.stdout.strip()


class LoadSampler(threading.Thread):
    """The 1-minute load average every ``every`` seconds, until stopped; with ``pid``, also
    that process's own CPU seconds (Snakemake's scheduler, its jobs' processes apart)."""

    def __init__(self, every: float = LOAD_EVERY_S, pid: int | None = None) -> None:
        super().__init__(daemon=True)
        self.every, self.samples, self._done = every, [], threading.Event()
        self.pid, self.own_cpu_s = pid, None

    def run(self) -> None:
        while not self._done.wait(self.every):
            self.samples.append(round(os.getloadavg()[0], 2))
            self._own_cpu()

    def _own_cpu(self) -> None:
        if self.pid is None:
            return
        import psutil

        try:
            times = psutil.Process(self.pid).cpu_times()
        except psutil.Error:
            return  # it has exited: the last sample stands
        self.own_cpu_s = round(times.user + times.system, 1)

    def stop(self) -> list[float]:
        self._done.set()
        self.join()
        return self.samples


def measure(args: argparse.Namespace) -> int:
    """Run the workflow, watched: wall-clock, exit status and the machine's load."""
    workdir = Path(args.directory).resolve()
    folder = run_folder(workdir, args.configfile, args.config)
    command = [*_snakemake(workdir, args.configfile, args.config), "--cores", args.cores]
    before = round(os.getloadavg()[0], 2)
    started_at = datetime.now(UTC)
    started = time.monotonic()
    print("$", " ".join(command), flush=True)
    process = subprocess.Popen(command)
    sampler = LoadSampler(pid=process.pid)
    sampler.start()
    returncode = process.wait()
    wall = time.monotonic() - started
    samples = sampler.stop() or [round(os.getloadavg()[0], 2)]
    session = {
        "command": command[1:],
        "commit": _commit(),
        "started": started_at.isoformat(timespec="seconds"),
        "wall_s": round(wall, 1),
        "returncode": returncode,
        "cores": args.cores,
        # Snakemake's own process (scheduling, its checks of inputs and params), sampled
        # until its last seconds: what the run spends beside its jobs
        "snakemake_cpu_s": sampler.own_cpu_s,
        "load": {
            "before": before,
            "during_mean": round(sum(samples) / len(samples), 2),
            "during_max": max(samples),
            "samples": len(samples),
            "every_s": LOAD_EVERY_S,
        },
    }
    (folder / "costs").mkdir(parents=True, exist_ok=True)
    # a run stopped and started again (Snakemake then runs only the jobs left) is watched in
    # several sessions: each is kept, and the report adds them up
    sessions = [*read_sessions(folder), session]
    (folder / "costs" / "sessions.json").write_text(json.dumps(sessions, indent=2) + "\n")
    (folder / "costs" / "session.json").unlink(missing_ok=True)
    print(f"wrote {folder / 'costs' / 'sessions.json'} (session {len(sessions)})")
    return returncode


def read_sessions(folder: Path) -> list[dict[str, Any]]:
    """The watched sessions of a run, oldest first (``session.json``: one, as written before a
    run could have several)."""
    many, one = folder / "costs" / "sessions.json", folder / "costs" / "session.json"
    if many.is_file():
        return json.loads(many.read_text())
    return [json.loads(one.read_text())] if one.is_file() else []


def combined(sessions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The sessions of one run as one: wall-clock and Snakemake's CPU summed, the load averaged
    over every sample, the first start, the last exit status."""
    if not sessions:
        return None
    samples = sum(entry["load"]["samples"] for entry in sessions)
    own = [entry.get("snakemake_cpu_s") for entry in sessions]
    return {
        "started": sessions[0]["started"],
        "commit": sessions[-1]["commit"],
        "cores": sessions[-1]["cores"],
        "returncode": sessions[-1]["returncode"],
        "parts": len(sessions),
        "wall_s": round(sum(entry["wall_s"] for entry in sessions), 1),
        "snakemake_cpu_s": None if None in own else round(sum(own), 1),
        "load": {
            "before": sessions[0]["load"]["before"],
            "during_mean": round(
                sum(e["load"]["during_mean"] * e["load"]["samples"] for e in sessions) / samples, 2
            ),
            "during_max": max(entry["load"]["during_max"] for entry in sessions),
            "samples": samples,
        },
    }


# --- the page ---


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    minutes, rest = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {rest:02d} s"


def _number(value: float | int | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{digits}f}"


def _group_rows(groups: dict[str, dict[str, Any]]) -> list[str]:
    lines = [
        "| | jobs | wall-clock (sum) | share | CPU s | peak RSS MB | examples | tokens "
        "| s per 1,000 examples | s per 1,000 tokens |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for name, group in groups.items():
        share = f"{100 * group['share']:.1f}%" if group["share"] is not None else "-"
        lines.append(
            f"| {name} | {group['jobs']} | {_duration(group['wall_s'])} | {share} | "
            f"{_number(group['cpu_s'], 0)} | {_number(group['max_rss_mb'], 0)} | "
            f"{_number(group['examples'])} | {_number(group['tokens'])} | "
            f"{_number(group['s_per_1000_examples'], 2)} | "
            f"{_number(group['s_per_1000_tokens'], 3)} |"
        )
    return lines


def page(record: dict[str, Any]) -> str:
    """The record as a Markdown page (docs/measured/{run}-costs.md)."""
    run, totals, machine_ = record["run"], record["costs"], record["machine"]
    session = record.get("session")
    units = ", ".join(machine_["bf16_units"]) or "none"
    lines = [
        f"# What the run `{run}` cost",
        "",
        f"Written by `tools/run_costs.py report` from Snakemake's benchmark files of the run's "
        f"{totals['jobs_planned']} jobs ({totals['jobs_measured']} measured), "
        f"{record['date'][:10]}, commit {record['commit'][:7]}; the record: "
        f"[{record['name']}.json]({record['name']}.json).",
        "",
        f"Machine: {machine_['cpus']} CPUs ({machine_['cpu_model']}), bf16 units: {units}, "
        f"{machine_['memory_gib']} GiB, {machine_['platform']}, Python {machine_['python']}, "
        f"torch {machine_['torch']}. Threads per job: "
        + ", ".join(f"{rule} {n}" for rule, n in record["threads"]["per_rule"].items())
        + (
            f" (capped by --cores {record['threads']['cores']})."
            if record["threads"]["cores"]
            else " (capped by the run's --cores)."
        ),
        "",
    ]
    if session:
        load, parts = session["load"], record.get("sessions") or [session]
        lines += [
            f"**Wall-clock of the run: {_duration(session['wall_s'])}** (`snakemake "
            f"--cores {session['cores']}`, watched by `tools/run_costs.py measure`, started "
            f"{session['started']}, exit status {session['returncode']}); the machine's load "
            f"average {load['during_mean']} on average during it, {load['during_max']} at most, "
            f"{load['before']} before it ({load['samples']} samples).",
            "",
        ]
        if len(parts) > 1:
            lines += [
                f"The run was stopped and started again: {len(parts)} watched sessions, the "
                "later ones running only the jobs left (their wall-clocks add up to the above): "
                + "; ".join(
                    f"{entry['started']}, {_duration(entry['wall_s'])}, exit status "
                    f"{entry['returncode']}"
                    for entry in parts
                )
                + ".",
                "",
            ]
        if session.get("snakemake_cpu_s") is not None:
            share = session["snakemake_cpu_s"] / session["wall_s"] if session["wall_s"] else 0
            lines += [
                f"Snakemake's own process (scheduling, beside the jobs): "
                f"{_number(session['snakemake_cpu_s'], 0)} CPU seconds, {100 * share:.1f}% of "
                "one core over the run.",
                "",
            ]
    else:
        lines += [
            f"Wall-clock from the first job's start to the last job's end: "
            f"{_duration(totals['jobs_span_s'])} (no watched session of this run).",
            "",
        ]
    top = "; ".join(f"{entry['rule']} {100 * entry['share']:.1f}%" for entry in totals["top_rules"])
    lines += [
        f"Job wall-clock summed over every job: {_duration(totals['job_wall_s'])} "
        f"({_number(totals['job_cpu_s'], 0)} CPU seconds); jobs that ran side by side count "
        f"once each, so the sum exceeds the run's wall-clock. Largest peak memory of a job: "
        f"{_number(totals['peak_rss_mb'], 0)} MB. The three most expensive rules, as shares of "
        f"the summed job wall-clock: {top}.",
        "",
        "## Per rule",
        "",
        *_group_rows(totals["rules"]),
        "",
        "## Per rule and task",
        "",
        "Examples: a download's records, a tokenisation's or prediction's inputs (sentences, "
        "pairs, windows), a fine-tune's training inputs times its epochs, an embedding pass's "
        "sentences, a score's predictions. Tokens: the sub-word ids of those inputs.",
        "",
        *_group_rows(totals["rule_task"]),
        "",
    ]
    if missing := totals["jobs_without_benchmark"]:
        per_rule: dict[str, int] = {}
        for entry in missing:
            per_rule[entry["rule"]] = per_rule.get(entry["rule"], 0) + 1
        counted = ", ".join(f"{rule} {count}" for rule, count in per_rule.items())
        named = "; ".join(f"{entry['rule']} {entry['job']}" for entry in missing[:5])
        lines += [
            f"Jobs without a benchmark file, not counted: {len(missing)} ({counted}), e.g. "
            f"{named} (all of them in the JSON record).",
            "",
        ]
    return "\n".join(lines)


def report(args: argparse.Namespace) -> int:
    workdir = Path(args.directory).resolve()
    config = run_config(args.configfile, args.config)
    folder = run_folder(workdir, args.configfile, args.config)
    jobs = planned_jobs(workdir, args.configfile, args.config)
    sessions = read_sessions(folder)
    session = combined(sessions)
    cores = session["cores"] if session else None
    out = Path(args.out) if args.out else REPO / "docs" / "measured" / f"{folder.name}-costs"
    record = {
        "what": f"the cost of the run {folder.name}, per job and per rule",
        "run": folder.name,
        "name": out.name,
        "configfiles": [str(path) for path in args.configfile],
        "config": list(args.config),
        "commit": session["commit"] if session else _commit(),
        "date": (session or {}).get("started") or datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "threads": threads_of(config, cores),
        "session": session,
        "sessions": sessions,
        "costs": costs(jobs, workdir),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(page(record), encoding="utf-8")
    print(f"wrote {out.with_suffix('.json')} and {out.with_suffix('.md')}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, about in (
        ("measure", "run the workflow, watched (wall-clock, load)"),
        ("report", "write the run's costs per job and rule (JSON and a page)"),
    ):
        command = commands.add_parser(name, help=about)
        command.add_argument("--configfile", nargs="+", default=[], help="the run's config files")
        command.add_argument(
            "--config", nargs="+", default=[], metavar="KEY=VALUE", help="its --config values"
        )
        command.add_argument("--directory", default=".", help="its working directory (here)")
        if name == "measure":
            command.add_argument("--cores", default="all", help="snakemake --cores (all)")
        else:
            command.add_argument(
                "--out", help="PREFIX of PREFIX.json and PREFIX.md (docs/measured/{run}-costs)"
            )
    args = parser.parse_args(argv)
    return measure(args) if args.command == "measure" else report(args)


if __name__ == "__main__":
    sys.exit(main())
