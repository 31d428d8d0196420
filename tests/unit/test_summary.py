"""The XTREME summary, published rows and LaTeX, against hand-computed values."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from mte.registry import TASKS, get_suite
from mte.steps.summary import (
    summary_markdown,
    summary_with_references,
    task_score_table,
    transfer_gap,
)
from mte.tables.published_rows import with_references
from mte.tables.task_table import task_table
from tests.unit.test_tables import to_latex, to_markdown


def _score(task: str, language: str, seed: int = 1, model: str = "m", **metrics: float) -> dict:
    return {
        "model": model, "setting": "zero-shot", "seed": seed, "task": task,
        "language": language, "metrics": metrics,
    }  # fmt: skip


XTREME = get_suite("xtreme_summary")
XNLI_ALL = TASKS["xnli"].languages

SCORES = [
    _score("xnli", "en", accuracy=0.8),
    _score("xnli", "de", accuracy=0.6),
    _score("xnli", "es", accuracy=0.7),
    _score("xquad", "en", f1=0.6, exact_match=0.4),
    _score("xquad", "de", f1=0.5, exact_match=0.3),
    _score("tatoeba", "de", accuracy=0.9, error_rate=0.1, accuracy_en_to_xx=0.9),
    _score("tatoeba", "fr", accuracy=0.7, error_rate=0.3, accuracy_en_to_xx=0.7),
]


def test_summary_by_hand() -> None:
    row = task_score_table(SCORES, ["xnli", "xquad", "tatoeba"]).iloc[0]
    # XNLI (80 + 60 + 70) / 3 = 70; XQuAD en (60+40)/2 = 50, de (50+30)/2 = 40 -> 45;
    # Tatoeba (90 + 70) / 2 = 80; mean over tasks (70 + 45 + 80) / 3 = 65
    assert row["xnli"] == pytest.approx(70.0)
    assert row["xquad"] == pytest.approx(45.0)
    assert row["tatoeba"] == pytest.approx(80.0)
    assert row["avg"] == pytest.approx(65.0)
    # gaps: XNLI 80 - (60 + 70)/2 = 15; XQuAD 50 - 40 = 10; Tatoeba has no English: none
    assert row["gap_xnli"] == pytest.approx(15.0)
    assert row["gap_xquad"] == pytest.approx(10.0)
    assert pd.isna(row["gap_tatoeba"])


def _with_replicates(score: dict, metric: str, replicates: list[float]) -> dict:
    """A score file's interval as the score rule writes it: the stored replicates of its
    interval's metric, at confidence 0.5 (the quartiles: easy by hand)."""
    interval = {"metric": metric, "replicates": replicates, "confidence": 0.5}
    return {**score, "interval": {**interval, "seed": 1, "resamples": len(replicates)}}


def test_summary_intervals_average_the_replicates_as_the_scores_are_averaged() -> None:
    """Four resamples per score file. XNLI: en [.7 .8 .9 .6], de [.5 .6 .5 .4] -> the task's
    replicates 100 * the mean per resample: [60 70 70 50]; its quartiles (numpy's linear
    interpolation over [50 60 70 70]): 57.5 and 70. PAWS-X en [.9 .9 .8 .8] -> [80 80 90 90]:
    80 and 90. The average's replicates [75 80 75 65] -> [65 75 75 80]: 72.5 and 76.25."""
    scores = [
        _with_replicates(_score("xnli", "en", accuracy=0.75), "accuracy", [0.7, 0.8, 0.9, 0.6]),
        _with_replicates(_score("xnli", "de", accuracy=0.5), "accuracy", [0.5, 0.6, 0.5, 0.4]),
        _with_replicates(_score("pawsx", "en", accuracy=0.85), "accuracy", [0.9, 0.9, 0.8, 0.8]),
    ]
    row = task_score_table(scores, ["xnli", "pawsx"]).iloc[0]
    assert (row["xnli_low"], row["xnli_high"]) == (pytest.approx(57.5), pytest.approx(70.0))
    assert (row["pawsx_low"], row["pawsx_high"]) == (pytest.approx(80.0), pytest.approx(90.0))
    assert (row["avg_low"], row["avg_high"]) == (pytest.approx(72.5), pytest.approx(76.25))
    printed = summary_markdown(task_score_table(scores, ["xnli", "pawsx"]), ["xnli", "pawsx"],
                               XTREME)  # fmt: skip
    # XNLI (75 + 50) / 2 = 62.5, PAWS-X 85, the average 73.75
    assert (
        "| m | zero-shot | 62.5 [57.5, 70.0] | 85.0 [80.0, 90.0] | 73.8 [72.5, 76.2] |" in printed
    )
    # a score file without replicates: that task and the average have no interval
    bare = [scores[0], scores[1], _score("pawsx", "en", accuracy=0.85)]
    row = task_score_table(bare, ["xnli", "pawsx"]).iloc[0]
    assert row["xnli_low"] == pytest.approx(57.5)
    assert pd.isna(row["pawsx_low"]) and pd.isna(row["avg_low"])


