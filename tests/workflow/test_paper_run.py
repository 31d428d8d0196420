"""config/xtreme-r.yaml run as a user runs it, on a tiny model and tiny files (one run shared
by every check here, tests/workflow/paper_run.py): Mewsli-X's folder is absent, so the run stops
before any job; with skip_tasks the other nine tasks run to their tables and a partial suite
line."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.paper_run import MADE_UP_XNLI, RUN, PaperRun, run_paper_config
from tests.workflow.snakemake_runner import job_counts, report_results, run_report, run_snakemake

pytestmark = pytest.mark.workflow

# config/xtreme-r.yaml's tasks that the tiny run evaluates: XTREME-R's ten less Mewsli-X, and
# Social IQa (XCOPA's first fine-tune, scored on its English dev set)
EVALUATED = ["xnli", "xcopa", "udpos", "panx", "xquad", "mlqa", "tydiqa", "tatoeba", "lareqa"]


@pytest.fixture(scope="module")
def paper_run(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path) -> PaperRun:
    return run_paper_config(tmp_path_factory.mktemp("paper"), tiny_model)


def test_a_missing_manual_step_stops_the_run_before_any_job(paper_run: PaperRun) -> None:
    stopped = paper_run.stopped
    assert stopped.returncode == 1
    errors = [line for line in stopped.stderr.splitlines() if "Configuration error" in line]
    assert len(errors) == 1, stopped.stderr[-3000:]
    # the step, and the one line that runs the rest
    assert "download/mewslix does not exist yet" in errors[0]
    assert "get-mewsli-x.sh" in errors[0]
    assert "--config skip_tasks=[mewslix]" in errors[0]
    # planned (the job table is printed), nothing run: no job's log, no result
    assert "Job stats" in stopped.stdout + stopped.stderr
    assert "Finished job" not in stopped.stdout + stopped.stderr
    assert "rule " not in stopped.stdout


def test_with_the_skip_the_other_tasks_run_to_their_tables(paper_run: PaperRun) -> None:
    finished = paper_run.finished
    assert finished.returncode == 0, finished.stderr[-4000:]
    tables = paper_run.run_folder / "tables"
    for task in [*EVALUATED, "siqa"]:
        table = pd.read_csv(tables / f"{task}.csv")
        ours = table[table["row"] == "ours"]
        assert len(ours) == 1 and ours["avg"].notna().all(), task
    assert not (tables / "mewslix.csv").exists()
    counts = paper_run.counts
    # XNLI, Social IQa, XCOPA, UD-POS, PAN-X, SQuAD, TyDiQA and LAReQA's dual encoder: not
    # Mewsli-X's
    assert counts["finetune"] == 8
    assert "mewslix" not in finished.stdout


def test_the_suite_line_says_which_task_is_missing_and_that_it_is_partial(
    paper_run: PaperRun,
) -> None:
    tables = paper_run.run_folder / "tables"
    summary = pd.read_csv(tables / "xtreme_r.csv")
    ours = summary[summary["row"] == "ours"].iloc[0]
    assert ours["missing"] == "mewslix" and ours["skipped"] == "mewslix"
    assert ours["averaged"].split() == EVALUATED
    # the average is the mean of the nine task scores it names
    assert ours["avg"] == pytest.approx(sum(ours[t] for t in EVALUATED) / 9, abs=0.01)
    # the retrieval group needs Mewsli-X: no group score
    assert "retrieval" not in summary.columns and "classification" in summary.columns
    markdown = (tables / "xtreme_r.md").read_text(encoding="utf-8")
    title = markdown.splitlines()[0]
    assert title.startswith("# Partial XTREME-R summary: the average is over 9 of XTREME-R's 10")
    assert "missing: mewslix (skipped)" in title
    assert (
        "The suite score (avg) is partial: the mean over 9 of XTREME-R's 10 tasks, not "
        "XTREME-R's score; skipped by the config's skip_tasks: Mewsli-X." in markdown
    )
    assert f"results/runs/{RUN}" in str(tables)


def test_the_published_side_says_what_it_holds(paper_run: PaperRun) -> None:
    """Beside the tiny model named xlm-roberta-large: the XLM-R paper's XNLI row (complete),
    XTREME's (Table 2's average, the appendix's cells), and XTREME-R's from the user's file
    (made-up numbers: en 50.0, de 53.0 in the template's language order); a cell the paper
    prints and no readable source gives reads n/s, with its note."""
    tables = paper_run.run_folder / "tables"
    xnli = pd.read_csv(tables / "xnli.csv")
    published = xnli[xnli["row"] == "published"].set_index("reference")

    def labelled(start: str) -> str:
        (label,) = [label for label in published.index if label.startswith(start)]
        return label

    assert published.loc[labelled("xlmr-paper Table 1"), "en"] == 89.1
    xtreme_r = labelled("xtreme-r Table 2")
    assert (published.loc[xtreme_r, "en"], published.loc[xtreme_r, "de"]) == (50.0, 53.0)
    # PAN-X: XTREME's appendix gives XLM-R's English cell, not German's
    panx = pd.read_csv(tables / "panx.csv")
    is_appendix = (panx["row"] == "published") & panx["reference"].str.contains("Appendix")
    (appendix_row,) = [row for _, row in panx[is_appendix].iterrows()]
    assert appendix_row["en"] == 84.7 and pd.isna(appendix_row["de"])
    assert appendix_row["unsourced"] == "de; avg"
    printed = (tables / "panx.md").read_text(encoding="utf-8")
    assert "| 84.7 | n/s | n/s |" in printed
    assert "n/s: the paper prints this cell, but no source readable here gives it" in printed
    # XTREME-R's PAN-X row: the template's, every cell null
    assert "(published: xtreme-r Table 2," in printed


def test_the_suite_line_prints_the_filled_cell_and_n_s_for_the_rest(paper_run: PaperRun) -> None:
    tables = paper_run.run_folder / "tables"
    summary = pd.read_csv(tables / "xtreme_r.csv")
    published = summary[summary["row"] == "published"].iloc[0]
    assert published["xnli"] == MADE_UP_XNLI and pd.isna(published["xcopa"])
    assert published["unsourced"].split("; ")[-1] == "avg"
    assert "xcopa" in published["unsourced"]
    markdown = (tables / "xtreme_r.md").read_text(encoding="utf-8")
    assert f"| {MADE_UP_XNLI:.1f} | n/s | n/s |" in markdown
    # our XNLI is over 2 of XTREME-R's 15 languages: said in the cell, no delta against 57.0
    assert " (2 of 15) |" in markdown
    delta = summary[summary["row"] == "ours - published"].iloc[0]
    assert pd.isna(delta["xnli"])
    # ours with its intervals
    ours = summary[summary["row"] == "ours"].iloc[0]
    assert ours["avg_low"] <= ours["avg"] <= ours["avg_high"]
    assert "[low, high]: bootstrap 95% interval over test examples" in markdown


def test_the_leaderboard_says_what_each_empty_cell_means(
    paper_run: PaperRun, tmp_path: Path
) -> None:
    from mte.leaderboard.cli import main

    references = paper_run.checkout / "config" / "references"
    argv = [str(paper_run.run_folder), "--out", str(tmp_path), "--trials", "100"]
    assert (
        main([*argv, "--references", str(references), "--references", str(paper_run.references)])
        == 0
    )  # noqa: E501
    board = pd.read_csv(tmp_path / "leaderboard.csv")
    ours = board[board["row"] == "ours"].iloc[0]
    # nine of XTREME-R's ten tasks, on two languages each: no suite score, and why
    assert pd.isna(ours["xtreme_r"])
    assert ours["xtreme_r_why"].startswith("no XTREME-R score: this row lacks 1 of its 10 tasks")
    # our XNLI over 2 of the papers' 15 languages
    assert ours["xnli_languages"] == 2 and ours["xnli_of_languages"] == 15
    template = board[board["label"] == "XLM-R Large (xtreme-r)"].iloc[0]
    assert template["xnli"] == MADE_UP_XNLI
    assert pd.isna(template["xtreme_r"]) and template["xtreme_r_why"]
    page = (tmp_path / "leaderboard.html").read_text(encoding="utf-8")
    assert "2 of 15 languages" in page and ">n/s<" in page


def test_the_report_of_the_paper_run_holds_its_tables(paper_run: PaperRun) -> None:
    """mte-report (make report CONFIG=...): results/runs/xtreme-r/report.html, its tables the
    run's, the XTREME-R summary among them."""
    configs = [Path(path) for path in paper_run.configfiles()]
    done = run_report(paper_run.checkout, configs, "skip_tasks=[mewslix]", repo=paper_run.checkout)
    assert done.returncode == 0, done.stderr[-3000:]
    report = paper_run.run_folder / "report.html"
    assert f"Open {report} in a browser" in done.stdout
    embedded = report_results(report)
    summary = next(r for path, r in embedded.items() if path.endswith("tables/xtreme_r.html"))
    page = summary["content"].decode("utf-8")
    assert "Partial XTREME-R summary" in page and "n/s" in page
    names = {Path(path).name for path in embedded}
    assert {f"{task}.html" for task in EVALUATED} <= names
    # the report carries the project's stylesheet: nothing under its menu
    assert "safe center" in report.read_text(encoding="utf-8")


def test_results_json_holds_every_score_of_the_run(paper_run: PaperRun) -> None:
    import json

    index = pd.read_csv(paper_run.run_folder / "scores.csv")
    results = json.loads((paper_run.run_folder / "results.json").read_text(encoding="utf-8"))
    assert results["run"] == RUN and len(results["results"]) == len(index)
    record = next(r for r in results["results"] if (r["task"], r["language"]) == ("xnli", "de"))
    score = json.loads((paper_run.checkout / record["score_file"]).read_text(encoding="utf-8"))
    assert record["value"] == score["metrics"]["accuracy"] and record["n"] == score["n"]
    assert record["interval"]["low"] == score["interval"]["low"]
    assert len(record["provenance_digest"]) == 64


def test_model_weights_are_readable_as_every_other_output(paper_run: PaperRun) -> None:
    """Fine-tuned weights (safetensors writes 0600) get the umask's modes, as the JSON does."""
    mask = os.umask(0o022)
    os.umask(mask)
    weights = list((paper_run.checkout / "results").rglob("*.safetensors"))
    assert weights
    for path in [*weights, next((paper_run.checkout / "results").rglob("scores/*.json"))]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path


def test_a_moved_checkout_plans_nothing(paper_run: PaperRun) -> None:
    """The checkout and its results copied elsewhere (times kept, as a move keeps them): its
    dry run has nothing to do (every input path relative to the working directory)."""
    moved = paper_run.checkout.parent / "moved"
    shutil.copytree(paper_run.checkout, moved, symlinks=True)
    configs = [moved / "config" / "xtreme-r.yaml", paper_run.overlay]
    done = run_snakemake(moved, configs, "-n", "--config", "skip_tasks=[mewslix]", repo=moved)
    assert done.returncode == 0, done.stderr[-3000:]
    output = done.stdout + done.stderr
    assert job_counts(output) == {} and "Nothing to be done" in output, output[-3000:]
