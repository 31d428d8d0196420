"""tools/run_costs.py: the jobs of a dry run, each job's benchmark file, examples and tokens, and
the sums, shares and rates the cost page states (values worked out by hand below)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import torch

from tools import run_costs

# a forced dry run's blocks as Snakemake 9 prints them without the quiet profile: a plain job,
# a group job's indented one, and the `all` target (not a job with a cost)
DRY_RUN = """\
Building DAG of jobs...
Job stats:
job          count
---------  -------
download         1
[Sat Dec  5 19:15:49 2026]
rule download:
    output: resources/data/panx/files-1/de/test.jsonl, resources/data/panx/files-1/de/test.meta.json
    log: results/logs/download/panx/files-1/de/test.log
    jobid: 3
    benchmark: results/benchmarks/download/panx/files-1/de/test.tsv
    reason: Forced execution
    wildcards: task=panx, data=files-1, lang=de, split=test
    resources: tmpdir=/tmp, runtime=120
[Sat Dec  5 19:24:50 2026] Group job tokenize (jobs in lexicogr. order):

    [Sat Dec  5 19:24:50 2026]
    rule tokenize:
        input: resources/data/panx/files-1/de/test.jsonl, resources/models/m
        output: results/m/panx/features/t/de/test/features.pt
        log: results/logs/tokenize/m/panx/t/de/test.log
        jobid: 2
        benchmark: results/benchmarks/tokenize/m/panx/t/de/test.tsv
        reason: Forced execution
        wildcards: model=m, task=panx, tokens=t, lang=de, split=test
        resources: tmpdir=/tmp, runtime=60
[Sat Dec  5 19:24:51 2026]
rule predict:
    input: results/m/panx/v/zero-shot/seed1/model, results/m/panx/features/t/de/test/features.pt
    output: results/m/panx/v/zero-shot/seed1/predictions/de.jsonl
    jobid: 1
    benchmark: results/benchmarks/predict/m/panx/v/zero-shot/seed1/de.tsv
    wildcards: model=m, task=panx, variant=v, setting=zero-shot, seed=1, lang=de
    threads: 2
[Sat Dec  5 19:24:52 2026]
rule predict:
    input: results/m/panx/v/zero-shot/seed1/model, results/m/panx/features/t/en/test/features.pt
    output: results/m/panx/v/zero-shot/seed1/predictions/en.jsonl
    jobid: 4
    benchmark: results/benchmarks/predict/m/panx/v/zero-shot/seed1/en.tsv
    wildcards: model=m, task=panx, variant=v, setting=zero-shot, seed=1, lang=en
    threads: 2
[Sat Dec  5 19:24:53 2026]
rule score:
    input: results/m/panx/v/zero-shot/seed1/predictions/fr.jsonl
    output: results/m/panx/v/zero-shot/seed1/scores/fr.json
    jobid: 5
    benchmark: results/benchmarks/score/m/panx/v/zero-shot/seed1/fr.tsv
    wildcards: model=m, task=panx, variant=v, setting=zero-shot, seed=1, lang=fr
[Sat Dec  5 19:24:54 2026]
localrule all:
    input: results/runs/r/tables/panx.csv
    jobid: 0
    reason: Input files updated by another job
