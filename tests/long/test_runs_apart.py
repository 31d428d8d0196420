"""Runs of different configs in one checkout: none rewrites another's files, and the work two
runs share is done once.

The order a user follows: the default config, then dry-runs of config/xtreme.yaml and
config/xlmr.yaml, then runs of each paper config's shape on the tiny model (the paper configs'
model names and tasks, with released-format folders instead of the hub).
"""

from __future__ import annotations

import copy
import hashlib
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from tests.workflow.snakemake_runner import REPO, job_counts, run_snakemake
from tests.workflow.tiny_data import (
    write_bucc,
    write_conll_folders,
    write_glue,
    write_panx_folders,
    write_pawsx,
    write_qa_folders,
    write_tatoeba,
    write_xnli,
)

pytestmark = [pytest.mark.workflow, pytest.mark.long]

SMALL = {"epochs": 1, "batch_size": 8, "max_length": 32}


def _files(workdir: Path) -> dict[str, str]:
    """Every file a run wrote (results/ and resources/), by path, with its SHA-256."""
    return {
        path.relative_to(workdir).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for top in ("results", "resources")
        for path in sorted((workdir / top).rglob("*"))
        if path.is_file()
    }


def _unchanged(before: dict[str, str], workdir: Path) -> list[str]:
    after = _files(workdir)
    return [path for path, digest in before.items() if after.get(path) != digest]


def _outputs(dry_run: str) -> set[str]:
    """The files a dry-run's jobs would write."""
    return {
        name.strip()
        for line in re.findall(r"^\s+output: (.*)$", dry_run, re.M)
        for name in line.split(",")
    }


def _paper_shape(name: str, tiny: Path, tasks: dict, default_model: str) -> dict:
    """A paper config's run name and tasks on the tiny model, under two model names: the
    default config's (so that the runs could collide) and XLM-R large's (the name its
    published numbers are filed under)."""
    paper = yaml.safe_load((REPO / "config" / f"{name}.yaml").read_text())
    names = [default_model, "xlm-roberta-large"]
    assert names[1] in [m["name"] for m in paper["models"]]
    models = [{"name": n, "source": "local", "path": str(tiny)} for n in names]
    return {"run": paper["run"], "models": models, "tasks": tasks}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path) -> dict:
    workdir = tmp_path_factory.mktemp("runs")
    data = workdir / "data"
    data.mkdir()
    write_xnli(data / "xnli")
    write_pawsx(data / "pawsx")
    write_tatoeba(data / "tatoeba")
    write_bucc(data / "bucc")
    write_glue(data / "glue")
    write_panx_folders(data)
    write_conll_folders(data)
    write_qa_folders(data)

    # 1. the default config's shape: its model name and its demo XNLI
    default = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    for model in default["models"]:
        model.update(source="local", path=str(tiny_model))
    default["tasks"]["xnli"]["hyperparameters"].update(epochs=1)
    done = run_snakemake(workdir, default)
    assert done.returncode == 0, done.stderr[-3000:]
    first = _files(workdir)

    # 2, 3. dry-runs of the paper configs as shipped
    dry_runs = {}
    for name in ("xtreme", "xlmr"):
        done = run_snakemake(workdir, REPO / "config" / f"{name}.yaml", "-n")
        assert done.returncode == 0, done.stderr[-3000:]
        dry_runs[name] = done.stdout + done.stderr

    # 4. XTREME's shape: its nine tasks from folders in the released layouts, the default's
    # model name beside XLM-R large's (whose name the published numbers know)
    def folder(task: str, **more) -> dict:
        return {"source": "files", "path": str(data / task), **more}

    both = {"languages": ["en", "de"]}
    qa = {"doc_stride": 16, "hyperparameters": {"epochs": 1, "batch_size": 2, "max_length": 64}}
    shared = {
        "xnli": folder("xnli", **both, hyperparameters=SMALL),
        "squad": folder("squad", **qa),
        "mlqa": folder("mlqa", **both),
    }
    xtreme_tasks = {
        **shared,
        "pawsx": folder("pawsx", **both, hyperparameters=SMALL),
        "udpos": folder("udpos", **both, hyperparameters=SMALL),
        "panx": folder("panx", **both, hyperparameters=SMALL),
        "xquad": folder("xquad", **both),
        "tydiqa": folder("tydiqa", languages=["en", "fi"], **qa),
        "bucc": folder("bucc", languages=["de"]),
        "tatoeba": folder("tatoeba", languages=["de"]),
    }
    xtreme = _paper_shape("xtreme", tiny_model, xtreme_tasks, default["models"][0]["name"])
    done = run_snakemake(workdir, xtreme)
    assert done.returncode == 0, done.stderr[-3000:]
    second = _files(workdir)

    # 5. the XLM-R paper's shape: the same XNLI and SQuAD fine-tunes, CoNLL and GLUE
    xlmr_tasks = {
        **copy.deepcopy(shared),
        "conll": folder("conll", languages=["en", "es"], hyperparameters=SMALL),
        "sst2": {"source": "files", "path": str(data / "glue" / "SST-2"), "hyperparameters": SMALL},
        "stsb": {"source": "files", "path": str(data / "glue" / "STS-B"), "hyperparameters": SMALL},
    }
    xlmr = _paper_shape("xlmr", tiny_model, xlmr_tasks, default["models"][0]["name"])
    done = run_snakemake(workdir, xlmr)
    assert done.returncode == 0, done.stderr[-3000:]
    return {
        "workdir": workdir,
        "first": first,
        "second": second,
        "dry_runs": dry_runs,
        "xlmr_jobs": job_counts(done.stdout + done.stderr),
        "models": [m["name"] for m in xlmr["models"]],
    }


