"""The authors' evaluate.py against the project (make parity-evaluate XTREME=<checkout>): run
unmodified from a checkout of google-research/xtreme in the parity environment
(tools/parity/.venv, seqeval 0.0.12), on

- XTREME's own mock_test_data: mte-evaluate gives every value of evaluate.py's report, and every
  average its evaluate_test.py asserts, to 1e-9;
- the export of the shared tiny run (tests/workflow/test_submission.py), with a label folder
  written from the run's gold test files: every task x language of evaluate.py equals the
  project's score file, and its avg_metric, groups and all_task the project's means.

Out of make test: it needs the checkout (XTREME) and tools/parity/setup.sh's environment."""

from __future__ import annotations

import ast
import json
import os
import subprocess
from pathlib import Path

import pytest

from mte.submission.scoring import Statistics, evaluate_submission
from mte.submission.versions import leaderboards
from tests.workflow.snakemake_runner import SHAPES, variant_dir
from tests.workflow.test_submission import EXPECTED, PROJECT_METRIC, _labels, project_metrics

pytestmark = [pytest.mark.parity, pytest.mark.families]

ROOT = Path(__file__).resolve().parents[2]
PYTHON = os.environ.get(
    "PARITY_PYTHON", str(ROOT / "tools" / "parity" / ".venv" / "bin" / "python")
)


@pytest.fixture(scope="module")
def xtreme() -> Path:
    checkout = os.environ.get("XTREME")
    assert checkout, "make parity-evaluate XTREME=<a checkout of google-research/xtreme>"
    assert Path(PYTHON).is_file(), f"{PYTHON}: run bash tools/parity/setup.sh"
    return Path(checkout)


def _evaluate_py(xtreme: Path, predictions: Path, labels: Path, version: str, out: Path,
                 languages: dict | None = None) -> dict:  # fmt: skip
    command = [PYTHON, str(ROOT / "tools" / "parity" / "evaluate_py.py"), "--xtreme", str(xtreme),
               "--predictions", str(predictions), "--labels", str(labels), "--version", version,
               "--output", str(out)]  # fmt: skip
    if languages is not None:
        command += ["--languages", json.dumps(languages)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text())


def _flat(scores: dict, prefix: str = "") -> dict[str, float]:
    out = {}
    for key, value in scores.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}/"))
        else:
            out[f"{prefix}{key}"] = value
    return out


def test_the_leaderboards_are_evaluate_pys_lists(xtreme: Path) -> None:
    done = subprocess.run(
        [PYTHON, str(ROOT / "tools" / "parity" / "evaluate_py.py"), "--xtreme", str(xtreme),
         "--tables"], capture_output=True, text=True, check=True,
    )  # fmt: skip
    tables = json.loads(done.stdout)
    for name, board in leaderboards().items():
        theirs = {task: langs for task, langs in tables["languages"][name].items() if langs}
        ours = {board.folders[t]: list(board.languages[t]) for t in board.tasks}
        assert {t: sorted(v) for t, v in ours.items()} == {t: sorted(v) for t, v in theirs.items()}
        groups = {g: sorted(board.folders[t] for t in tasks) for g, tasks in board.groups}
        assert groups == {g: sorted(t) for g, t in tables["groups"][name].items()}


def test_mock_test_data_every_value_and_evaluate_test_pys_averages(
    xtreme: Path, tmp_path: Path
) -> None:
    mock = xtreme / "mock_test_data"
    theirs = _evaluate_py(
        xtreme, mock / "predictions", mock / "labels", "xtreme", tmp_path / "e.json"
    )
    ours = evaluate_submission(
        mock / "predictions", mock / "labels", leaderboards()["xtreme"], Statistics(resamples=50)
    )["scores"]
    flat_theirs, flat_ours = _flat(theirs), _flat(ours)
    assert sorted(flat_theirs) == sorted(flat_ours) and len(flat_ours) == 375
    for key, value in flat_theirs.items():
        assert flat_ours[key] == pytest.approx(value, abs=1e-9), key
    # evaluate_test.py's expected averages, read from the checkout
    tree = ast.parse((xtreme / "evaluate_test.py").read_text())
    expected = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "").endswith("SCORES")
    }
    for task, averages in expected["TASK2AVG_SCORES"].items():
        for name, value in averages.items():
            assert ours[task][name] == pytest.approx(value, abs=1e-9), (task, name)
    r = evaluate_submission(
        mock / "predictions", mock / "labels", leaderboards()["xtreme-r"], Statistics(resamples=50),
        partial=True,
    )["scores"]  # fmt: skip
    for task, averages in expected["XTREME_R_TASK2AVG_SCORES"].items():
        for name, value in averages.items():
            assert r[task][name] == pytest.approx(value, abs=1e-9), (task, name)


@pytest.mark.parametrize("model", SHAPES)
@pytest.mark.parametrize("board_name", ["xtreme", "xtreme-r"])
def test_evaluate_py_reads_the_export_as_the_project_scores_it(
    xtreme: Path, exported: Path, family_run, model: str, board_name: str, tmp_path: Path
) -> None:
    board = leaderboards()[board_name]
    folder = exported / model / "zero-shot" / "seed1" / board_name
    labels = tmp_path / "labels"
    _labels(family_run.workdir, model, board_name, labels)
    languages = {board.folders[t]: langs for t, langs in EXPECTED[board_name].items()}
    theirs = _evaluate_py(xtreme, folder, labels, board_name, tmp_path / "e.json", languages)
    largest, cells = 0.0, {}
    for task, langs in EXPECTED[board_name].items():
        detail = theirs[board.folders[task]]
        for language in langs:
            score_dir = variant_dir(family_run.workdir, model, task) / "zero-shot" / "seed1"
            score = json.loads((score_dir / "scores" / f"{language}.json").read_text())
            metrics = project_metrics(task, score)
            for metric in [m for m in detail if not m.startswith("avg")]:
                ours = 100 * metrics[PROJECT_METRIC.get(task, {}).get(metric, metric)]
                largest = max(largest, abs(detail[metric][language] - ours))
        cells[board.folders[task]] = detail["avg_metric"]
    print(f"{model} {board_name}: largest difference {largest:.3g}")
    assert largest <= 1e-9
    # its groups and all_task over the tasks the export holds, against mte-evaluate's
    ours = evaluate_submission(folder, labels, board, Statistics(resamples=50), partial=True)
    for key, value in theirs.items():
        if key == "all_task":
            # over the tasks of its narrowed lists: the export's; mte-evaluate gives all_task
            # only for the leaderboard's every task, so the mean of its task scores stands here
            present = [ours["scores"][folder]["avg_metric"] for folder in languages]
            assert sum(present) / len(present) == pytest.approx(value, abs=1e-9)
            print(f"{model} {board_name}: evaluate.py all_task over the export's tasks {value}")
        elif not isinstance(value, dict):
            assert ours["scores"][key] == pytest.approx(value, abs=1e-9), key
            print(f"{model} {board_name}: evaluate.py {key} {value}")
    for folder_name, value in cells.items():
        assert ours["scores"][folder_name]["avg_metric"] == pytest.approx(value, abs=1e-9)