Job stats:
"""

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def test_a_dry_run_names_every_job_with_its_benchmark_and_wildcards() -> None:
    jobs = run_costs.parse_dry_run(DRY_RUN)
    assert [job.rule for job in jobs] == ["download", "tokenize", "predict", "predict", "score"]
    tokenize = jobs[1]  # inside a group job: indented once more
    assert tokenize.benchmark == "results/benchmarks/tokenize/m/panx/t/de/test.tsv"
    assert tokenize.wildcards == {
        "model": "m", "task": "panx", "tokens": "t", "lang": "de", "split": "test"
    }  # fmt: skip
    assert tokenize.outputs == ["results/m/panx/features/t/de/test/features.pt"]
    assert jobs[2].threads == 2 and jobs[0].threads == 1
    assert jobs[2].inputs[1].endswith("de/test/features.pt")
    assert jobs[0].name == "panx/files-1/de/test"


def _benchmark(workdir: Path, path: str, wall: float, cpu: float, rss: float, ended: float):
    file = workdir / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(HEADER + f"{wall}\t0:00:00\t{rss}\t0\t0\t0\t0\t0\t50\t{cpu}\n")
    os.utime(file, (ended, ended))


def _features(workdir: Path, path: str, lengths: list[int]) -> None:
    file = workdir / path
    file.parent.mkdir(parents=True, exist_ok=True)
    ids = [[5] * n for n in lengths]
    torch.save({"ids": [f"x{i}" for i in range(len(ids))], "input_ids": ids}, file)


def test_costs_sum_each_rule_and_rate_it_by_examples_and_tokens(tmp_path: Path) -> None:
    jobs = run_costs.parse_dry_run(DRY_RUN)
    meta = tmp_path / "resources/data/panx/files-1/de/test.meta.json"
    meta.parent.mkdir(parents=True)
    meta.write_text(json.dumps({"count": 400}))
    _features(tmp_path, "results/m/panx/features/t/de/test/features.pt", [10, 20, 30])
    _features(tmp_path, "results/m/panx/features/t/en/test/features.pt", [40] * 7)
    start = 1_000_000.0
    _benchmark(tmp_path, jobs[0].benchmark, 2.0, 1.0, 50.0, start + 2)
    _benchmark(tmp_path, jobs[1].benchmark, 4.0, 3.5, 300.0, start + 6)
    _benchmark(tmp_path, jobs[2].benchmark, 10.0, 18.0, 900.0, start + 16)
    _benchmark(tmp_path, jobs[3].benchmark, 30.0, 55.0, 1200.0, start + 46)
    # the score job has no benchmark file: counted as such, never guessed

    found = run_costs.costs(jobs, tmp_path)

    assert found["jobs_planned"] == 5 and found["jobs_measured"] == 4
    assert found["jobs_without_benchmark"] == [{"rule": "score", "job": "m/panx/v/zero-shot/1/fr"}]
    assert found["job_wall_s"] == 46.0 and found["job_cpu_s"] == 77.5
    # from the first job's start (start + 0) to the last one's end (start + 46)
    assert found["jobs_span_s"] == 46.0
    assert found["peak_rss_mb"] == 1200.0
    predict = found["rules"]["predict"]
    assert predict["jobs"] == 2 and predict["wall_s"] == 40.0 and predict["cpu_s"] == 73.0
    assert predict["share"] == round(40 / 46, 4)
    # 3 + 7 inputs, 60 + 280 tokens: 40 s over 10 examples and over 340 tokens
    assert predict["examples"] == 10 and predict["tokens"] == 340
    assert predict["s_per_1000_examples"] == 4000.0
    assert predict["s_per_1000_tokens"] == round(1000 * 40 / 340, 3)
    assert found["rules"]["download"]["examples"] == 400  # the data record's count
    assert found["rules"]["tokenize"]["tokens"] == 60  # the features it wrote
    assert list(found["rules"]) == ["predict", "tokenize", "download"]  # most expensive first
    assert [entry["rule"] for entry in found["top_rules"]] == ["predict", "tokenize", "download"]
    assert found["rule_task"]["predict panx"]["wall_s"] == 40.0


def test_the_page_states_the_totals_and_each_rule(tmp_path: Path) -> None:
    jobs = run_costs.parse_dry_run(DRY_RUN)
    _benchmark(tmp_path, jobs[2].benchmark, 90.0, 150.0, 900.0, 2_000_000.0)
    _benchmark(tmp_path, jobs[3].benchmark, 30.0, 55.0, 1200.0, 2_000_000.0)
    record = {
        "run": "r",
        "name": "r-costs",
        "date": "2026-12-05T00:00:00+00:00",
        "commit": "0123456789",
        "machine": {
            "cpus": 2,
            "cpu_model": "Xeon",
            "bf16_units": ["amx_bf16"],
            "memory_gib": 23.5,
            "platform": "Linux",
            "python": "3.11.7",
            "torch": "2.13.0",
        },  # fmt: skip
        "threads": {"per_rule": {"finetune": 8, "predict": 4}, "cores": "all"},
        "session": {
            "wall_s": 3725.0,
            "cores": "all",
            "started": "2026-12-05T00:00:00+00:00",
            "returncode": 0,
            "snakemake_cpu_s": 373.0,
            "load": {"before": 0.1, "during_mean": 1.9, "during_max": 2.4, "samples": 372},
        },  # fmt: skip
        "costs": run_costs.costs(jobs, tmp_path),
    }
    text = run_costs.page(record)
    assert "**Wall-clock of the run: 1 h 02 min**" in text
    assert "bf16 units: amx_bf16" in text
    # the scheduler's own CPU beside the jobs: 373 s over the run's 3725 s
    assert "373 CPU seconds, 10.0% of one core over the run" in text
    # 120 s of job wall-clock, all of it predict's two jobs
    assert "| predict | 2 | 2 min 00 s | 100.0% | 205 | 1,200 |" in text
    assert "Jobs without a benchmark file, not counted: 3 (download 1, tokenize 1, score 1)" in text


def test_a_fine_tune_handles_its_training_set_once_an_epoch(tmp_path: Path) -> None:
    model = "results/m/panx/v/zero-shot/seed1/model"
    train = "results/m/panx/features/t/en/train/features.pt"
    job = run_costs.Job("finetune", {"task": "panx"}, None, inputs=[train], outputs=[model])
    _features(tmp_path, train, [10, 30])
    (tmp_path / model).mkdir(parents=True)
    (tmp_path / model / "training.json").write_text(json.dumps({"hyperparameters": {"epochs": 3}}))
    # 2 inputs of 40 tokens in all, read 3 times
    assert run_costs.job_sizes(job, run_costs.Sizes(tmp_path)) == {"examples": 6, "tokens": 120}


def _session(started: str, wall: float, own: float, mean: float, top: float, samples: int, rc: int):
    return {
        "started": started,
        "commit": "0123456789",
        "cores": "all",
        "returncode": rc,
        "wall_s": wall,
        "snakemake_cpu_s": own,
        "load": {"before": 1.0, "during_mean": mean, "during_max": top, "samples": samples},
    }


def test_a_run_stopped_and_resumed_adds_its_sessions_up(tmp_path: Path) -> None:
    folder = tmp_path / "results" / "runs" / "r"
    (folder / "costs").mkdir(parents=True)
    first = _session("2026-12-05T22:57:25+00:00", 8574.7, 744.2, 2.0, 3.2, 300, 1)
    second = _session("2026-12-06T02:31:32+00:00", 3000.0, 200.0, 3.0, 3.5, 100, 0)
    # a record written before runs could have several sessions is read as the first
    (folder / "costs" / "session.json").write_text(json.dumps(first))
    assert run_costs.read_sessions(folder) == [first]
    (folder / "costs" / "sessions.json").write_text(json.dumps([first, second]))
    whole = run_costs.combined(run_costs.read_sessions(folder))
    assert whole["wall_s"] == 11574.7  # 8574.7 + 3000.0
    assert whole["snakemake_cpu_s"] == 944.2
    assert whole["load"]["during_mean"] == 2.25  # (2.0 * 300 + 3.0 * 100) / 400
    assert whole["load"]["during_max"] == 3.5
    assert (whole["started"], whole["returncode"], whole["parts"]) == (first["started"], 0, 2)
    record = {
        "run": "r",
        "name": "r-costs",
        "date": whole["started"],
        "commit": "0123456789",
        "machine": {
            "cpus": 2,
            "cpu_model": "EPYC",
            "bf16_units": [],
            "memory_gib": 23.5,
            "platform": "Linux",
            "python": "3.11.7",
            "torch": "2.13.0",
        },  # fmt: skip
        "threads": {"per_rule": {"finetune": 2}, "cores": "all"},
        "session": whole,
        "sessions": [first, second],
        "costs": run_costs.costs([], tmp_path),
    }
    text = run_costs.page(record)
    assert "**Wall-clock of the run: 3 h 12 min**" in text  # 11574.7 s
    assert "2 watched sessions" in text
    assert "2026-12-06T02:31:32+00:00, 50 min 00 s, exit status 0" in text