def test_later_runs_leave_every_file_of_earlier_ones_byte_identical(runs: dict) -> None:
    workdir = runs["workdir"]
    assert len(runs["first"]) > 20
    assert _unchanged(runs["first"], workdir) == []
    assert _unchanged(runs["second"], workdir) == []


def test_paper_dry_runs_would_write_none_of_the_default_runs_files(runs: dict) -> None:
    for name, dry_run in runs["dry_runs"].items():
        outputs = _outputs(dry_run)
        assert len(outputs) > 100, name
        assert outputs.isdisjoint(runs["first"]), (name, sorted(outputs & set(runs["first"]))[:5])


def test_each_run_has_its_own_tables_and_the_demo_data_its_own_folder(runs: dict) -> None:
    workdir = runs["workdir"]
    tables = {
        run.name: sorted(p.name for p in (run / "tables").glob("*.csv"))
        for run in (workdir / "results" / "runs").iterdir()
    }
    xtreme = ["bucc", "mlqa", "panx", "pawsx", "tatoeba", "tydiqa", "udpos", "xnli", "xquad"]
    assert tables == {
        "default": ["xnli.csv", "xtreme_summary.csv"],
        "xtreme": sorted([f"{task}.csv" for task in xtreme] + ["xtreme_summary.csv"]),
        # XNLI and MLQA are XTREME tasks: a partial summary, labelled so (test_summary.py)
        "xlmr": ["conll.csv", "glue.csv", "mlqa.csv", "sst2.csv", "stsb.csv", "xnli.csv",
                 "xtreme_summary.csv"],
    }  # fmt: skip
    xnli_data = sorted(p.name for p in (workdir / "resources" / "data" / "xnli").iterdir())
    assert xnli_data[0] == "demo" and xnli_data[1].startswith("files-") and len(xnli_data) == 2


def test_the_fine_tunes_two_runs_share_are_done_once(runs: dict) -> None:
    """The XLM-R shape's XNLI and SQuAD fine-tunes are the XTREME shape's (same models, data,
    hyper-parameters): only CoNLL and GLUE's two tasks are fine-tuned, for each model, and only
    their data is read."""
    assert runs["xlmr_jobs"]["finetune"] == 3 * len(runs["models"])
    # CoNLL: en train, dev, test and es test; SST-2 and STS-B: train and dev
    assert runs["xlmr_jobs"]["download"] == 4 + 2 + 2


