"""mte-report: the report of any config's run, where the run's tables are."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mte.commands.report import CHECKOUT, main, report_path, snakemake_command


def test_the_report_goes_to_the_runs_folder_of_the_config(tmp_path: Path) -> None:
    xtreme = str(CHECKOUT / "config" / "xtreme.yaml")
    assert report_path(tmp_path, [], []) == tmp_path / "results/runs/default/report.html"
    assert report_path(tmp_path, [xtreme], []) == tmp_path / "results/runs/xtreme/report.html"
    # the config's own run name, a --config override, the one-model shorthand
    named = tmp_path / "named.yaml"
    named.write_text(yaml.safe_dump({"run": "mine"}), encoding="utf-8")
    assert report_path(tmp_path, [xtreme, str(named)], []).parent.name == "mine"
    assert report_path(tmp_path, [xtreme], ["run=other"]).parent.name == "other"
    shorthand = report_path(tmp_path, [xtreme], ["model=FacebookAI/xlm-roberta-base"])
    assert shorthand.parent.name == "xtreme-xlm-roberta-base"


def test_the_command_asks_snakemake_with_the_projects_stylesheet(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    command = snakemake_command(tmp_path, ["a.yaml", "b.yaml"], ["seeds=[1]"], out)
    assert command[command.index("--configfile") + 1 : command.index("--config")] == [
        "a.yaml",
        "b.yaml",
    ]
    assert command[-4:] == [
        "--report",
        str(out),
        "--report-stylesheet",
        str(CHECKOUT / "workflow" / "report" / "report.css"),
    ]
    assert (CHECKOUT / "workflow" / "report" / "report.css").is_file()


def test_a_run_not_yet_made_is_named(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["--directory", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert "results/runs/default holds no finished run (scores.csv is missing)" in error
