"""The project's published numbers (config/references): every one has a source, the papers'
tables as far as a readable source gives them (the rest null, printed n/s), and their lookup.
Reading and checking a file: tests/unit/test_published.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from mte.published import folder_files, load_references
from mte.tables.references import (
    cell_score,
    find_reference,
    find_references,
    published_task_score,
    unsourced_cells,
)

REFERENCES = folder_files(Path(__file__).resolve().parents[2] / "config" / "references")


def test_every_reference_number_has_its_paper_table_protocol_and_source() -> None:
    assert REFERENCES, "config/references/ holds the published numbers"
    entries = load_references(REFERENCES)
    # every row of the XLM-R paper's Tables 1-4 (MLQA: F1 and EM entries); XTREME's Table 2
    # and appendix cells as reprints give them (../shared/references/xtreme-reprints) with
    # the rest of Table 2's four zero-shot rows null; XTREME-R's template (two rows of ten
    # tasks, QA's F1 and EM apart, and each row's score)
    papers = [entry["paper"] for entry in entries]
    assert (papers.count("xlmr-paper"), papers.count("xtreme"), papers.count("xtreme-r")) == (
        39,
        38 + 29,
        2 * (10 + 3 + 1),
    )
    for entry in entries:
        assert entry["table"].startswith(("Table ", "Appendix")), entry
        assert entry["protocol"].strip() and entry["source"].strip(), entry
        for value in entry["values"].values():
            assert value is None or isinstance(cell_score(value), float)


def test_the_xlmr_papers_tables_are_complete_xtremes_partial_xtreme_rs_empty() -> None:
    """The README's account of the published side: per paper, cells entered and cells that
    hold a number (the rest printed n/s)."""
    entries = load_references(REFERENCES)

    def cells(paper: str) -> tuple[int, int]:
        mine = [e for e in entries if e["paper"] == paper]
        declared = sum(len(e["values"]) + e["has_average"] for e in mine)
        return declared - sum(len(unsourced_cells(e)) for e in mine), declared

    xlmr = cells("xlmr-paper")
    assert xlmr[0] == xlmr[1]  # complete: no null
    assert cells("xtreme") == (195, 344)
    xtreme_r = cells("xtreme-r")
    assert xtreme_r[0] == 0 and xtreme_r[1] > 0
    readme = (REFERENCES[0].parents[2] / "README.md").read_text(encoding="utf-8")
    assert "XTREME (Hu et al. 2020): 195 of its 344 cells" in " ".join(readme.split())
    outputs = (REFERENCES[0].parents[2] / "docs" / "outputs.md").read_text(encoding="utf-8")
    assert "| 195 of 344 |" in outputs


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
    # and XTREME's appendix cells, as far as a reprint gives them (no average), and
    # XTREME-R's template row, every cell null
    assert [(e["paper"], e["table"], e["average"]) for e in both] == [
        ("xlmr-paper", "Table 1", 80.9),
        ("xtreme", "Table 2", 79.2),
        ("xtreme", "Appendix", None),
        ("xtreme-r", "Table 2", None),
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
    assert xnli["average"] is None and xnli["values"]["en"] == 88.7
    # the appendix prints every language; no reprint gives Arabic's cell
    assert "ar" in xnli["values"] and xnli["values"]["ar"] is None
    assert len(xnli["values"]) == 15 and not xnli["has_average"]
    # the caution of the reprints' README: XLM-R's POS average (73.8 or 72.6) stays unsourced
    (average,) = _xtreme("xlm-roberta-large", "udpos", "seqeval_f1")
    assert average["average"] is None and average["has_average"]
    (pos,) = _xtreme("xlm-roberta-large", "udpos", "seqeval_f1", "Appendix")
    given = {lang: value for lang, value in pos["values"].items() if value is not None}
    assert given == {"en": 96.1, "hi": 76.4, "mr": 80.8, "ta": 65.2, "te": 86.6, "ur": 70.3}
    assert len(pos["values"]) == 33
    translate = [e for e in load_references(REFERENCES) if "unconfirmed" in e["table"]]
    assert {(e["model"], e["setting"]) for e in translate} == {
        ("mbert", "translate-train"),
        ("bert-large", "translate-test"),
    }
    assert all("not confirmed" in e["protocol"] for e in translate)


def test_a_task_score_is_unsourced_where_its_table_prints_it_and_none_gives_it() -> None:
    """XTREME's Table 2: XLM-R's XQuAD (F1 76.6, EM 60.8: 68.7); its BUCC cell is in the table
    and no source gives it; a task without an entry of the table: nothing."""
    entries = load_references(REFERENCES)
    table = ("xtreme", "Table 2")
    xquad = published_task_score(
        entries, "xlm-roberta-large", "xquad", "zero-shot", ("f1", "exact_match"), table
    )
    assert xquad is not None and xquad[0] == pytest.approx(68.7)
    bucc = published_task_score(entries, "xlm-roberta-large", "bucc", "zero-shot", ("f1",), table)
    assert bucc is not None and bucc[0] is None
    # mBERT's MLQA F1 is sourced, its EM not: the QA cell is unsourced
    mlqa = published_task_score(entries, "mbert", "mlqa", "zero-shot", ("f1", "exact_match"), table)
    assert mlqa is not None and mlqa[0] is None
    none = published_task_score(entries, "e5-small", "xnli", "zero-shot", ("accuracy",), table)
    assert none is None


def test_a_bar_plot_takes_the_first_entry_with_a_number_for_the_runs_languages() -> None:
    entries = load_references(REFERENCES)
    # XTREME's appendix gives XLM-R's TyDiQA for bn, en and te only: Finnish has no bar
    args = ("xlm-roberta-large", "tydiqa", "zero-shot", "f1")
    assert find_reference(entries, *args, languages=["fi"]) is None
    found = find_reference(entries, *args, languages=["fi", "te"])
    assert found is not None and found["values"]["te"] is not None
