"""The XNLI table from synthetic score files, against values worked out by hand."""

from __future__ import annotations

import pytest

from mte.tables.render import (
    Cell,
    Document,
    Grid,
    html,
    latex,
    markdown,
    pair_matrix_document,
    task_document,
)
from mte.tables.task_table import task_table


def to_markdown(table, *args, **options) -> str:
    """A task's table in Markdown, as the aggregate rule writes it."""
    return markdown(task_document(table, *args, **options))


def to_latex(table, *args, **options) -> str:
    return latex(task_document(table, *args, **options))


def _score(model: str, seed: int, language: str, value: float) -> dict:
    return {
        "model": model,
        "setting": "zero-shot",
        "seed": seed,
        "language": language,
        "metrics": {"accuracy": value},
    }


def test_one_seed_average_in_percent() -> None:
    scores = [_score("m", 1, "en", 0.80), _score("m", 1, "de", 0.70), _score("m", 1, "zh", 0.60)]
    table = task_table(scores, ["en", "de", "zh"], "accuracy")
    row = table.iloc[0]
    assert list(table.columns) == ["model", "setting", "seeds", "en", "de", "zh", "avg"]
    assert (row["en"], row["de"], row["zh"]) == pytest.approx((80.0, 70.0, 60.0))
    assert row["avg"] == pytest.approx(70.0)
    assert "| m | zero-shot | 80.0 | 70.0 | 60.0 | 70.0 |" in to_markdown(
        table, ["en", "de", "zh"], "T"
    )


def test_two_seeds_mean_and_sample_std() -> None:
    scores = [
        _score("m", 1, "en", 0.80),
        _score("m", 1, "de", 0.60),
        _score("m", 2, "en", 0.90),
        _score("m", 2, "de", 0.70),
    ]
    row = task_table(scores, ["en", "de"], "accuracy").iloc[0]
    # en: mean(80, 90) = 85, sample std = sqrt(((80-85)^2 + (90-85)^2) / 1) = 7.0711
    assert row["seeds"] == 2
    assert row["en"] == pytest.approx(85.0)
    assert row["en_std"] == pytest.approx(7.0710678)
    # per-seed averages 70 and 80: mean 75, std 7.0711
    assert row["avg"] == pytest.approx(75.0)
    assert row["avg_std"] == pytest.approx(7.0710678)


def test_missing_language_is_an_error() -> None:
    with pytest.raises(ValueError, match="no score for language"):
        task_table([_score("m", 1, "en", 0.5)], ["en", "de"], "accuracy")


def test_rows_keep_the_config_order() -> None:
    scores = [
        {**_score("b", 1, "en", 0.5), "setting": "zero-shot"},
        {**_score("b", 1, "en", 0.6), "setting": "in-language"},
        {**_score("a", 1, "en", 0.7), "setting": "zero-shot"},
    ]
    table = task_table(scores, ["en"], "accuracy")
    assert list(zip(table["model"], table["setting"], strict=True)) == [
        ("b", "zero-shot"),
        ("b", "in-language"),
        ("a", "zero-shot"),
    ]
    assert list(table["en"]) == pytest.approx([50.0, 60.0, 70.0])


def test_qa_cells_read_f1_slash_em() -> None:
    from mte.tables.task_table import with_second_metric

    scores = [
        {**_score("m", 1, "en", 0.0), "metrics": {"f1": 0.80, "exact_match": 0.70}},
        {**_score("m", 1, "de", 0.0), "metrics": {"f1": 0.60, "exact_match": 0.40}},
    ]
    table = task_table(scores, ["en", "de"], "f1")
    table = with_second_metric(table, task_table(scores, ["en", "de"], "exact_match"), "em")
    assert table.loc[0, "avg"] == pytest.approx(70.0)
    assert table.loc[0, "avg_em"] == pytest.approx(55.0)
    markdown = to_markdown(table, ["en", "de"], "MLQA", "em")
    assert "| m | zero-shot | 80.0 / 70.0 | 60.0 / 40.0 | 70.0 / 55.0 |" in markdown


def test_gxlt_matrix_rows_are_contexts() -> None:

    pairs = ["en-en", "en-de", "de-en", "de-de"]
    values = {"en-en": 0.8, "en-de": 0.5, "de-en": 0.6, "de-de": 0.7}
    scores = [_score("m", 1, pair, value) for pair, value in values.items()]
    table = task_table(scores, pairs, "accuracy")
    text = markdown(pair_matrix_document(table, pairs, "G-XLT"))
    assert "| context | en | de |" in text
    assert "| en | 80.0 | 50.0 |" in text  # context en: question en, question de
    assert "| de | 60.0 | 70.0 |" in text


def _with_statistics(setting: str, seed: int, language: str, correct: list[int], replicates):
    import numpy as np

    return {
        **_score("m", seed, language, sum(correct) / len(correct)),
        "setting": setting,
        "interval": {"confidence": 0.95, "replicates": list(replicates)},
        "example_stats": np.column_stack([correct, [1] * len(correct)]).tolist(),
    }


