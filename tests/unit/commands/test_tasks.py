"""mte-tasks: the tasks a config may name, their languages as the specs and suites give them."""

from __future__ import annotations

import json

import pytest

from mte.commands.tasks import main
from mte.registry import TASKS


def test_every_task_is_listed_with_its_papers_languages(capsys: pytest.CaptureFixture) -> None:
    assert main(["--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["task"] for r in records] == list(TASKS)
    by_name = {r["task"]: r for r in records}
    # XTREME's 15 XNLI languages, English first; the demo among its sources
    assert by_name["xnli"]["languages"][0] == "en" and len(by_name["xnli"]["languages"]) == 15
    assert "demo" in by_name["xnli"]["sources"] and "hub" in by_name["xnli"]["sources"]
    # PAN-X: XTREME's 40, and the 48 of its release (languages: all)
    assert (len(by_name["panx"]["languages"]), len(by_name["panx"]["all_languages"])) == (40, 48)
    # Mewsli-X has no URL: files only
    assert by_name["mewslix"]["sources"] == ["files"]
    assert (
        by_name["squad"]["training_set_only"]
        and by_name["xquad"]["evaluates_the_fine_tunes_of"] == "squad"
    )


def test_a_suite_lists_its_tasks_with_its_own_languages(capsys: pytest.CaptureFixture) -> None:
    """XTREME-R scores PAN-X on 48 languages, UD-POS on 38, XQuAD on 12 (its evaluate.py)."""
    assert main(["--suite", "xtreme_r"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("XTREME-R summary: 10 tasks")
    assert "48 languages: " in text and "38 languages: " in text and "12 languages: " in text
    assert main(["--suite", "xtreme_r", "--json", "xquad"]) == 0
    (xquad,) = json.loads(capsys.readouterr().out)
    assert "ro" in xquad["languages"] and len(xquad["languages"]) == 12


def test_an_unknown_task_says_what_was_meant(capsys: pytest.CaptureFixture) -> None:
    assert main(["nli"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("mte-tasks: unknown task 'nli'; did you mean 'xnli'?")
