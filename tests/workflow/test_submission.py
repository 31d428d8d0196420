"""The leaderboard export of the shared run of every family (tests/workflow/family_run.py):
`snakemake submissions` writes, per model, setting and seed, the XTREME and XTREME-R folders
that evaluate.py reads; scored back by mte-evaluate against a label folder written from the gold
test files, every task x language equals the project's own score file, and each task's
avg_metric the mean of the project's cells (QA: of F1 and EM). tests/parity runs the authors'
evaluate.py itself on the same export (make parity-evaluate)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from mte.io import read_jsonl
from mte.registry import family_of, get_task
from mte.submission.scoring import Statistics, evaluate_submission
from mte.submission.versions import leaderboard
from tests.workflow.snakemake_runner import SHAPES, run_snakemake, variant_dir

pytestmark = [pytest.mark.workflow, pytest.mark.families]

# the project's metric behind each of evaluate.py's, per task of the run
PROJECT_METRIC = {"mewslix": {"map@20": "map_at_20"}}
# what the shared run has of each leaderboard (zero-shot, seed 1): task -> languages
EXPECTED = {
    "xtreme": {
        "pawsx": ["de"], "panx": ["de"], "udpos": ["de"], "xquad": ["de"],
        "tydiqa": ["fi"], "bucc": ["de"], "tatoeba": ["de"],
    },
    "xtreme-r": {
        "xcopa": ["et"], "udpos": ["de"], "panx": ["de"], "xquad": ["de"], "tydiqa": ["fi"],
        "tatoeba": ["de"], "mewslix": ["en", "de"],
    },
}  # fmt: skip


@pytest.fixture(scope="module")
def exported(family_run) -> Path:
    workdir = family_run.workdir
    overlay = workdir / "submission.yaml"
    # the run of config.yaml (a config file's name would otherwise name the run)
    overlay.write_text(yaml.safe_dump({"run": "config", "submission": {"zip_incomplete": True}}))
    done = run_snakemake(workdir, [workdir / "config.yaml", overlay], "submissions")
    assert done.returncode == 0, done.stderr[-4000:]
    return workdir / "results" / "runs" / "config" / "submission"


def project_metrics(task: str, score: dict) -> dict[str, float]:
    """A score file's metrics, and for UD-POS the seqeval precision and recall that its
    per-sentence statistics give (its table prints F1 alone)."""
    if task != "udpos":
        return score["metrics"]
    from mte.families.tagging.metrics import SeqevalPosCounts

    values = SeqevalPosCounts().values(np.asarray(score["example_stats"], float))
    assert values["seqeval_f1"] == pytest.approx(score["metrics"]["seqeval_f1"], abs=1e-12)
    return {**score["metrics"], **{k.removeprefix("seqeval_"): v for k, v in values.items()}}


def _labels(workdir: Path, model: str, board_name: str, target: Path) -> None:
    """The label folder of the run's test files, written by each task's family."""
    board = leaderboard(board_name)
    for task_name, languages in EXPECTED[board_name].items():
        task = get_task(task_name)
        for language in languages:
            data = next(workdir.glob(f"resources/data/{task_name}/*/{language}/test.jsonl"))
            path = target / board.folders[task_name] / board.file_name(task_name, language)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(family_of(task).submission_labels(task, read_jsonl(data)))


@pytest.mark.parametrize("model", SHAPES)
@pytest.mark.parametrize("board_name", ["xtreme", "xtreme-r"])
def test_the_export_is_the_leaderboard_layout_and_scores_as_the_project(
    exported: Path, family_run, model: str, board_name: str, tmp_path: Path
) -> None:
    folder = exported / model / "zero-shot" / "seed1" / board_name
    board = leaderboard(board_name)
    # (Snakemake marks a directory output with a hidden .snakemake_timestamp, left out of the zip)
    files = sorted(
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_file() and p.name != ".snakemake_timestamp"
    )
    expected = sorted(
        f"{board.folders[t]}/{board.file_name(t, lang)}"
        for t, languages in EXPECTED[board_name].items()
        for lang in languages
    )
    assert files == sorted([*expected, "submission.txt"])
    about = (folder / "submission.txt").read_text()
    assert f"model: {model}" in about and "setting: zero-shot" in about and "seed: 1" in about
    # a task the run lacks is one line; a language it lacks is one line
    assert "  xnli: the task is not in the run (XNLI)" in about.splitlines()
    assert any(line.strip() == "panx/test-en.tsv: not in the run" for line in about.splitlines())
    with zipfile.ZipFile(folder.with_suffix(".zip")) as archive:
        assert sorted(archive.namelist()) == files

    labels = tmp_path / "labels"
    _labels(family_run.workdir, model, board_name, labels)
    report = evaluate_submission(folder, labels, board, Statistics(resamples=50), partial=True)
    largest = 0.0
    for task_name, languages in EXPECTED[board_name].items():
        detail = report["scores"][board.folders[task_name]]
        cells = []
        for language in languages:
            score_file = variant_dir(family_run.workdir, model, task_name)
            score = json.loads(
                (score_file / "zero-shot" / "seed1" / "scores" / f"{language}.json").read_text()
            )
            metrics = project_metrics(task_name, score)
            for metric in [m for m in detail if not m.startswith("avg")]:
                ours = metrics[PROJECT_METRIC.get(task_name, {}).get(metric, metric)]
                assert detail[metric][language] == pytest.approx(100 * ours, abs=1e-9)
                largest = max(largest, abs(detail[metric][language] - 100 * ours))
            cell_metrics = family_of(get_task(task_name)).cell_metrics(get_task(task_name))
            cells.append(sum(100 * score["metrics"][m] for m in cell_metrics) / len(cell_metrics))
        assert detail["avg_metric"] == pytest.approx(sum(cells) / len(cells), abs=1e-9)
    assert largest < 1e-9