def test_intervals_and_significance_marks() -> None:
    import numpy as np

    from mte.registry import TASKS, family_of
    from mte.tables.statistics_columns import with_statistics

    # zero-shot: 60 of 100; translate-train: the same plus 10 more right (10 discordant)
    base = [1] * 60 + [0] * 40
    better = [1] * 70 + [0] * 30
    ramp = np.linspace(0.5, 0.7, 101)
    scores = [
        _with_statistics("zero-shot", 1, "de", base, ramp),
        # two seeds: the cell's replicates are their mean, ramp + 0.1
        _with_statistics("translate-train", 1, "de", better, ramp + 0.05),
        _with_statistics("translate-train", 2, "de", better, ramp + 0.15),
    ]
    options = {
        "intervals_in_tables": True,
        "confidence": 0.95,
        "alpha": 0.05,
        "trials": 5000,
        "seed": 1,
        "baseline": None,
    }
    table = task_table(scores, ["de"], "accuracy")
    tatoeba = TASKS["tatoeba"]
    kind = family_of(tatoeba).sufficient_statistics(tatoeba)
    table, marks = with_statistics(table, scores, kind, "accuracy", ["de"], options)
    # the 2.5% and 97.5% quantiles of 101 evenly spaced values from 0.5 to 0.7: 0.505, 0.695
    assert table.loc[0, "de_low"] == pytest.approx(50.5)
    assert table.loc[0, "de_high"] == pytest.approx(69.5)
    assert table.loc[1, "de_low"] == pytest.approx(60.5)
    assert pd_isna(table.loc[0, "de_p"])
    # 10 discordant examples, all for translate-train: the sign test's 2 / 2^10
    assert table.loc[1, "de_p"] == pytest.approx(2 / 1024, abs=0.003)
    markdown = to_markdown(table, ["de"], "T", marks=marks)
    assert "| m | translate-train | 70.0* [60.5, 79.5] |" in markdown
    assert "| m | zero-shot | 60.0 [50.5, 69.5] |" in markdown
    assert "*: differs from m, zero-shot (paired approximate randomization test, p < 0.05)" in (
        markdown
    )


def pd_isna(value) -> bool:
    import pandas as pd

    return bool(pd.isna(value))


def test_many_languages_print_as_rows_in_markdown_and_latex() -> None:
    from mte.tables.render import TRANSPOSE_ABOVE

    languages = [f"l{n:02d}_Latn" for n in range(TRANSPOSE_ABOVE + 1)]
    # language n scores n percent for model a and 50 for model b
    scores = [_score("a", 1, lang, n / 100) for n, lang in enumerate(languages)]
    scores += [_score("b", 1, lang, 0.5) for lang in languages]
    table = task_table(scores, languages, "accuracy")
    markdown = to_markdown(table, languages, "T")
    lines = markdown.splitlines()
    assert lines[2] == "| language | a, zero-shot | b, zero-shot |"
    assert "| l07_Latn | 7.0 | 50.0 |" in lines
    # the average of 0..20 is 10
    assert lines[-1] == "| avg | 10.0 | 50.0 |"
    assert len(lines) == 4 + len(languages) + 1
    latex = to_latex(table, languages, "T")
    assert r"Language & a, zero-shot & b, zero-shot \\" in latex
    assert r"l07\_Latn & 7.0 & 50.0 \\" in latex
    # a table of TRANSPOSE_ABOVE languages keeps a column per language
    few = task_table(scores[:TRANSPOSE_ABOVE], languages[:TRANSPOSE_ABOVE], "accuracy")
    assert (
        to_markdown(few, languages[:TRANSPOSE_ABOVE], "T")
        .splitlines()[2]
        .startswith("| model | setting | l00_Latn")
    )


def test_a_rich_cell_is_escaped_everywhere_and_printed_as_text_in_markdown() -> None:
    """The leaderboard's cells: the sort value, title, link and listed items escaped in HTML,
    the row's class and the columns' names written; Markdown and LaTeX print the text only."""
    grid = Grid(
        ["model", "score", "provenance"],
        [
            [
                Cell("a<b", sort_value="a<b", title='say "x"'),
                Cell("75.0*", sort_value="75.0", classes="best", below="p = 0.01"),
                Cell("2 sources", sort_value="s&1", listed=("s&1", "s<2")),
            ],
            ["plain", "", Cell("provenance", link="../r&1/provenance.html")],
        ],
        kinds=["text", "number", "text"],
        names=["label", "xnli", "provenance"],
        row_classes=["ours demo", ""],
        css_class="leaderboard",
    )
    page = html(Document("Board", [(None, grid)]), script="var x = 1;")
    assert '<table class="leaderboard">' in page
    assert '<th class="number" data-column="xnli">score</th>' in page
    assert (
        '<tr class="ours demo"><td class="text" data-column="label" data-value="a&lt;b" '
        'title="say &quot;x&quot;">a&lt;b</td>'
    ) in page
    assert (
        '<td class="number best" data-column="xnli" data-value="75.0">75.0*'
        "<br><small>p = 0.01</small></td>"
    ) in page
    assert (
        "<details><summary>2 sources</summary><ul><li>s&amp;1</li><li>s&lt;2</li></ul></details>"
    ) in page
    # a plain cell in a named grid: its kind and column, no sort value
    assert '<tr><td class="text" data-column="label">plain</td>' in page
    assert '<a href="../r&amp;1/provenance.html">provenance</a>' in page
    assert page.index("<script>var x = 1;</script>") > page.index("</div>")
    assert "| a<b | 75.0* | 2 sources |" in markdown(Document("Board", [(None, grid)]))
    assert r"a$<$b & 75.0* & 2 sources \\" in latex(Document("Board", [(None, grid)]))
