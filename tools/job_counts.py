"""Write the job counts the docs state from dry runs of the shipped configs, never typed.

``make job-counts`` runs ``snakemake -n`` on every paper config (and the demo) in a temporary
folder, offline, and writes:
- docs/running.md between ``<!-- job-counts:start -->`` and ``<!-- job-counts:end -->``: the
  jobs per rule of each config, and the lines a demo dry run prints with and without the
  default profile;
- docs/clusters.md between ``<!-- slurm-jobs:start -->`` and ``<!-- slurm-jobs:end -->``: what
  config/xtreme.yaml submits to SLURM (profiles/slurm and the config's run_locally).
tests/workflow/test_dag.py holds both sections to fresh dry runs (``sections``).
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# the shipped configs, in the order of the table's columns (config.yaml: the demo)
CONFIGS = ("config.yaml", "xtreme.yaml", "xtreme-r.yaml", "xlmr.yaml", "llm.yaml")
RUNNING = REPO / "docs" / "running.md"
CLUSTERS = REPO / "docs" / "clusters.md"
COUNTS_START, COUNTS_END = "<!-- job-counts:start -->", "<!-- job-counts:end -->"
SLURM_START, SLURM_END = "<!-- slurm-jobs:start -->", "<!-- slurm-jobs:end -->"
# the job groups the config's run_locally keeps on the host running Snakemake by default
DEFAULT_LOCAL_GROUPS = ("network", "light")
RULE_START = re.compile(r"^(?:use rule \w+ as (\w+) with:|rule (\w+):)", re.M)
LOCAL_GROUP = re.compile(r'localrule: runs_locally\("(\w+)"\)')
SLURM_PROFILE = REPO / "profiles" / "slurm" / "config.yaml"


def tokenize_group() -> int:
    """Tokenisations per submitted job: profiles/slurm's group-components (tokenize=N)."""
    import yaml

    profile = yaml.safe_load(SLURM_PROFILE.read_text(encoding="utf-8"))
    found = [entry for entry in profile["group-components"] if entry.startswith("tokenize=")]
    return int(found[0].split("=")[1])


def dry_run(config: str, workdir: Path, *args: str) -> str:
    """``snakemake -n`` of a shipped config in ``workdir``: its console output."""
    command = [
        sys.executable, "-m", "snakemake", "-n",
        "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(workdir),
        "--configfile", str(REPO / "config" / config),
        *args,
    ]  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    env["PYTHONPATH"] = str(REPO / "workflow" / "scripts")
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{config}: the dry run failed:\n{done.stderr[-2000:]}")
    return done.stdout + done.stderr


def job_counts(output: str) -> dict[str, int]:
    """The "Job stats" table Snakemake prints: rule -> jobs (its order kept)."""
    match = re.search(r"Job stats:\njob\s+count\n[-\s]+\n(.*?)\ntotal\s+\d+", output, re.S)
    if match is None:
        raise ValueError("no job table in the dry run's output")
    rows = (line.split() for line in match.group(1).splitlines())
    return {name: int(count) for name, count in rows}


def counts_table(counts: dict[str, dict[str, int]]) -> str:
    """The Markdown table: a row per rule (first seen first), a column per config."""
    rules = list(dict.fromkeys(rule for found in counts.values() for rule in found))
    header = "| rule | " + " | ".join(f"`config/{name}`" for name in counts) + " |"
    lines = [header, "|---|" + "---:|" * len(counts)]
    for rule in rules:
        cells = " | ".join(f"{found.get(rule, 0):,}" for found in counts.values())
        lines.append(f"| {rule} | {cells} |")
    totals = " | ".join(f"**{sum(found.values()):,}**" for found in counts.values())
    lines.append(f"| total | {totals} |")
    return "\n".join(lines)


