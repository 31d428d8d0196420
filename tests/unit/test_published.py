"""Reading published numbers (mte.published): every entry checked on load, each fault one error
naming the file, line and entry; a user's file filling the project's empty cells."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mte.errors import InputError
from mte.published import load_references

CITED = {"paper": "p", "table": "Table 1", "protocol": "one run", "source": "its text"}


def _write(path: Path, *entries: dict) -> Path:
    path.write_text(yaml.safe_dump(list(entries), sort_keys=False), encoding="utf-8")
    return path


def _entry(**fields) -> dict:
    return {
        **CITED,
        "model": "m",
        "task": "xnli",
        "setting": "zero-shot",
        "metric": "accuracy",
        **fields,
    }


@pytest.mark.parametrize("missing", ["paper", "table", "protocol", "source"])
def test_a_number_without_its_citation_is_refused(tmp_path: Path, missing: str) -> None:
    entry = _entry(values={"en": 80.0})
    del entry[missing]
    path = _write(tmp_path / "refs.yaml", entry)
    with pytest.raises(InputError, match=rf"refs.yaml, line 1: entry 1 lacks {missing}"):
        load_references([path])


def test_a_mistyped_cell_breaks_the_published_average(tmp_path: Path) -> None:
    """(89.1 + 38.9) / 2 = 64.0, not 86.5: the cell 38.9 was meant as 83.9."""
    path = tmp_path / "refs.yaml"
    path.write_text(
        "- model: m\n  paper: p\n  table: Table 1\n  protocol: one run\n  source: its text\n"
        "  task: xnli\n  setting: zero-shot\n"
        "  metric: accuracy\n  values: {en: 89.1, de: 38.9}\n  average: 86.5\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"line 1: entry 1 .*cells average 64.00, not the"):
        load_references([path])
    # a slip of the paper itself passes only with its explanation
    text = path.read_text(encoding="utf-8") + "  erratum: the paper's own sum is off\n"
    path.write_text(text, encoding="utf-8")
    assert load_references([path])[0]["average"] == 86.5


def test_an_average_is_checked_only_over_a_complete_row(tmp_path: Path) -> None:
    """(80 + 70) / 2 = 75 against 75.0: within rounding; with German unsourced (null) the row
    is incomplete, and an average of 60 cannot be checked against it."""
    complete = _entry(values={"en": 80.0, "de": 70.0}, average=75.0)
    assert load_references([_write(tmp_path / "a.yaml", complete)])[0]["average"] == 75.0
    partial = _entry(values={"en": 80.0, "de": None}, average=60.0)
    (entry,) = load_references([_write(tmp_path / "b.yaml", partial)])
    assert entry["values"]["de"] is None and entry["average"] == 60.0


def test_the_error_names_the_line_of_the_entry_at_fault(tmp_path: Path) -> None:
    """The second entry starts on the file's 12th line (a comment, then 10 lines of the first
    entry): the error says so."""
    good = _entry(values={"en": 80.0})
    bad = _entry(model="other", values={"en": 80.0, "xx": 70.0})
    text = "# a comment\n" + yaml.safe_dump([good, bad], sort_keys=False)
    assert text.splitlines()[11].startswith("- paper: p")
    path = tmp_path / "refs.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_references([path])
    assert str(caught.value) == (
        f"{path}, line 12: entry 2 (p Table 1, one run, other): xx is not a language of XNLI"
    )


def test_a_language_metric_or_task_the_registry_does_not_know_is_refused(tmp_path: Path) -> None:
    cases = {
        "language": (_entry(values={"en": 80.0, "yo": 70.0}), "yo is not a language of XNLI"),
        "metric": (_entry(metric="f1", average=70.0), "XNLI does not report 'f1'"),
        "task": (_entry(task="xnli2", average=70.0), "'xnli2' is neither a task nor a suite"),
        "suite metric": (
            _entry(task="glue", metric="accuracy", average=70.0),
            "a suite's entry reports 'score', not 'accuracy'",
        ),
        "suite cell": (
            _entry(task="glue", metric="score", values={"xnli": 70.0}, average=70.0),
            "xnli is not a task of GLUE",
        ),
        "not a number": (_entry(values={"en": "80,1"}), "en is '80,1', not a number"),
    }
    for name, (entry, message) in cases.items():
        path = _write(tmp_path / f"{name}.yaml", entry)
        with pytest.raises(InputError, match=rf"line 1: .*{message}"):
            load_references([path])


def test_a_users_file_fills_the_projects_empty_cells(tmp_path: Path) -> None:
    """A template row (every cell null) and a user's entry for it: the user's numbers fill
    it, its average is checked on the merged row, and the merged entry names both sources."""
    template = _entry(values={"en": None, "de": None}, average=None, source="none readable")
    project = _write(tmp_path / "template.yaml", template)
    filled = _entry(values={"en": 80.0, "de": 70.0}, average=75.0, source="the paper, p. 4")
    user = _write(tmp_path / "mine.yaml", filled)
    (entry,) = load_references([project, user])
    assert entry["values"] == {"en": 80.0, "de": 70.0} and entry["average"] == 75.0
    assert entry["source"] == f"none readable; cells filled from {user}: the paper, p. 4"
    # one cell filled: the other stays unsourced
    some = _write(tmp_path / "some.yaml", _entry(values={"de": 70.0}, source="p. 4"))
    (entry,) = load_references([project, some])
    assert entry["values"] == {"en": None, "de": 70.0} and entry["average"] is None
    # a mistyped average is caught on the merged row, naming the user's file
    wrong = _write(tmp_path / "wrong.yaml", {**filled, "average": 57.5})
    with pytest.raises(InputError, match=r"wrong.yaml, line 1: .*cells average 75.00"):
        load_references([project, wrong])
    # another model's row is a row of its own
    other = _write(tmp_path / "other.yaml", {**filled, "model": "n"})
    assert len(load_references([project, other])) == 2


def test_one_row_twice_in_one_file_is_refused(tmp_path: Path) -> None:
    entry = _entry(values={"en": 80.0})
    path = _write(tmp_path / "refs.yaml", entry, dict(entry))
    with pytest.raises(InputError, match=r"line 11: entry 2 repeats the entry at line 1"):
        load_references([path])


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope.yaml: no such references file"):
        load_references([tmp_path / "nope.yaml"])
