"""Published numbers: every one has a source, and a mistyped cell is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from mte.errors import InputError
from mte.references import cell_score, find_reference, load_references

REFERENCES = sorted((Path(__file__).resolve().parents[2] / "config" / "references").glob("*.yaml"))


def test_every_reference_number_has_a_source() -> None:
    assert REFERENCES, "config/references/ holds the published numbers"
    entries = load_references(REFERENCES)
    assert len(entries) >= 6
    for entry in entries:
        assert entry["source"].strip(), entry
        # a source names the paper and its table
        assert "Table" in entry["source"] and "20" in entry["source"], entry["source"]
        assert all(isinstance(cell_score(v), float) for v in entry["values"].values())


def test_a_number_without_source_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "refs.yaml"
    path.write_text(
        "- {model: m, task: xnli, setting: zero-shot, metric: accuracy, values: {en: 80.0}}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"refs.yaml: entry 1 lacks source"):
        load_references([path])


def test_a_mistyped_cell_breaks_the_published_average(tmp_path: Path) -> None:
    path = tmp_path / "refs.yaml"
    path.write_text(
        "- source: Paper, Table 1\n  model: m\n  task: xnli\n  setting: zero-shot\n"
        "  metric: accuracy\n  values: {en: 89.1, de: 38.9}\n  average: 86.5\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"cells average 64.00, not the published 86.5"):
        load_references([path])


def test_qa_cells_score_the_mean_of_f1_and_em() -> None:
    assert cell_score([76.6, 60.8]) == pytest.approx(68.7)
    assert cell_score(79.2) == 79.2


def test_lookup_by_model_task_setting_metric() -> None:
    entries = load_references(REFERENCES)
    found = find_reference(entries, "xlm-roberta-large", "xnli", "zero-shot", "accuracy")
    assert found is not None and found["values"]["en"] == 89.1
    assert find_reference(entries, "xlm-roberta-large", "xnli", "in-language", "accuracy") is None
