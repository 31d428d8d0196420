"""The workflow on a real single-node SLURM cluster started by the test, through the project's
SLURM profile (a copy that differs in partition, account and two status-check settings that a
cluster without an accounting database needs), against a local run of the same config: which
jobs are submitted (GPU jobs asking for a GPU, CPU jobs for none) and which run on the
submitting host (downloads, scores, tables); the profile's placeholder account refused before
any submission; and a fine-tune killed with scancel that resumes from its checkpoint when
Snakemake resubmits it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.cluster.slurm_cluster import SlurmCluster, unavailable_reason
from tests.workflow.snakemake_runner import REPO, run_snakemake, tables_dir, variant_of

pytestmark = pytest.mark.cluster

# small jobs on a 2-CPU node: the same config runs locally and on SLURM; the GPU groups ask for
# one of the node's (device-less) GPUs, as on a real cluster
GPU_GROUPS = ("finetune", "predict", "embed", "translate")
RESOURCES = {
    group: {"mem_mb": 1500, "runtime": 30, "gpu": int(group in GPU_GROUPS)}
    for group in (*GPU_GROUPS, "tokenize", "prepare", "light")
}
CONFIG = {
    "models": [{"name": "tiny", "source": "tiny"}],
    "tasks": {
        "xnli": {
            "source": "demo",
            "languages": ["en", "de"],
            "hyperparameters": {"epochs": 1, "batch_size": 16, "max_length": 32},
        }
    },
    "threads": {"finetune": 1, "predict": 1, "tokenize": 1},
    "resources": RESOURCES,
    "statistics": {"resamples": 100, "trials": 200},
}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory):
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no SLURM cluster here: {reason}")
    cluster = SlurmCluster(tmp_path_factory.mktemp("slurm"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def _test_profile(cluster: SlurmCluster, folder: Path, account: str | None = "mte-test") -> Path:
    """profiles/slurm with this cluster's partition and an account name (the plugin's account
    guess needs accounting; None keeps the profile's placeholder); squeue for job status (sacct
    needs the accounting database) and a short first status check, so that small jobs finish
    fast."""
    profile = yaml.safe_load((REPO / "profiles" / "slurm" / "config.yaml").read_text())
    profile["default-resources"] = {
        **profile["default-resources"],
        "slurm_partition": cluster.partition,
        **({"slurm_account": account} if account else {}),
    }
    # the node has 2 CPUs: two tokenisations at a time in a grouped job, not the profile's 4
    profile["resources"] = ["tokenize_slots=2"]
    profile["slurm-status-command"] = "squeue"
    profile["slurm-init-seconds-before-status-checks"] = 2
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(yaml.safe_dump(profile), encoding="utf-8")
    return folder


def _run_on_slurm(
    cluster: SlurmCluster,
    workdir: Path,
    config: dict,
    *args: str,
    background: bool = False,
    account: str | None = "mte-test",
):
    config_path = workdir / "config.yaml"
    config_path.write_text(yaml.safe_dump(config), encoding="utf-8")
    profile = _test_profile(cluster, workdir / "profile", account)
    # Snakemake finishes running jobs on SIGTERM; a hung run is stopped with SIGINT
    command = [
        "timeout", "-s", "INT", "-k", "30", "900",
        sys.executable, "-m", "snakemake",
        "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(workdir),
        "--configfile", str(config_path),
        "--workflow-profile", str(profile),
        *args,
    ]  # fmt: skip
    env = {**cluster.env, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    if background:
        log = (workdir / "snakemake.log").open("w", encoding="utf-8")
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, text=True, env=env)
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=1000)


def _score_files(workdir: Path) -> dict[str, bytes]:
    root = workdir / "results"
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("scores/*.json"))}


@pytest.fixture(scope="module")
def runs(cluster: SlurmCluster, tmp_path_factory: pytest.TempPathFactory):
    local = tmp_path_factory.mktemp("local")
    done_local = run_snakemake(local, CONFIG)
    assert done_local.returncode == 0, done_local.stderr[-3000:]
    slurm = tmp_path_factory.mktemp("on-slurm")
    done_slurm = _run_on_slurm(cluster, slurm, CONFIG)
    assert done_slurm.returncode == 0, (done_slurm.stdout + done_slurm.stderr)[-4000:]
    return local, slurm, done_slurm.stdout + done_slurm.stderr


def _submitted_jobs(cluster: SlurmCluster, output: str) -> dict[str, list[dict[str, str]]]:
    """The run's SLURM jobs by rule (a group job of one rule, e.g. ``tokenize_tokenize``: group
    ``tokenize`` of rule ``tokenize``, by its rule): each job's fields as ``scontrol show job``
    prints them."""
    by_rule: dict[str, list[dict[str, str]]] = {}
    for job_id in re.findall(r"has been submitted with SLURM jobid (\d+)", output):
        shown = cluster.command("scontrol", "show", "job", "-o", job_id).strip()
        fields = dict(re.findall(r"(\w+)=(\S*)", shown))
        rule = re.search(r"rule_(\w+?)_wildcards|rule_(\w+)$", fields["Comment"] or "")
        name = next(g for g in rule.groups() if g) if rule else fields["JobName"]
        group, _, rules = name.partition("_")
        by_rule.setdefault(rules if group == rules else name, []).append(fields)
    return by_rule


def test_only_tokenisation_and_gpu_jobs_are_submitted(runs, cluster: SlurmCluster) -> None:
    """run_locally's default: downloads (network) and scores, tables and plots (seconds each)
    run on the submitting host; finetune, predict x2 are SLURM jobs asking for one GPU; the
    four tokenisations (four SLURM jobs before the group) are one job of the group tokenize,
    asking for no GPU and for two tokenisations side by side (the pool of 2 tokenize_slots):
    2 x 1 CPU, 2 x 1500 MB, and two 30-minute runtimes in series."""
    _, slurm, output = runs
    submitted = _submitted_jobs(cluster, output)
    counts = {rule: len(jobs) for rule, jobs in submitted.items()}
    assert counts == {"tokenize": 1, "finetune": 1, "predict": 2}, output[-3000:]
    (grouped,) = submitted["tokenize"]
    assert (grouped["NumCPUs"], grouped["MinMemoryNode"]) == ("2", "3000M"), grouped
    assert grouped["TimeLimit"] == "01:00:00", grouped
    for rule, jobs in submitted.items():
        for job in jobs:
            assert job["JobState"] == "COMPLETED", job
            asks_gpu = "gres/gpu=1" in job["TRES"] or job.get("TresPerJob") == "gres:gpu:1"
            assert asks_gpu == (rule != "tokenize"), (rule, job["TRES"], job.get("TresPerJob"))
    # each job's log says where it ran: downloads and scores here, the others in their job
    logs = slurm / "results" / "logs"
    for rule, where in (("download", "not in a SLURM job"), ("score", "not in a SLURM job"),
                        ("finetune", "SLURM job "), ("tokenize", "SLURM job ")):  # fmt: skip
        found = list((logs / rule).rglob("*.log"))
        assert found and all(where in log.read_text() for log in found), rule


def test_the_profiles_placeholder_account_is_refused_before_any_submission(
    cluster: SlurmCluster, tmp_path: Path
) -> None:
    done = _run_on_slurm(cluster, tmp_path, CONFIG, account=None)
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "profile key 'default-resources: slurm_account' is still the placeholder" in output
    assert "has been submitted" not in output
    assert not (tmp_path / "results").exists()


def test_slurm_and_local_runs_give_identical_score_files(runs) -> None:
    local, slurm, _ = runs
    local_scores, slurm_scores = _score_files(local), _score_files(slurm)
    variant = variant_of(CONFIG, "xnli")
    assert sorted(local_scores) == [
        f"tiny/xnli/{variant}/zero-shot/seed1/scores/de.json",
        f"tiny/xnli/{variant}/zero-shot/seed1/scores/en.json",
    ]
    assert local_scores == slurm_scores
    local_table = (tables_dir(local) / "xnli.csv").read_text()
    assert local_table == (tables_dir(slurm) / "xnli.csv").read_text()


def _checkpoint_step(log_path: Path) -> int | None:
    if not log_path.is_file():
        return None
    found = re.findall(r"checkpoint at step (\d+)", log_path.read_text(errors="replace"))
    return int(found[-1]) if found else None


def test_a_cancelled_fine_tune_resumes_from_its_checkpoint(
    cluster: SlurmCluster, tmp_path: Path
) -> None:
    # long enough to cancel mid-way: 14 steps an epoch, a checkpoint every 10 steps
    config = {
        **CONFIG,
        "tasks": {
            "xnli": {
                "source": "demo",
                "languages": ["en"],
                "hyperparameters": {
                    "epochs": 60,
                    "batch_size": 16,
                    "max_length": 32,
                    "checkpoint_every_steps": 10,
                },
            }
        },
    }
    variant = variant_of(config, "xnli")
    target = f"results/tiny/xnli/{variant}/zero-shot/seed1/model"
    run = _run_on_slurm(cluster, tmp_path, config, "--retries", "1", target, background=True)
    checkpoint = tmp_path / f"results/tiny/xnli/{variant}/zero-shot/seed1/checkpoints/checkpoint.pt"
    log_path = tmp_path / f"results/logs/finetune/tiny/xnli/{variant}/zero-shot/seed1.log"
    deadline = time.monotonic() + 600
    job_id = None
    while time.monotonic() < deadline and run.poll() is None:
        if checkpoint.is_file():
            jobs = cluster.command("squeue", "-h", "-o", "%i %k").split("\n")
            finetunes = [line.split()[0] for line in jobs if "rule_finetune" in line]
            if finetunes:
                job_id = finetunes[0]
                cluster.command("scancel", job_id)
                break
        time.sleep(0.5)
    assert job_id is not None, "the fine-tune ended before a checkpoint could be cancelled"
    assert run.wait(timeout=900) == 0, (tmp_path / "snakemake.log").read_text()[-4000:]
    output = (tmp_path / "snakemake.log").read_text()
    # Snakemake saw the job fail and submitted it again
    assert re.search(rf"SLURM jobid {job_id}\b", output)
    resubmitted = re.findall(r"has been submitted with SLURM jobid (\d+)", output)
    assert len([j for j in resubmitted if j != job_id]) >= 1
    # SLURM's SIGTERM made the first attempt save the step it was at (its log, which
    # Snakemake prints for the failed job); the second attempt resumed exactly there
    stopped = re.findall(r"stopped by signal 15 at step (\d+)", output)
    assert len(stopped) == 1, output[-4000:]
    step = _checkpoint_step(log_path)
    assert step == int(stopped[0]) and step > 0, log_path.read_text()[-2000:]
    assert (tmp_path / target / "training.json").is_file()
    # nothing of ours is left running on the cluster
    assert os.path.isfile(cluster.conf)
    assert cluster.command("squeue", "-h").strip() == ""
