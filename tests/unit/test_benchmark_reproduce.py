"""benchmarks/reproduce.py: a named benchmark run several times with the arguments after
``--``, every run's result kept in {name}.runs.json (a stand-in script in a stand-in repository,
so that nothing is measured)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import reproduce  # noqa: E402  (a script folder, not a package)

# writes results/bf16_workflow_{--task}.json with its arguments and the how-many-th run it is;
# with --extra it also writes a second result, once there is a first run
STAND_IN = """
import json, sys
from pathlib import Path
results = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
args = sys.argv[1:]
count = Path(results / "count")
number = int(count.read_text()) + 1 if count.exists() else 1
count.write_text(str(number))
record = {"args": args, "seconds": 10.0 * number}
(results / f"bf16_workflow_{args[args.index('--task') + 1]}.json").write_text(json.dumps(record))
if "--extra" in args and number > 1:
    (results / "other.json").write_text("{}")
"""


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "benchmarks" / "results").mkdir(parents=True)
    (tmp_path / "benchmarks" / "bf16_workflow.py").write_text(STAND_IN)
    monkeypatch.setattr(reproduce, "REPO", tmp_path)
    monkeypatch.setattr(reproduce, "RESULTS", tmp_path / "benchmarks" / "results")
    return tmp_path / "benchmarks" / "results"


def test_a_named_hour_long_benchmark_runs_with_its_arguments_and_keeps_every_run(
    stand_in: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["reproduce.py", "--runs", "3", "bf16_workflow", "--", "--task", "tatoeba"]
    monkeypatch.setattr(sys, "argv", argv)
    reproduce.main()
    runs = json.loads((stand_in / "bf16_workflow_tatoeba.runs.json").read_text())["runs"]
    assert runs == [{"args": ["--task", "tatoeba"], "seconds": s} for s in (10.0, 20.0, 30.0)]


def test_a_run_that_writes_other_results_than_the_first_is_an_error(
    stand_in: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["reproduce.py", "--runs", "2", "bf16_workflow", "--", "--task", "panx", "--extra"]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit, match=r"run 2 wrote \['bf16_workflow_panx', 'other'\]"):
        reproduce.main()
    assert not (stand_in / "bf16_workflow_panx.runs.json").exists()


def test_the_hour_long_and_own_round_benchmarks_run_only_when_named() -> None:
    default = [n for n in reproduce.SCRIPTS if n not in reproduce.OWN_ROUNDS | reproduce.HOURS]
    assert "bf16_workflow" not in default and "panx_peer" not in default
    assert "predict_throughput" in default
    # every name is a script of benchmarks/
    assert all((REPO / "benchmarks" / f"{name}.py").is_file() for name in reproduce.SCRIPTS)