def test_ud_pos_enters_the_summary_with_seqeval_f1_as_xtremes_evaluate_py_scores_it() -> None:
    """XTREME's evaluate.py scores udpos with seqeval's f1 (METRIC_FUNCTION), its mean over
    languages being the task's score; token accuracy stays the task table's primary metric."""
    scores = [
        _score("udpos", "en", accuracy=0.95, seqeval_f1=0.90),
        _score("udpos", "de", accuracy=0.85, seqeval_f1=0.70),
    ]
    row = task_score_table(scores, ["udpos"]).iloc[0]
    assert row["udpos"] == pytest.approx(80.0)  # (90 + 70) / 2, not (95 + 85) / 2
    assert row["gap_udpos"] == pytest.approx(20.0)


def test_transfer_gap_needs_english_and_another_language() -> None:
    assert transfer_gap({"en": 90.0, "de": 80.0, "fr": 70.0}) == pytest.approx(15.0)
    assert transfer_gap({"en": 90.0}) is None
    assert transfer_gap({"de": 80.0, "fr": 70.0}) is None


def test_seeds_average_per_seed_then_over_seeds() -> None:
    scores = [
        _score("xnli", "en", seed=1, accuracy=0.80),
        _score("xnli", "de", seed=1, accuracy=0.60),
        _score("xnli", "en", seed=2, accuracy=0.70),
        _score("xnli", "de", seed=2, accuracy=0.70),
    ]
    row = task_score_table(scores, ["xnli"]).iloc[0]
    # seed 1: 70, seed 2: 70 -> 70; gap from the seed means: en 75 - de 65 = 10
    assert row["xnli"] == pytest.approx(70.0) and row["seeds"] == 2
    assert row["gap_xnli"] == pytest.approx(10.0)
    table = task_table(scores, ["en", "de"], "accuracy").iloc[0]
    # per language over seeds: en mean 75, sample std sqrt(((80-75)^2 + (70-75)^2) / 1) = 7.07
    assert table["en"] == pytest.approx(75.0)
    assert table["en_std"] == pytest.approx(50**0.5)
    assert table["avg_std"] == pytest.approx(0.0)


def _cited(**entry) -> dict:
    """An entry as the loader leaves it (mte.tables.references.check_reference)."""
    from mte.tables.references import check_reference

    cited = {"protocol": "one run", "source": "its text", "setting": "zero-shot", **entry}
    return check_reference(cited, "refs.yaml", 0)


def test_published_and_delta_rows() -> None:
    references = [
        _cited(paper="paper", table="Table 1", model="m", task="xnli", metric="accuracy",
               values={"en": 85.0, "de": 70.0}),
        # XTREME's task scores: averages only; QA as (F1 + EM) / 2
        _cited(paper="xtreme", table="Table 2", model="m", task="xnli", metric="accuracy",
               values={}, average=75.0),
        _cited(paper="xtreme", table="Table 2", model="m", task="xquad", metric="f1",
               values={}, average=60.0),
        _cited(paper="xtreme", table="Table 2", model="m", task="xquad", metric="exact_match",
               values={}, average=40.0),
    ]  # fmt: skip
    table = task_table(SCORES[:3], ["en", "de", "es"], "accuracy")
    rows = with_references(
        table, references, "xnli", ["en", "de", "es"], {"": "accuracy"}, XNLI_ALL
    )
    # XTREME's average is over all 15 XNLI languages, this table's over three: printed, with
    # no delta, and labelled so
    assert list(rows["row"]) == ["ours", *["published", "ours - published"] * 2]
    xtreme, xtreme_delta = rows.iloc[3], rows.iloc[4]
    assert xtreme["reference"] == "xtreme Table 2, one run (avg over all 15 languages)"
    assert xtreme["avg"] == 75.0 and pd.isna(xtreme_delta["avg"])
    published, delta = rows.iloc[1], rows.iloc[2]
    assert published["reference"] == "paper Table 1, one run"
    assert published["en"] == 85.0 and pd.isna(published["es"]) and pd.isna(published["avg"])
    assert delta["en"] == pytest.approx(-5.0) and delta["de"] == pytest.approx(-10.0)
    markdown = to_markdown(rows, ["en", "de", "es"], "XNLI")
    assert "| m | zero-shot (ours - published: paper Table 1, one run) | -5.0 | -10.0 |" in markdown
    summary = summary_with_references(
        task_score_table(SCORES[:5], ["xnli", "xquad"]), references, ["xnli", "xquad"], XTREME
    )
    # published XQuAD (60 + 40) / 2 = 50; average (75 + 50) / 2 = 62.5; ours (70 + 45) / 2
    assert summary.iloc[1]["xquad"] == pytest.approx(50.0)
    assert summary.iloc[2]["avg"] == pytest.approx(57.5 - 62.5)
    assert "Cross-lingual transfer gap" in summary_markdown(summary, ["xnli", "xquad"], XTREME)


