"""The whole chain on the tiny model: tables, caching per task x language, params triggers."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
import yaml

from tests.conftest import REPO
from tests.unit.test_report import table_cells
from tests.workflow.snakemake_runner import (
    interval_columns,
    job_counts,
    plots_dir,
    report_results,
    run_report,
    run_snakemake,
    tables_dir,
)

pytestmark = pytest.mark.workflow

PAWSX_LINES = [
    ("The cat sat on the mat .", "The mat had a cat on it .", "1"),
    ("The cat sat on the mat .", "The mat sat on the cat .", "0"),
    ("She sold the car in May .", "In May , she sold the car .", "1"),
    ("She sold the car in May .", "She bought the car in May .", "0"),
]


def _write_pawsx(folder: Path) -> None:
    folder.mkdir()
    lines = "".join("\t".join(row) + "\n" for row in PAWSX_LINES * 5)
    for name in ("train-en.tsv", "dev-en.tsv", "test-en.tsv", "test-de.tsv"):
        (folder / name).write_text(lines, encoding="utf-8")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workflow")


@pytest.fixture(scope="module")
def config(workdir: Path, tiny_model: Path) -> dict:
    _write_pawsx(workdir / "pawsx-files")
    small = {"epochs": 1, "batch_size": 16, "max_length": 64, "learning_rate": 1e-4}
    return {
        # one built tiny model for every run of this module: building one trains a tokenizer,
        # which is not reproducible across processes (see tests/long/test_determinism.py)
        "models": [{"name": "tiny", "source": "local", "path": str(tiny_model)}],
        "tasks": {
            "xnli": {"source": "demo", "languages": ["en", "de", "zh"], "hyperparameters": small},
            "pawsx": {
                "source": "files",
                "path": str(workdir / "pawsx-files"),
                "languages": ["en", "de"],
                "hyperparameters": dict(small),
            },
        },
        "settings": ["zero-shot"],
        "seeds": [1],
    }


@pytest.fixture(scope="module")
def first_run(workdir: Path, config: dict):
    # a workstation with two (fake) GPUs: jobs that ask for one each take a device of their own
    gpus = {"MTE_GPU_IDS": "3,5", "MTE_GPU_LOCK_DIR": str(workdir / "gpu-locks")}
    done = run_snakemake(workdir, config, "--resources", "gpu=2", env=gpus)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_jobs_that_ask_for_a_gpu_take_one_device_each(workdir: Path, first_run) -> None:
    """Fine-tunes and predictions (gpu: 1) lock one of the two ids and see only it; CPU jobs
    take none. The ids are fake, so torch sees no GPU and the jobs run on the CPU."""
    logs = workdir / "results" / "logs"
    for rule in ("finetune", "predict"):
        found = list((logs / rule).rglob("*.log"))
        assert found
        for log in found:
            text = log.read_text()
            assert "of this machine's 3,5 (lock " in text, log
            assert "on cpu (fp32)" in text, log
    for rule in ("tokenize", "score"):
        assert not any("machine's 3,5" in log.read_text() for log in (logs / rule).rglob("*.log"))


def test_tables_have_one_accuracy_per_language(workdir: Path, first_run) -> None:
    table = pd.read_csv(tables_dir(workdir) / "xnli.csv")
    values = ["en", "de", "zh", "avg"]
    assert list(table.columns) == [
        "model",
        "setting",
        "row",
        "seeds",
        *values,
        *interval_columns(values),
        "data_note",  # XNLI ran on the demo data: every row says so
    ]
    assert table["data_note"].str.startswith("Demo data: 54 test examples per language").all()
    assert len(table) == 1 and table.loc[0, "model"] == "tiny"
    assert table[["en", "de", "zh"]].apply(lambda c: c.between(0, 100)).all().all()
    assert (tables_dir(workdir) / "xnli.md").is_file()
    pawsx = pd.read_csv(tables_dir(workdir) / "pawsx.csv")
    values = ["en", "de", "avg"]
    assert list(pawsx.columns) == [
        "model",
        "setting",
        "row",
        "seeds",
        *values,
        *interval_columns(values),
    ]
    counts = job_counts(first_run.stdout + first_run.stderr)
    assert counts["finetune"] == 2 and counts["predict"] == 5 and counts["score"] == 5
    # the run's index of its prediction files, each record readable: gold and probabilities
    index = pd.read_csv(tables_dir(workdir).parent / "predictions.csv")
    assert len(index) == 5 and set(index["task"]) == {"xnli", "pawsx"}
    german = index[(index["task"] == "xnli") & (index["language"] == "de")]["predictions"].item()
    records = [json.loads(line) for line in (workdir / german).read_text().splitlines()]
    assert len(records) == 54
    for record in records:
        assert set(record) == {"id", "label", "probabilities", "gold"}
        assert set(record["probabilities"]) == {"entailment", "neutral", "contradiction"}
        assert sum(record["probabilities"].values()) == pytest.approx(1, abs=1e-5)
        assert record["label"] == max(record["probabilities"], key=record["probabilities"].get)


def test_tables_in_three_formats_figures_and_report(workdir: Path, config: dict, first_run) -> None:
    tables = tables_dir(workdir)
    for name in ("xnli", "pawsx", "xtreme_summary"):
        for ext in ("csv", "md", "tex"):
            assert (tables / f"{name}.{ext}").stat().st_size > 0, f"{name}.{ext}"
    provenance = json.loads((tables / "xnli.provenance.json").read_text())
    assert {p["language"] for p in provenance} == {"en", "de", "zh"}
    record = provenance[0]["provenance"]
    assert record["training"]["seed"] == 1 and record["packages"]["torch"]
    # training_precision auto on a CPU: fp32, recorded in every score's provenance
    assert {p["provenance"]["training"]["precision"] for p in provenance} == {"fp32"}
    assert all(d["files"][0]["sha256"] for d in record["data"]) and record["hardware"]["cpus"]
    # and the machines that fine-tuned and predicted, beside the score job's
    assert record["training"]["hardware"]["cpus"] and record["predicted_on"]["cpus"]
    # the precision the prediction ran in (inference_precision auto: fp32 on a CPU) and the
    # CPU's bf16 units, which decide what bf16 would have cost and changed
    assert (record["predicted_on"]["device"], record["predicted_on"]["precision"]) == (
        "cpu",
        "fp32",
    )
    assert isinstance(record["predicted_on"]["cpu_bf16_units"], list)
    latex = (tables / "xnli.tex").read_text()
    assert r"\toprule" in latex and r"\bottomrule" in latex and "tiny" in latex
    summary = pd.read_csv(tables / "xtreme_summary.csv")
    assert list(summary.columns[:6]) == ["model", "setting", "row", "seeds", "xnli", "pawsx"]
    plots = plots_dir(workdir)
    for png in (plots / "tiny" / "heatmap_zero-shot.png", plots / "transfer_gaps.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
    # every run's report, as make report CONFIG=... writes it: its run's folder
    done = run_report(workdir, [workdir / "config.yaml"])
    assert done.returncode == 0, done.stderr[-3000:]
    results = report_results(tables.parent / "report.html")
    assert {"heatmap_zero-shot.png", "transfer_gaps.png"} <= {r["name"] for r in results.values()}


def test_report_shows_each_table_as_html_and_a_training_curve_per_finetune(
    workdir: Path, config: dict, first_run
) -> None:
    report = tables_dir(workdir).parent / "report.html"
    if not report.is_file():
        done = run_report(workdir, [workdir / "config.yaml"])
        assert done.returncode == 0, done.stderr[-3000:]
    results = report_results(report)
    pages = {Path(path).name: record for path, record in results.items() if path.endswith(".html")}
    assert {"xnli.html", "pawsx.html", "xtreme_summary.html", "provenance.html"} <= set(pages)
    # the analyses page: XNLI's and PAWS-X's labels confused, their languages' families
    analyses_page = pages["analyses.html"]["content"].decode("utf-8")
    assert "Classification: gold label x predicted label" in analyses_page
    assert "Sino-Tibetan" in analyses_page  # zh
    # the seed card's recipe, labelled, beside the official metric: its accuracy branch gives
    # the accuracy of the XNLI table
    assert "seed evaluation card" in analyses_page and "not a replacement" in analyses_page
    recipe = pd.read_csv(tables_dir(workdir).parent / "analyses" / "card_recipe.csv")
    xnli_recipe = recipe[recipe["task"] == "xnli"].set_index("language")
    xnli_table = pd.read_csv(tables_dir(workdir) / "xnli.csv").iloc[0]
    assert sorted(xnli_recipe.index) == ["de", "en", "zh"]
    for language, row in xnli_recipe.iterrows():
        assert row["official_metric"] == "accuracy" and row["examples"] == 54
        assert row["branch"] == "XNLI"
        assert 100 * row["accuracy"] == pytest.approx(xnli_table[language], abs=0.051)
        assert row["accuracy"] == pytest.approx(row["official"])
    for task, languages in (("xnli", ["en", "de", "zh"]), ("pawsx", ["en", "de"])):
        page = pages[f"{task}.html"]
        assert page["mime_type"] == "text/html" and page["labels"]["file"] == f"{task}.html"
        rows = table_cells(page["content"].decode("utf-8"))
        header, ours = rows[0], rows[1]
        assert header == ["model", "setting", *languages, "avg"]
        # each cell: the table's value and its bootstrap interval, as the CSV holds them
        table = pd.read_csv(tables_dir(workdir) / f"{task}.csv").iloc[0]
        for column, text in zip(header[2:], ours[2:], strict=True):
            low, high = table[f"{column}_low"], table[f"{column}_high"]
            assert text == f"{table[column]:.1f} [{low:.1f}, {high:.1f}]", (task, column)
    # the demo is labelled as demo data, with n per language: on the report's pages (the
    # summary and the analyses too: XNLI is one of their tasks) and in every file of its tables
    xnli = pages["xnli.html"]["content"].decode("utf-8")
    assert "Demo data:" in xnli and "Examples scored per language (n): en " in xnli
    for page in ("xtreme_summary.html", "analyses.html"):
        assert "Demo data: 54 test examples" in pages[page]["content"].decode("utf-8"), page
    for name in ("xnli", "xtreme_summary"):
        assert (tables_dir(workdir) / f"{name}.md").read_text().startswith("> **Demo data: ")
        assert "\\textbf{Demo data: " in (tables_dir(workdir) / f"{name}.tex").read_text()
    assert "data_note" in pd.read_csv(tables_dir(workdir) / "xtreme_summary.csv")
    assert "data_note" not in pd.read_csv(tables_dir(workdir) / "pawsx.csv")  # real files
    # a training-curve figure per fine-tune (xnli and pawsx, one seed each)
    curves = [r for r in results.values() if r["job_properties"]["rule"] == "plot_training"]
    assert sorted(r["labels"]["task"] for r in curves) == ["pawsx", "xnli"]
    assert all(r["content"][:8] == b"\x89PNG\r\n\x1a\n" for r in curves)


def test_second_run_has_nothing_to_do(workdir: Path, config: dict, first_run) -> None:
    done = run_snakemake(workdir, config)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Nothing to be done" in done.stderr
    assert job_counts(done.stdout + done.stderr) == {}


def _checkout_copy(folder: Path) -> Path:
    """The workflow and its package copied (modification times kept, as a checkout moved)."""
    folder.mkdir(parents=True)
    for name in ("Snakefile", "workflow", "config", "envs", "profiles"):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, folder / name)
    return folder


def test_a_code_change_plans_again_the_jobs_that_run_that_code(
    workdir: Path, config: dict, first_run, tmp_path: Path
) -> None:
    checkout = _checkout_copy(tmp_path / "checkout")

    # the tables read the published numbers in the checkout's config/references/: another
    # checkout is another set of input files for them (not code)
    tables = {"aggregate", "summarize", "all"}

    def planned() -> dict[str, int]:
        done = run_snakemake(workdir, config, "-n", repo=checkout)
        assert done.returncode == 0, done.stderr[-3000:]
        counts = job_counts(done.stdout + done.stderr)
        return {rule: n for rule, n in counts.items() if rule not in tables}

    # the same code elsewhere: the keys do not depend on where the checkout is
    assert planned() == {}
    package = checkout / "workflow" / "scripts" / "mte"
    scoring = package / "families" / "pairs" / "scoring.py"
    original = scoring.read_text(encoding="utf-8")
    scoring.write_text(original + "\nSCORING_CHANGED = True\n", encoding="utf-8")
    # 3 XNLI and 2 PAWS-X languages: their score jobs, and what reads the scores; no
    # fine-tune, no prediction, no data
    languages = len(config["tasks"]["xnli"]["languages"]) + len(
        config["tasks"]["pawsx"]["languages"]
    )
    counts = planned()
    assert counts["score"] == languages
    assert not {"download", "tokenize", "finetune", "predict", "plot_training"} & set(counts)
    # a comment is not code
    scoring.write_text(original + "\n# a comment changes no result\n", encoding="utf-8")
    assert planned() == {}
    scoring.write_text(original, encoding="utf-8")
    # a reader: the data jobs of its family's tasks, and everything that follows them
    readers = package / "families" / "pairs" / "readers.py"
    readers.write_text(readers.read_text(encoding="utf-8") + "\nREADER_CHANGED = 1\n")
    counts = planned()
    assert counts["download"] >= languages and counts["finetune"] == 2
    assert counts["predict"] == counts["score"] == languages


def test_adding_a_language_reruns_only_that_language(
    workdir: Path, config: dict, first_run
) -> None:
    more = copy.deepcopy(config)
    more["tasks"]["xnli"]["languages"].append("es")
    done = run_snakemake(workdir, more)
    assert done.returncode == 0, done.stderr[-3000:]
    assert job_counts(done.stdout + done.stderr) == {
        "download": 1,
        "tokenize": 1,
        "predict": 1,
        "score": 1,
        "aggregate": 1,
        # the figures, the XTREME summary, the run's provenance and analyses read every score
        "summarize": 1,
        "plot_heatmap": 1,
        "plot_transfer_gaps": 1,
        # XNLI's gaps per language (PAWS-X's figure reads none of its scores)
        "plot_language_gaps": 1,
        "describe_run": 1,
        "analyze": 1,
        "all": 1,
    }
    assert "es" in pd.read_csv(tables_dir(workdir) / "xnli.csv").columns
    config["tasks"]["xnli"]["languages"].append("es")  # later tests start from here


def test_changing_the_learning_rate_reruns_that_task_only(
    workdir: Path, config: dict, first_run
) -> None:
    changed = copy.deepcopy(config)
    changed["tasks"]["xnli"]["hyperparameters"]["learning_rate"] = 3e-4
    done = run_snakemake(workdir, changed)
    assert done.returncode == 0, done.stderr[-3000:]
    languages = len(changed["tasks"]["xnli"]["languages"])
    assert job_counts(done.stdout + done.stderr) == {
        "finetune": 1,
        # the new fine-tune's curves
        "plot_training": 1,
        "predict": languages,
        "score": languages,
        "aggregate": 1,
        "summarize": 1,
        "plot_heatmap": 1,
        "plot_transfer_gaps": 1,
        # XNLI's gaps per language (PAWS-X's figure reads none of its scores)
        "plot_language_gaps": 1,
        "describe_run": 1,
        "analyze": 1,
        "all": 1,
    }
    assert "task=pawsx" not in done.stderr


def test_the_data_lock_refuses_other_bytes_and_an_accepted_update_replans_that_task_only(
    workdir: Path, config: dict, first_run
) -> None:
    """The first run wrote the lock beside its config; a later run checks the data in its
    folders against it; a released file changed under the same path is refused with both
    sums and nothing kept; update_lock accepts it, rewrites the lock and renames the task's
    data, so that a dry run plans that task's jobs again and no other's."""
    lock_path = workdir / "config.lock"
    lock = yaml.safe_load(lock_path.read_text(encoding="utf-8"))
    assert set(lock["tasks"]) == {"xnli", "pawsx"}
    pawsx = lock["tasks"]["pawsx"]
    assert set(pawsx["splits"]) == {"en/train", "en/dev", "en/test", "de/test"}
    folder = workdir / "resources/data/pawsx" / pawsx["source"]
    for part, entry in pawsx["splits"].items():
        data = (folder / f"{part}.jsonl").read_bytes()
        assert entry["examples"]["sha256"] == hashlib.sha256(data).hexdigest()
    released = workdir / "pawsx-files/test-de.tsv"
    assert pawsx["splits"]["de/test"]["files"] == {
        "test-de.tsv": "sha256:" + hashlib.sha256(released.read_bytes()).hexdigest()
    }
    checked = run_snakemake(workdir, config, "-n")
    assert checked.returncode == 0, checked.stderr[-3000:]
    files = sum(len(task["splits"]) for task in lock["tasks"].values())
    assert f"the {files} downloaded data file(s) of this run that it records agree" in (
        checked.stderr
    )

    # one label changed in the released file, under the same path and pins
    text = released.read_text(encoding="utf-8")
    released.write_text(text.replace("\t1\n", "\t0\n", 1), encoding="utf-8")
    refused = run_snakemake(workdir, config)
    assert refused.returncode != 0
    locked = pawsx["splits"]["de/test"]
    new_file = "sha256:" + hashlib.sha256(released.read_bytes()).hexdigest()
    assert f"the lock has {locked['examples']['sha256']}" in refused.stderr
    assert f"file test-de.tsv: {new_file}, the lock has {locked['files']['test-de.tsv']}" in (
        refused.stderr
    )
    assert not (folder / "de/test.jsonl").exists()
    assert yaml.safe_load(lock_path.read_text(encoding="utf-8")) == lock

    # accepted on purpose: the downloads only, then the lock says what changed
    updated = run_snakemake(workdir, config, "--config", "update_lock=true")
    assert updated.returncode == 0, updated.stderr[-3000:]
    assert "pawsx de/test: accepted: examples: sha256" in updated.stderr
    after = yaml.safe_load(lock_path.read_text(encoding="utf-8"))
    assert after["tasks"]["xnli"] == lock["tasks"]["xnli"]
    assert after["tasks"]["pawsx"]["accepted"]["digest"]
    assert after["tasks"]["pawsx"]["splits"]["de/test"]["files"]["test-de.tsv"] == new_file
    # nothing left under the name of the data before
    assert not (folder / "de/test.jsonl").exists()

    planned = run_snakemake(workdir, config, "-n")
    assert planned.returncode == 0, planned.stderr[-3000:]
    counts = job_counts(planned.stdout + planned.stderr)
    # PAWS-X's 4 downloads, its fine-tune, its 2 languages' predictions and scores: none of
    # XNLI's 4 languages (its tables may be planned: an earlier test ran another rate)
    assert counts["download"] == 4 and counts["finetune"] == 1
    assert counts["predict"] == counts["score"] == 2
    assert not re.search(r"rule (download|predict|score):\n(    .*\n)*?.*task=xnli", planned.stdout)
    renamed = re.search(r"resources/data/pawsx/([a-z]+-[0-9a-f]{8})/", planned.stdout)
    assert renamed and renamed.group(1) != pawsx["source"]

    # an update whose targets would also run the jobs after the downloads stops first
    table = str((tables_dir(workdir) / "pawsx.csv").relative_to(workdir))
    again = run_snakemake(workdir, config, "--config", "update_lock=true", "--", table)
    assert again.returncode != 0
    assert "runs the downloads only" in again.stderr and "make update-lock" in again.stderr
    released.write_text(text, encoding="utf-8")