def running_section(counts: dict[str, dict[str, int]], lines: tuple[int, int]) -> str:
    quiet, full = lines
    demo = sum(counts["config.yaml"].values())
    return (
        f"{counts_table(counts)}\n\n"
        f"(`config/config.yaml` is the demo. With `profiles/default`'s `quiet: [rules]` a "
        f"{demo}-job demo dry run prints {quiet} lines; with `--workflow-profile none`, "
        f"{full}.)"
    )


def local_rules(groups: tuple[str, ...] = DEFAULT_LOCAL_GROUPS) -> set[str]:
    """The rules whose jobs run on the host running Snakemake when run_locally holds
    ``groups``: those whose own block says ``localrule: runs_locally("<group>")`` (each rule
    says it itself: light.smk), and the target rule all, which runs nothing."""
    local = {"all"}
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        text = path.read_text(encoding="utf-8")
        starts = list(RULE_START.finditer(text))
        ends = [match.start() for match in starts[1:]] + [len(text)] if starts else []
        for start, end in zip(starts, ends, strict=True):
            block = text[start.start() : end]
            group = LOCAL_GROUP.search(block)
            if group and group.group(1) in groups:
                local.add(start.group(1) or start.group(2))
    return local


def slurm_section(xtreme: dict[str, int]) -> str:
    """What config/xtreme.yaml submits with profiles/slurm and the default run_locally."""
    local = local_rules()
    submitted = {rule: n for rule, n in xtreme.items() if rule not in local and n}
    tokenize, per_job = submitted.get("tokenize", 0), tokenize_group()
    groups = math.ceil(tokenize / per_job)
    total = sum(xtreme.values())
    jobs = sum(submitted.values())
    listed = ", ".join(f"{rule} {n:,}" for rule, n in submitted.items())
    return (
        f"For `config/xtreme.yaml` that is {jobs:,} of its {total:,} jobs ({listed}) instead of "
        f"{total - 1:,}, in {jobs - tokenize + groups:,} submissions: the tokenisations, short "
        f"and many, form the group `tokenize`, and `profiles/slurm` puts up to {per_job} "
        f"of them in one SLURM job (`group-components: [tokenize={per_job}]`, {groups} "
        f"jobs for the {tokenize:,})."
    )


def sections(outputs: dict[str, str], lines: tuple[int, int]) -> tuple[str, str]:
    """The two sections from the configs' dry-run outputs and the demo's line counts."""
    counts = {name: job_counts(outputs[name]) for name in CONFIGS}
    return running_section(counts, lines), slurm_section(counts["xtreme.yaml"])


# Snakemake's per-job blocks shown (every job's rule, output, reason): what the line counts
# compare with the default profile's
NO_PROFILE = ("--workflow-profile", "none")


def measure() -> tuple[dict[str, str], tuple[int, int]]:
    """Every shipped config's dry-run output (with the per-job blocks), and the lines the
    demo's dry run prints with the default profile and without it."""
    with tempfile.TemporaryDirectory(prefix="mte-job-counts-") as folder:
        outputs = {name: dry_run(name, Path(folder), *NO_PROFILE) for name in CONFIGS}
        quiet = len(dry_run("config.yaml", Path(folder)).splitlines())
    return outputs, (quiet, len(outputs["config.yaml"].splitlines()))


def replace_between(path: Path, start: str, end: str, text: str) -> None:
    content = path.read_text(encoding="utf-8")
    before, _, rest = content.partition(start)
    _, _, after = rest.partition(end)
    if not rest:
        raise ValueError(f"{path}: no {start} marker")
    path.write_text(f"{before}{start}\n{text}\n{end}{after}", encoding="utf-8")


def main() -> int:
    outputs, lines = measure()
    running, slurm = sections(outputs, lines)
    replace_between(RUNNING, COUNTS_START, COUNTS_END, running)
    replace_between(CLUSTERS, SLURM_START, SLURM_END, slurm)
    print(f"wrote the job counts of {', '.join(CONFIGS)} into {RUNNING} and {CLUSTERS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
