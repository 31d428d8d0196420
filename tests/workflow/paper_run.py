"""config/xtreme-r.yaml as a user runs it, on a tiny model and tiny files: the paper config
itself, with a second config file that points each task at tiny files in XTREME's layouts,
narrows its languages and shrinks its fine-tunes, run in a copy of the checkout (its own
working directory, as `cd checkout && snakemake` runs). Mewsli-X's folder is absent, as on any
machine that has not run get-mewsli-x.sh: the run stops before any job, and with
``skip_tasks=[mewslix]`` runs the other nine tasks. The test module shares this one run across
its checks (tests/workflow/test_paper_run.py)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

from tests.workflow.snakemake_runner import REPO, job_counts, run_snakemake
from tests.workflow.tiny_data import (
    write_conll_folders,
    write_panx_folders,
    write_qa_folders,
    write_siqa,
    write_tatoeba,
    write_xcopa,
    write_xnli,
    write_xquad_r,
)

# the run's name in config/xtreme-r.yaml: results/runs/xtreme-r/
RUN = "xtreme-r"
# the model name of config/xtreme-r.yaml, kept, so that the published rows of XLM-R large
# (config/references) stand beside the tiny model's
MODEL = "xlm-roberta-large"
# XLM-R large's recipe shrunk to a few optimiser steps; a dev score after every step (the
# config's selection_every_steps would be past the last one)
SMALL = {
    "epochs": 1,
    "batch_size": 4,
    "gradient_accumulation_steps": 1,
    "max_length": 32,
    "learning_rate": 1.0e-4,
}
SELECTED = {**SMALL, "selection_every_steps": 1}
QA = {**SMALL, "max_length": 64, "batch_size": 2, "warmup_steps": 0}
SKIP = "skip_tasks=[mewslix]"


@dataclass(frozen=True)
class PaperRun:
    """The checkout copy the run ran in, the stopped first attempt, the finished second."""

    checkout: Path
    data: Path
    stopped: subprocess.CompletedProcess
    finished: subprocess.CompletedProcess
    overlay: Path
    # the user's references file the config names (XTREME-R's template, partly filled)
    references: Path

    @property
    def counts(self) -> dict[str, int]:
        return job_counts(self.finished.stdout + self.finished.stderr)

    @property
    def run_folder(self) -> Path:
        return self.checkout / "results" / "runs" / RUN

    def configfiles(self) -> list[str]:
        return [str(self.checkout / "config" / "xtreme-r.yaml"), str(self.overlay)]


def copy_checkout(target: Path) -> Path:
    """The checkout's files as git sees them (tracked, and new files not ignored) in
    ``target``: what a clone of this commit holds."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def write_data(data: Path) -> None:
    data.mkdir()
    write_xnli(data / "xnli")
    write_siqa(data / "siqa")
    write_xcopa(data / "xcopa")
    write_panx_folders(data)
    write_conll_folders(data)
    write_qa_folders(data / "qa")
    write_tatoeba(data / "tatoeba")
    write_xquad_r(data / "lareqa")


def overlay(data: Path, model: Path, references: list[Path]) -> dict:
    """The second config file: tiny files, languages and fine-tunes for every task but
    Mewsli-X's two, which keep config/xtreme-r.yaml's download/mewslix."""

    def files(folder: str, **more) -> dict:
        return {"source": "files", "path": str(data / folder), **more}

    qa = {"doc_stride": 16, "max_query_length": 16}
    return {
        "models": [{"name": MODEL, "source": "local", "path": str(model)}],
        "references": [str(path) for path in references],
        "tasks": {
            "xnli": files("xnli", languages=["en", "de"], hyperparameters=SELECTED),
            "siqa": files("siqa", hyperparameters=SMALL),
            "xcopa": files("xcopa", languages=["et"], hyperparameters=SMALL),
            "udpos": files("udpos", languages=["en", "de"], hyperparameters=SELECTED),
            "panx": files("panx", languages=["en", "de"], hyperparameters=SELECTED),
            "squad": files("qa/squad", hyperparameters=QA, **qa),
            "xquad": files("qa/xquad", languages=["en", "de"]),
            "mlqa": files("qa/mlqa", languages=["en", "de"]),
            "tydiqa": files("qa/tydiqa", languages=["fi"], hyperparameters=QA, **qa),
            "tatoeba": files("tatoeba", languages=["de"]),
            "lareqa": files("lareqa", languages=["en", "de"]),
            # LAReQA's dual encoder on the SQuAD files' question-sentence pairs; the config's
            # keep_step (8999) is past this fine-tune's last step
            "squad_retrieval": files(
                "qa/squad",
                max_query_length=16,
                hyperparameters={**SMALL, "max_length": 64, "keep_step": 1},
            ),
        },
    }


# made-up numbers for XTREME-R's XNLI row of XLM-R Large: 50.0, 51.0, ... over its 15
# languages, whose mean is 57.0; every other cell of the template stays null
MADE_UP_XNLI = 57.0


def filled_template(checkout: Path, out: Path) -> Path:
    """A user's references file: XTREME-R's template (config/references/xtreme-r.yaml) with
    XLM-R Large's XNLI row filled with made-up numbers, the rest as the template has it."""
    entries = yaml.safe_load((checkout / "config/references/xtreme-r.yaml").read_text())
    (xnli,) = [
        e for e in entries if (e["model"], e["task"]) == (MODEL, "xnli")
    ]  # fmt: skip
    xnli["values"] = {lang: 50.0 + i for i, lang in enumerate(xnli["values"])}
    xnli["average"] = MADE_UP_XNLI
    xnli["source"] = "made up by tests/workflow/paper_run.py"
    out.write_text(yaml.safe_dump([xnli], sort_keys=False), encoding="utf-8")
    return out


def run_paper_config(workdir: Path, model: Path) -> PaperRun:
    """The run: a copy of the checkout, the tiny files, a user's references file filling part
    of XTREME-R's template, then snakemake twice in the checkout (without and with the
    skip)."""
    checkout = copy_checkout(workdir / "checkout")
    data = workdir / "data"
    write_data(data)
    references = [filled_template(checkout, workdir / "my-xtreme-r.yaml")]
    path = workdir / "tiny.yaml"
    path.write_text(yaml.safe_dump(overlay(data, model, references)), encoding="utf-8")
    configs = [checkout / "config" / "xtreme-r.yaml", path]
    stopped = run_snakemake(checkout, configs, repo=checkout)
    finished = run_snakemake(checkout, configs, "--config", SKIP, repo=checkout)
    return PaperRun(checkout, data, stopped, finished, path, references[0])
