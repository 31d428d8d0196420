"""config/xtreme-r.yaml run as a user runs it, on a tiny model and tiny files (one run shared
by every check here, tests/workflow/paper_run.py): Mewsli-X's folder is absent, so the run stops
before any job; with skip_tasks the other nine tasks run to their tables and a partial suite
line."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.paper_run import RUN, PaperRun, run_paper_config

pytestmark = pytest.mark.workflow

# config/xtreme-r.yaml's tasks that the tiny run evaluates: XTREME-R's ten less Mewsli-X, and
# Social IQa (XCOPA's first fine-tune, scored on its English dev set)
EVALUATED = ["xnli", "xcopa", "udpos", "panx", "xquad", "mlqa", "tydiqa", "tatoeba", "lareqa"]


@pytest.fixture(scope="module")
def paper_run(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path) -> PaperRun:
    return run_paper_config(tmp_path_factory.mktemp("paper"), tiny_model, [])


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