def test_a_published_cell_no_source_gives_reads_n_s_not_a_blank() -> None:
    """A paper's row whose German cell and average are null (the paper prints them, no
    readable source gives them) and which lacks Spanish (not in its table): n/s, a dash, and
    the note saying which is which; the summary's task cell the same, and its average with it."""
    references = [
        _cited(paper="p", table="Table 1", model="m", task="xnli", metric="accuracy",
               values={"en": 85.0, "de": None}, average=None),
        _cited(paper="xtreme", table="Table 2", model="m", task="xnli", metric="accuracy",
               average=75.0),
        _cited(paper="xtreme", table="Table 2", model="m", task="xquad", metric="f1",
               average=None),
        _cited(paper="xtreme", table="Table 2", model="m", task="xquad", metric="exact_match",
               average=40.0),
    ]  # fmt: skip
    table = task_table(SCORES[:3], ["en", "de", "es"], "accuracy")
    rows = with_references(table, references[:1], "xnli", ["en", "de", "es"], {"": "accuracy"},
                           XNLI_ALL)  # fmt: skip
    published = rows.iloc[1]
    assert published["unsourced"] == "de" and pd.isna(published["de"])
    markdown = to_markdown(rows, ["en", "de", "es"], "XNLI")
    assert "| m | zero-shot (published: p Table 1, one run) | 85.0 | n/s | – | – |" in markdown
    assert "n/s: the paper prints this cell, but no source readable here gives it" in markdown
    assert "–: not in that published table" in markdown
    # over en and de only, the paper's row covers every language of the table: its average
    # is unsourced too
    two = with_references(task_table(SCORES[:2], ["en", "de"], "accuracy"), references[:1],
                          "xnli", ["en", "de"], {"": "accuracy"}, XNLI_ALL)  # fmt: skip
    assert two.iloc[1]["unsourced"] == "de; avg"
    summary = summary_with_references(
        task_score_table(SCORES[:5], ["xnli", "xquad"]), references, ["xnli", "xquad"], XTREME
    )
    xtreme = summary.iloc[1]
    assert xtreme["xnli"] == 75.0 and pd.isna(xtreme["xquad"])
    assert xtreme["unsourced"] == "xquad; avg"
    printed = summary_markdown(summary, ["xnli", "xquad"], XTREME)
    assert "| m | zero-shot (published: xtreme Table 2, one run) | 75.0 | n/s | n/s |" in printed
    assert "n/s: the paper prints this cell" in printed


def test_two_papers_publishing_one_cell_give_two_labelled_rows() -> None:
    """XLM-R large XNLI: 80.9 in the XLM-R paper (five seeds), 79.2 in XTREME (one run); a
    table over all 15 languages shows both, each with its own delta."""
    from mte.registry import TASKS

    languages = list(TASKS["xnli"].languages)
    scores = [
        {"model": "m", "setting": "zero-shot", "seed": 1, "task": "xnli", "language": lang,
         "metrics": {"accuracy": 0.8}, "n": 10}
        for lang in languages
    ]  # fmt: skip
    references = [
        _cited(paper="xlmr-paper", table="Table 1", model="m", task="xnli", metric="accuracy",
               protocol="mean of 5 seeds", values={lang: 81.0 for lang in languages}),
        _cited(paper="xtreme", table="Table 2", model="m", task="xnli", metric="accuracy",
               values={}, average=79.2),
    ]  # fmt: skip
    table = task_table(scores, languages, "accuracy")
    rows = with_references(table, references, "xnli", languages, {"": "accuracy"}, XNLI_ALL)
    assert list(rows["row"]) == ["ours", *["published", "ours - published"] * 2]
    assert list(rows["reference"].iloc[1::2]) == [
        "xlmr-paper Table 1, mean of 5 seeds",
        "xtreme Table 2, one run",
    ]
    assert rows.iloc[1]["avg"] == pytest.approx(81.0) and rows.iloc[3]["avg"] == 79.2
    assert rows.iloc[4]["avg"] == pytest.approx(0.8) and pd.isna(rows.iloc[3]["en"])


