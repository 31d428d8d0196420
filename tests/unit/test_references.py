"""Published numbers: every one has a source, and a mistyped cell is caught."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mte.errors import InputError
from mte.tables.references import cell_score, find_reference, find_references, load_references

REFERENCES = sorted((Path(__file__).resolve().parents[2] / "config" / "references").glob("*.yaml"))


def test_every_reference_number_has_its_paper_table_protocol_and_source() -> None:
    assert REFERENCES, "config/references/ holds the published numbers"
    entries = load_references(REFERENCES)
    # every row of the XLM-R paper's Tables 1-4 (MLQA: F1 and EM entries), and XTREME's Table 2
    # and appendix cells as reprints give them (../shared/references/xtreme-reprints)
    assert len(entries) == 39 + 38
    for entry in entries:
        assert entry["paper"] in ("xlmr-paper", "xtreme"), entry
        assert entry["table"].startswith(("Table ", "Appendix")), entry
        assert entry["protocol"].strip() and entry["source"].strip(), entry
        assert all(isinstance(cell_score(v), float) for v in entry["values"].values())


@pytest.mark.parametrize("missing", ["paper", "table", "protocol", "source"])
def test_a_number_without_its_citation_is_refused(tmp_path: Path, missing: str) -> None:
    entry = {
        "paper": "p", "table": "Table 1", "protocol": "one run", "source": "its text",
        "model": "m", "task": "xnli", "setting": "zero-shot", "metric": "accuracy",
        "values": {"en": 80.0},
    }  # fmt: skip
    del entry[missing]
    path = tmp_path / "refs.yaml"
    path.write_text(yaml.safe_dump([entry]), encoding="utf-8")
    with pytest.raises(InputError, match=rf"refs.yaml: entry 1 lacks {missing}"):
        load_references([path])


CITED = "  paper: p\n  table: Table 1\n  protocol: one run\n  source: its text\n"


def test_a_mistyped_cell_breaks_the_published_average(tmp_path: Path) -> None:
    path = tmp_path / "refs.yaml"
    path.write_text(
        "- model: m\n" + CITED + "  task: xnli\n  setting: zero-shot\n"
        "  metric: accuracy\n  values: {en: 89.1, de: 38.9}\n  average: 86.5\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"cells average 64.00, not the published 86.5"):
        load_references([path])
    # a slip of the paper itself passes only with its explanation
    text = path.read_text(encoding="utf-8") + "  erratum: the paper's own sum is off\n"
    path.write_text(text, encoding="utf-8")
    assert load_references([path])[0]["average"] == 86.5


def test_the_xlmr_glue_average_is_over_its_six_tasks() -> None:
    """Table 4: (88.9 + 93.8 + 92.3 + 95.0 + 89.5 + 91.2) / 6 = 91.78, printed 91.8; MNLI-mm
    (89.0) is beside its matched half, not a seventh task."""
    entries = load_references(REFERENCES)
    (glue,) = [e for e in entries if e["task"] == "glue" and e["model"] == "xlm-roberta-large"]
    assert glue["average"] == 91.8 and glue["values"]["mnli_mm"] == 89.0
    assert "mnli_mm" not in glue["average_of"]


def test_qa_cells_score_the_mean_of_f1_and_em() -> None:
    assert cell_score([76.6, 60.8]) == pytest.approx(68.7)
    assert cell_score(79.2) == 79.2


def test_lookup_by_model_task_setting_metric_finds_both_papers() -> None:
    entries = load_references(REFERENCES)
    found = find_reference(entries, "xlm-roberta-large", "xnli", "zero-shot", "accuracy")
    assert found is not None and found["values"]["en"] == 89.1
    assert find_reference(entries, "xlm-roberta-large", "xnli", "in-language", "accuracy") is None
    both = find_references(entries, "xlm-roberta-large", "xnli", "zero-shot", "accuracy")
    # and XTREME's appendix cells, as far as a reprint gives them: no average
    assert [(e["paper"], e["average"]) for e in both] == [
        ("xlmr-paper", 80.9),
        ("xtreme", 79.2),
        ("xtreme", None),
    ]


def _xtreme(model: str, task: str, metric: str, table: str = "Table 2") -> list[dict]:
    entries = load_references(REFERENCES)
    return [
        e
        for e in entries
        if (e["paper"], e["table"], e["model"], e["task"], e["metric"])
        == ("xtreme", table, model, task, metric)
    ]


def test_xtremes_reprinted_cells_each_name_their_reprint() -> None:
    """XQuAD and PAWS-X per language with Table 2's average (the loader checks their mean:
    XLM-R XQuAD F1 (86.5 + 68.6 + 80.4 + 79.8 + 82.0 + 76.7 + 80.1 + 74.2 + 75.9 + 79.1 + 59.3)
    / 11 = 76.6); the exact-match halves the summary's QA cells need; partial appendix rows
    without an average; the XQuAD README's translate rows kept out of Table 2."""
    (xquad,) = _xtreme("xlm-roberta-large", "xquad", "f1")
    assert xquad["average"] == 76.6 and len(xquad["values"]) == 11 and xquad["values"]["th"] == 74.2
    assert "google-deepmind/xquad" in xquad["source"] and "4889992f" in xquad["source"]
    (em,) = _xtreme("xlm-roberta-large", "xquad", "exact_match")
    assert em["average"] == 60.8
    assert cell_score([xquad["average"], em["average"]]) == pytest.approx(68.7)
    (paws,) = _xtreme("mmte", "pawsx", "accuracy")
    assert paws["average"] == 81.3 and "PaddlePaddle/ERNIE" in paws["source"]
    (mlqa_em,) = _xtreme("xlm-roberta-large", "mlqa", "exact_match")
    assert mlqa_em["average"] == 53.2 and "RemBERT" in mlqa_em["source"]
    (xnli,) = _xtreme("xlm-roberta-large", "xnli", "accuracy", "Appendix")
    assert xnli["average"] is None and xnli["values"]["en"] == 88.7 and "ar" not in xnli["values"]
    # the caution of the reprints' README: XLM-R's POS average (73.8 or 72.6) stays empty
    assert _xtreme("xlm-roberta-large", "udpos", "seqeval_f1") == []
    (pos,) = _xtreme("xlm-roberta-large", "udpos", "seqeval_f1", "Appendix")
    assert pos["values"] == {"en": 96.1, "hi": 76.4, "mr": 80.8, "ta": 65.2, "te": 86.6, "ur": 70.3}
    translate = [e for e in load_references(REFERENCES) if "unconfirmed" in e["table"]]
    assert {(e["model"], e["setting"]) for e in translate} == {
        ("mbert", "translate-train"),
        ("bert-large", "translate-test"),
    }
    assert all("not confirmed" in e["protocol"] for e in translate)