def _references(table: pd.DataFrame, model: str) -> list[str]:
    rows = table[(table["model"] == model) & (table["row"] == "published")]
    return list(rows["reference"]) if "reference" in table else []


# (task, the published rows of XLM-R large in that run's table): every row a paper prints for
# it, a cell no readable source gives read n/s (config/references: XTREME's BUCC, Tatoeba and
# UD-POS averages, XTREME-R's template), so BUCC and Tatoeba have XTREME's Table 2 row too
PUBLISHED = {
    "xtreme": {
        "xnli": ["xlmr-paper Table 1", "xtreme Table 2", "xtreme Appendix", "xtreme-r Table 2"],
        "pawsx": ["xtreme Table 2"],
        "panx": ["xtreme Table 2", "xtreme Appendix", "xtreme-r Table 2"],
        "xquad": ["xtreme Table 2", "xtreme-r Table 2"],
        "mlqa": ["xlmr-paper Table 3", "xtreme Table 2", "xtreme Appendix", "xtreme-r Table 2"],
        "tydiqa": ["xtreme Table 2", "xtreme Appendix", "xtreme-r Table 2"],
        "udpos": ["xtreme Appendix", "xtreme Table 2", "xtreme-r Table 2"],
        "bucc": ["xtreme Table 2"],
        "tatoeba": ["xtreme Table 2", "xtreme-r Table 2"],
    },
    "xlmr": {
        "xnli": ["xlmr-paper Table 1", "xtreme Table 2", "xtreme Appendix", "xtreme-r Table 2"],
        "mlqa": ["xlmr-paper Table 3", "xtreme Table 2", "xtreme Appendix", "xtreme-r Table 2"],
        "conll": ["xlmr-paper Table 2"],
        "glue": ["xlmr-paper Table 4"],
    },
}


@pytest.mark.parametrize("run", sorted(PUBLISHED))
def test_published_and_delta_rows_for_every_task_a_source_gives(runs: dict, run: str) -> None:
    tables = runs["workdir"] / "results" / "runs" / run / "tables"
    for task, expected in PUBLISHED[run].items():
        table = pd.read_csv(tables / f"{task}.csv")
        found = [r.split(",")[0] for r in _references(table, "xlm-roberta-large")]
        assert found == expected, (run, task, found)
        assert _references(table, runs["models"][0]) == [], (run, task)
        for reference in table.get("reference", pd.Series(dtype=str)).dropna().unique():
            rows = table[table["reference"] == reference]
            assert list(rows["row"]) == ["published", "ours - published"], (task, reference)
    # per language where the paper has languages: XLM-R paper Table 1 gives en and de
    xnli = pd.read_csv(tables / "xnli.csv")
    table1 = xnli[xnli["reference"].str.startswith("xlmr-paper Table 1", na=False)]
    assert list(table1["en"])[0] == 89.1 and list(table1["de"])[0] == 83.9
    ours = xnli[(xnli["model"] == "xlm-roberta-large") & (xnli["row"] == "ours")].iloc[0]
    assert list(table1["en"])[1] == pytest.approx(ours["en"] - 89.1)
    # the average column otherwise: XTREME's 79.2, over all 15 languages, with no delta here
    table2 = xnli[xnli["reference"].str.startswith("xtreme Table 2", na=False)]
    assert list(table2["avg"])[0] == 79.2 and pd.isna(list(table2["avg"])[1])
    if run == "xtreme":
        # BUCC's average is in XTREME's Table 2, and no readable source gives it: n/s
        bucc = pd.read_csv(tables / "bucc.csv")
        (unsourced,) = bucc[bucc["row"] == "published"]["unsourced"]
        assert unsourced == "avg"