def test_latex_booktabs_table(tmp_path: Path) -> None:
    table = task_table(SCORES[:3], ["en", "de", "es"], "accuracy")
    rows = with_references(table, [], "xnli", ["en", "de", "es"], {"": "accuracy"}, XNLI_ALL)
    latex = to_latex(rows, ["en", "de", "es"], "XNLI accuracy (%)")
    assert r"\toprule" in latex and r"\midrule" in latex and r"\bottomrule" in latex
    assert r"m & zero-shot & 80.0 & 60.0 & 70.0 & 70.0 \\" in latex
    assert r"\caption{XNLI accuracy (\%)}" in latex
    pdflatex = shutil.which("pdflatex")
    if pdflatex is None:
        pytest.skip("no TeX installation (pdflatex) on this machine: the table was not compiled")
    document = tmp_path / "table.tex"
    document.write_text(
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
        + latex + "\\end{document}\n"
    )  # fmt: skip
    done = subprocess.run(
        [pdflatex, "-interaction=nonstopmode", document.name],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:]


def test_a_setting_not_every_task_runs_has_no_row() -> None:

    def score(task: str, setting: str, language: str, value: float) -> dict:
        return {
            "model": "m", "setting": setting, "seed": 1, "task": task, "language": language,
            "metrics": {"accuracy": value},
        }  # fmt: skip

    scores = [
        score("xnli", "zero-shot", "en", 0.8),
        score("xnli", "zero-shot", "de", 0.6),
        score("pawsx", "zero-shot", "en", 0.9),
        score("pawsx", "zero-shot", "de", 0.7),
        # translate-train for XNLI only: no XTREME average for it
        score("xnli", "translate-train", "en", 0.8),
        score("xnli", "translate-train", "de", 0.7),
    ]
    table = task_score_table(scores, ["xnli", "pawsx"])
    assert list(table["setting"]) == ["zero-shot"]
    # (70 + 80) / 2
    assert table.loc[0, "avg"] == pytest.approx(75.0)
    with pytest.raises(ValueError, match="no model and setting has scores for every task"):
        task_score_table(scores[4:], ["xnli", "pawsx"])


def test_a_summary_without_all_nine_tasks_says_what_it_averages() -> None:
    from mte.steps.summary import summary_title

    markdown = summary_markdown(
        task_score_table(SCORES[:5], ["xnli", "xquad"]), ["xnli", "xquad"], XTREME
    )
    first = markdown.splitlines()[0]
    assert first.startswith("# Partial XTREME summary: the average is over 2 of XTREME's 9 tasks")
    assert "(xnli, xquad); missing: pawsx, udpos, panx, mlqa, tydiqa, bucc, tatoeba" in first
    assert (
        summary_title(list(XTREME.tasks), XTREME)
        == "XTREME summary (QA: (F1 + EM) / 2; UD-POS: seqeval F1; %)"
    )


XTREME_R = get_suite("xtreme_r")
# google-research/xtreme master evaluate.py XTREME_R_TASK2LANGS (l. 160-176), copied from it
EVALUATE_PY_XTREME_R = {
    "xnli": "ar,bg,de,el,en,es,fr,hi,ru,sw,th,tr,ur,vi,zh",
    "panx": "ar,he,vi,id,jv,ms,tl,eu,ml,ta,te,af,nl,en,de,el,bn,hi,mr,ur,fa,fr,it,pt,es,bg,ru,"
    "ja,ka,ko,th,sw,yo,my,zh,kk,tr,et,fi,hu,qu,pl,uk,az,lt,pa,gu,ro",
    "udpos": "af,ar,bg,de,el,en,es,et,eu,fa,fi,fr,he,hi,hu,id,it,ja,kk,ko,mr,nl,pt,ru,ta,te,th,"
    "tl,tr,ur,vi,yo,zh,lt,pl,uk,wo,ro",
    "tatoeba": "ar,he,vi,id,jv,tl,eu,ml,ta,te,af,nl,de,el,bn,hi,mr,ur,fa,fr,it,pt,es,bg,ru,ja,"
    "ka,ko,th,sw,zh,kk,tr,et,fi,hu,az,lt,pl,uk,ro",
    "xcopa": "et,ht,id,it,qu,sw,ta,th,tr,vi,zh",
    "mewslix": "ar,de,en,es,fa,ja,pl,ro,ta,tr,uk",
    "xquad": "en,es,de,el,ru,tr,ar,vi,th,zh,hi,ro",
    "mlqa": "en,es,de,ar,hi,vi,zh",
    "tydiqa": "en,ar,bn,fi,id,ko,ru,sw,te",
}


def test_the_xtreme_r_suite_has_evaluate_pys_tasks_and_languages() -> None:
    assert set(XTREME_R.tasks) == {*EVALUATE_PY_XTREME_R, "lareqa"}
    for task, languages in EVALUATE_PY_XTREME_R.items():
        assert set(XTREME_R.task_languages(TASKS[task])) == set(languages.split(",")), task
    # evaluate.py lists none for LAReQA (it cannot score it): XQuAD-R's 11
    assert len(XTREME_R.task_languages(TASKS["lareqa"])) == 11


def test_group_scores_are_the_means_of_their_tasks_and_only_where_all_run() -> None:
    groups = XTREME_R.groups
    scores = [
        _score("xnli", "en", accuracy=0.8),
        _score("xcopa", "et", accuracy=0.6),
        _score("mewslix", "en", map_at_20=0.3),
        _score("lareqa", "en", map_at_20=0.5),
    ]
    row = task_score_table(scores, ["xnli", "xcopa", "mewslix", "lareqa"], groups).iloc[0]
    # classification (80 + 60) / 2 = 70; multiple choice XCOPA's 60; retrieval lacks Tatoeba
    assert row["classification"] == pytest.approx(70.0)
    assert row["multi_choice"] == pytest.approx(60.0)
    assert "retrieval" not in row and "tagging" not in row
    # the average is over the four tasks run: (80 + 60 + 30 + 50) / 4
    assert row["avg"] == pytest.approx(55.0)


def test_a_task_on_fewer_languages_than_the_papers_is_marked_and_not_compared() -> None:
    """XNLI over en, de, es (3 of XTREME's 15): our cell says "(3 of 15)", and against XTREME's
    75.0 (its average over all 15) there is no delta, nor for the average over it."""
    from mte.steps.summary import differing_languages, task_score_suite

    assert differing_languages(SCORES[:3], ["xnli"], XTREME) == {"xnli": (3, 15, 0)}
    references = [_cited(paper="xtreme", table="Table 2", model="m", task="xnli",
                         metric="accuracy", average=75.0)]  # fmt: skip
    tables = task_score_suite(XTREME, ["xnli"], SCORES[:3], references)
    assert "| m | zero-shot | 70.0 (3 of 15) | 70.0 |" in tables["md"]
    assert "(n of N): the mean over n of XTREME's N languages for the task" in tables["md"]
    csv = pd.read_csv(io.StringIO(tables["csv"]))
    published, delta = csv.iloc[1], csv.iloc[2]
    assert published["xnli"] == 75.0 and pd.isna(delta["xnli"]) and pd.isna(delta["avg"])
    # the LaTeX carries the same cells and notes
    assert "70.0 (3 of 15)" in tables["tex"]


def test_a_suite_table_says_which_tasks_ran_other_languages_than_the_suites() -> None:
    from mte.steps.summary import other_languages, summary_title

    scores = [_score("xquad", "en", f1=0.5, exact_match=0.5), _score("lareqa", "en", map_at_20=0.1)]
    found = other_languages(scores, ["xquad", "lareqa"], XTREME_R)
    assert found == "xquad over 1 of its 12; lareqa over 1 of its 11"
    title = summary_title(["xquad", "lareqa"], XTREME_R, found)
    assert title.startswith("Partial XTREME-R summary: the average is over 2 of XTREME-R's 10")
    assert "not XTREME-R's languages: xquad over 1 of its 12" in title
    # the default languages of XTREME's XQuAD are XTREME's 11: nothing to say
    xquad = [_score("xquad", lang, f1=0.5, exact_match=0.5) for lang in TASKS["xquad"].languages]
    assert other_languages(xquad, ["xquad"], XTREME) == ""


def test_the_xtreme_r_table_is_written_for_configs_that_opt_in() -> None:
    # XNLI and MLQA alone (the XLM-R paper's config): XTREME's partial summary, not XTREME-R's
    xlmr = {"xnli": {"source": "hub"}, "mlqa": {"source": "hub"}}
    assert XTREME.configured(xlmr) == ["xnli", "mlqa"]
    assert XTREME_R.configured(xlmr) == []
    # a task only XTREME-R has, or XTREME-R's languages for a task
    assert XTREME_R.configured({**xlmr, "lareqa": {}}) == ["xnli", "mlqa", "lareqa"]
    assert XTREME_R.configured({"panx": {"languages": "xtreme_r"}}) == ["panx"]
