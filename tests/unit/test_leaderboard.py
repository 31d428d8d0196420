"""The leaderboard across runs (mte.leaderboard) on score files written by hand: averages,
intervals and suite averages worked out by hand, the paired test only where the same test items
were scored, published rows, and the HTML's cells against the CSV's."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mte.errors import InputError
from mte.leaderboard.board import Column, build_leaderboard, column_value, published_rows
from mte.leaderboard.cli import main
from mte.leaderboard.page import write_leaderboard
from mte.leaderboard.runs import read_run, scores_index
from mte.registry import family_of, get_suite, get_task
from mte.stats.statistics import bootstrap_replicates, paired_randomization
from mte.tables.references import check_reference
from mte.tasks.spec import Suite

E, N, C = "entailment", "neutral", "contradiction"
GOLD = [E, N, C, E]


def score_file(
    task: str,
    model: str,
    language: str,
    stats: np.ndarray,
    seed: str = "1",
    checksum: str | None = None,
    replicates: list[float] | None = None,
    source: str = "files",
) -> dict:
    """A score record as the score rule writes it, from per-example statistics; its interval's
    replicates drawn as the scorer draws them, or given by hand."""
    definition = get_task(task)
    kind = family_of(definition).sufficient_statistics(definition)
    metric = definition.primary_metric
    draw_seed = [7, len(language)]
    drawn = bootstrap_replicates(kind, metric, stats, 50, draw_seed)
    return {
        "task": task,
        "model": model,
        "setting": "zero-shot",
        "seed": seed,
        "language": language,
        "split": "test",
        "n": len(stats),
        "metrics": kind.values(stats),
        "interval": {
            "metric": metric,
            "confidence": 0.95,
            "resamples": 50,
            "seed": draw_seed,
            "replicates": replicates if replicates is not None else drawn.tolist(),
        },
        "example_stats": stats.tolist(),
        "provenance": {
            "data": [{"source": source, "sha256_jsonl": checksum or f"{task}-{language}"}]
        },
    }


def xnli(model: str, language: str, predicted: list[str], **more) -> dict:
    kind = family_of(get_task("xnli")).sufficient_statistics(get_task("xnli"))
    return score_file("xnli", model, language, kind.rows(GOLD, predicted), **more)


def xquad(model: str, language: str, f1: list[float], em: list[float], **more) -> dict:
    kind = family_of(get_task("xquad")).sufficient_statistics(get_task("xquad"))
    stats = kind.rows(np.column_stack([f1, em]), np.ones(len(f1)))
    return score_file("xquad", model, language, stats, **more)


def write_run(root: Path, name: str, scores: list[dict]) -> Path:
    """A run folder as a checkout holds it: score files under results/, the index beside."""
    folder = root / "results" / "runs" / name
    folder.mkdir(parents=True)
    paths = []
    for i, score in enumerate(scores):
        path = (
            f"results/{score['model']}/{score['task']}/{name}/scores/{i}-{score['language']}.json"
        )
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(json.dumps(score), encoding="utf-8")
        paths.append(path)
    scores_index(scores, paths).to_csv(folder / "scores.csv", index=False)
    return folder


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    # a: en 3/4, de 2/4 (XNLI 62.5); b: en 4/4, de 3/4 (87.5); c: as a, but its German test
    # file is another one (another checksum), so it is not tested against the best
    a = [xnli("a", "en", [E, N, C, N]), xnli("a", "de", [E, C, C, N])]
    b = [xnli("b", "en", [E, N, C, E]), xnli("b", "de", [E, N, C, N])]
    c = [xnli("c", "en", [E, N, C, N]), xnli("c", "de", [E, C, C, N], checksum="other")]
    return [
        write_run(tmp_path, "r1", a),
        write_run(tmp_path, "r2", b),
        write_run(tmp_path, "r3", c),
    ]


def test_task_averages_best_row_and_tests_only_on_the_same_items(runs: list[Path]) -> None:
    board = build_leaderboard([read_run(folder) for folder in runs], trials=500)
    table = board.table().set_index("run")
    assert table.loc["r1", "xnli"] == pytest.approx(62.5)  # (3/4 + 2/4) / 2
    assert table.loc["r2", "xnli"] == pytest.approx(87.5)  # (4/4 + 3/4) / 2
    assert table.loc["r3", "xnli"] == pytest.approx(62.5)
    assert table["xnli_best"].to_dict() == {"r1": False, "r2": True, "r3": False}
    assert list(table["xnli_languages"]) == [2, 2, 2]
    # r1 against r2: the test the run tables use, on the same two test sets
    stats = {
        run: [np.asarray(s["example_stats"]) for s in read_run(folder).scores]
        for run, folder in zip(("r1", "r2"), runs[:2], strict=True)
    }
    kind = family_of(get_task("xnli")).sufficient_statistics(get_task("xnli"))
    pairs = list(zip(stats["r1"], stats["r2"], strict=True))
    expected = paired_randomization(kind, "accuracy", pairs, 500, 12345)["p_value"]
    assert table.loc["r1", "xnli_p"] == pytest.approx(expected)
    assert pd.isna(table.loc["r2", "xnli_p"])  # the best row is not tested against itself
    assert pd.isna(table.loc["r3", "xnli_p"])  # its German items are not r2's


def test_identical_systems_are_never_significant(tmp_path: Path) -> None:
    same = [xnli("a", "en", [E, N, C, N]), xnli("a", "de", [E, C, C, N])]
    folders = [write_run(tmp_path, name, same) for name in ("x", "y")]
    table = build_leaderboard([read_run(f) for f in folders], trials=200).table()
    # every trial's difference is 0 = the observed one: p = (1 + 200) / (1 + 200)
    assert table["xnli_p"].dropna().tolist() == [1.0]


def test_the_interval_of_an_average_is_that_of_its_languages_mean(tmp_path: Path) -> None:
    scores = [
        xnli("a", "en", [E, N, C, N], replicates=[0.5, 0.6, 0.7, 0.8, 0.9]),
        xnli("a", "de", [E, C, C, N], replicates=[0.3, 0.4, 0.5, 0.6, 0.7]),
    ]
    board = build_leaderboard([read_run(write_run(tmp_path, "r", scores))])
    row = board.table().iloc[0]
    # the mean's replicates: 0.4 .. 0.8 by 0.1; numpy's linear quantiles at 2.5% and 97.5% of
    # five values lie a tenth of the way from the first to the second, and from the fourth
    # to the fifth: 0.41 and 0.79
    assert row["xnli_low"] == pytest.approx(41.0)
    assert row["xnli_high"] == pytest.approx(79.0)


MINI = Suite(
    name="mini",
    title="A two-task suite",
    short="MINI",
    tasks=("xnli", "xquad"),
    layout="task_score",
    published=("test", "Table 0"),
    languages={"xnli": ("de", "en"), "xquad": ("de", "en")},
)


def test_a_suite_average_is_the_mean_of_its_task_scores_qa_as_f1_and_em(tmp_path: Path) -> None:
    scores = [
        xnli("a", "en", [E, N, C, N]),  # 0.75
        xnli("a", "de", [E, C, C, N]),  # 0.5
        xquad("a", "en", f1=[1.0, 0.5], em=[1.0, 0.0]),  # F1 0.75, EM 0.5: cell 0.625
        xquad("a", "de", f1=[0.0, 0.5], em=[0.0, 0.0]),  # F1 0.25, EM 0: cell 0.125
    ]
    board = build_leaderboard([read_run(write_run(tmp_path, "r", scores))])
    row = board.rows[0]
    # XTREME's task score: XNLI (0.75 + 0.5) / 2 = 62.5, XQuAD (0.625 + 0.125) / 2 = 37.5
    assert column_value(row, Column("mini", "MINI", MINI)).value == pytest.approx(50.0)
    # the task's own column is its primary metric, F1: (0.75 + 0.25) / 2
    assert column_value(row, Column("xquad", "XQuAD")).value == pytest.approx(50.0)
    # the suite's interval needs EM's replicates: drawn again from the per-example statistics
    # with the seed the score file recorded, they pair with the stored F1 replicates
    suite = column_value(row, Column("mini", "MINI", MINI))
    assert suite.low is not None and suite.low <= suite.value <= suite.high
    cell = row.cells[("xquad", "en")]
    stored = np.asarray(cell.scores[0]["interval"]["replicates"])
    cell.scores[0]["interval"]["replicates"] = None
    cell._replicates.clear()
    np.testing.assert_allclose(cell.replicates("f1"), stored)


def test_a_suite_needs_every_task_on_its_languages(tmp_path: Path) -> None:
    """A row with XNLI alone: no MINI score, and the cell says why; a row with none of its
    tasks: no cell at all."""
    only_xnli = [xnli("a", "en", [E, N, C, N]), xnli("a", "de", [E, C, C, N])]
    row = build_leaderboard([read_run(write_run(tmp_path, "r", only_xnli))]).rows[0]
    value = column_value(row, Column("mini", "MINI", MINI))
    assert value is not None and value.value is None
    assert value.why == "no MINI score: this row lacks 1 of its 2 tasks (xquad)"
    assert column_value(row, Column("glue", "GLUE", get_suite("glue"))) is None


REFERENCES = [
    check_reference(entry, "refs.yaml", index)
    for index, entry in enumerate([
        {"paper": "test", "table": "Table 0", "protocol": "one run", "source": "by hand",
         "model": "big", "task": "xnli", "setting": "zero-shot", "metric": "accuracy",
         "average": 79.2, "values": {}, "row": "Big"},
        {"paper": "test", "table": "Table 0", "protocol": "one run", "source": "by hand",
         "model": "big", "task": "xquad", "setting": "zero-shot", "metric": "f1",
         "average": 76.6, "values": {}, "row": "Big"},
    ])
]  # fmt: skip


def test_published_rows_fill_tasks_and_a_suite_only_with_both_qa_halves() -> None:
    columns = [Column("mini", "MINI", MINI), Column("xnli", "XNLI"), Column("xquad", "XQuAD")]
    (row,) = published_rows(REFERENCES, columns)
    assert row.published == {"xnli": 79.2, "xquad": 76.6}  # no EM: no XTREME-style suite cell
    em = {**REFERENCES[1], "metric": "exact_match", "average": 60.8}
    (row,) = published_rows([*REFERENCES, em], columns)
    # (79.2 + (76.6 + 60.8) / 2) / 2
    assert row.published["mini"] == pytest.approx(73.95)
    assert "by hand" in row.sources["xnli"]


class Cells(HTMLParser):
    """The leaderboard page's body cells: per row, column -> (data-value, printed text)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, tuple[str, str]]] = []
        self._cell: tuple[str, str] | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "tr" and {"ours", "published"} & set((attributes.get("class") or "").split()):
            self.rows.append({})
        elif tag == "td" and "number" in (attributes.get("class") or "").split():
            self._cell = (attributes["data-column"], attributes.get("data-value") or "")
            self._text = ""

    def handle_data(self, data: str) -> None:
        if self._cell:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell:
            column, value = self._cell
            self.rows[-1][column] = (value, self._text)
            self._cell = None


def check_html_against_csv(csv: Path, page: Path, alpha: float = 0.05) -> int:
    """Every number cell of the page against the CSV's row: the same value (sorting's), the
    printed text the CSV's value, interval and mark, and under it the language count where it
    is not the papers' and the p-value; a cell without a number: n/s in a published row, a
    dash in ours, each with the CSV's reason, or empty. Returns how many cells had numbers."""
    table = pd.read_csv(csv, keep_default_na=True)
    parser = Cells()
    parser.feed(page.read_text(encoding="utf-8"))
    assert len(parser.rows) == len(table)
    compared = 0
    for cells, (_, row) in zip(parser.rows, table.iterrows(), strict=True):
        assert cells, "a row without number cells"
        for column, (value, text) in cells.items():
            if pd.isna(row[column]):
                why = row[f"{column}_why"]
                if pd.isna(why) or not why:
                    assert (value, text) == ("", "")
                else:
                    assert value == "" and text == ("n/s" if row["row"] == "published" else "–")
                continue
            assert float(value) == pytest.approx(row[column], abs=1e-4)
            printed = f"{row[column]:.1f}"
            if not pd.isna(row[f"{column}_low"]):
                printed += f" [{row[f'{column}_low']:.1f}, {row[f'{column}_high']:.1f}]"
            if not pd.isna(row[f"{column}_p"]) and row[f"{column}_p"] < alpha:
                printed += "*"
            assert text.startswith(printed)
            below = text[len(printed) :].split("; ")
            of = row[f"{column}_of_languages"]
            if not pd.isna(of):
                count = int(row[f"{column}_languages"])
                expected = f"{count} of {int(of)} languages"
                if count > of:
                    expected = f"{count} languages, not {int(of)}"
                assert below.pop(0) == expected
            # the test's p-value under the number, for every tested cell
            if pd.isna(row[f"{column}_p"]):
                assert below in ([""], [])
            else:
                (tested,) = below
                assert tested.startswith("p = ")
                assert float(tested[4:]) == pytest.approx(row[f"{column}_p"], abs=1e-4, rel=5e-3)
            compared += 1
    return compared


def test_html_cells_equal_the_csv(runs: list[Path], tmp_path: Path) -> None:
    board = build_leaderboard([read_run(folder) for folder in runs], REFERENCES, trials=200)
    csv, page = write_leaderboard(board, tmp_path / "board")
    assert check_html_against_csv(csv, page) == 3 + 2  # three rows of ours, Big's XNLI, XQuAD
    text = page.read_text(encoding="utf-8")
    # each of our rows links to its run's provenance page, relative to the leaderboard
    assert text.count('href="../results/runs/r1/provenance.html"') == 1
    assert "by hand" in text


def test_demo_rows_are_labelled(tmp_path: Path) -> None:
    scores = [xnli("a", "en", [E, N, C, N], source="demo")]
    board = build_leaderboard([read_run(write_run(tmp_path, "r", scores))])
    csv, page = write_leaderboard(board, tmp_path / "board")
    assert pd.read_csv(csv)["data_note"].str.startswith("Demo data").all()
    text = page.read_text(encoding="utf-8")
    assert 'class="warning">Demo data' in text
    # the row itself says so, wherever a sort puts it
    assert text.count('<tr class="ours demo">') == 1 and "a [demo data]" in text


def test_the_seeds_column_and_a_suite_column_beside_its_papers_rows(tmp_path: Path) -> None:
    scores = [xnli("a", "en", [E, N, C, N], seed=1), xnli("a", "en", [E, N, C, C], seed=2)]
    xtreme = [{**REFERENCES[0], "paper": "xtreme", "table": "Table 2"}]
    board = build_leaderboard([read_run(write_run(tmp_path, "r", scores))], xtreme)
    assert board.rows[0].seeds == "1 2"
    _, page = write_leaderboard(board, tmp_path / "board")
    assert 'data-column="seeds" data-value="1 2"' in page.read_text(encoding="utf-8")
    names = [column.name for column in board.columns]
    # the row ran XNLI alone: no XTREME score, and its cell says why; the published row has
    # no entry of XTREME's Avg or of its other tasks: nothing there
    assert names[0] == "xtreme_summary" and "xnli" in names
    ours, published = board.values
    assert ours["xtreme_summary"].value is None
    assert ours["xtreme_summary"].why.startswith("no XTREME score: this row lacks 8 of its 9")
    assert "xtreme_summary" not in published


def test_a_folder_without_an_index_or_with_a_missing_file_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    with pytest.raises(InputError, match="scores.csv.*not a run folder"):
        read_run(tmp_path)
    folder = write_run(tmp_path, "r", [xnli("a", "en", [E, N, C, N])])
    missing = next((tmp_path / "results" / "a").rglob("*.json"))
    missing.unlink()
    with pytest.raises(InputError, match=r"scores.csv, line 2: names results/a/.*not at"):
        read_run(folder)
    # the command: one line naming the file, exit status 1, nothing written
    assert main([str(folder), "--out", str(tmp_path / "out"), "--references", "none"]) == 1
    assert "scores.csv, line 2" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_command_writes_both_files(runs: list[Path], tmp_path: Path, repo: Path) -> None:
    out = tmp_path / "out"
    references = str(repo / "config" / "references")
    argv = [*map(str, runs), "--out", str(out), "--references", references, "--trials", "200"]
    assert main(argv) == 0
    table = pd.read_csv(out / "leaderboard.csv")
    assert list(table[table["row"] == "ours"]["run"]) == ["r1", "r2", "r3"]
    # the papers' rows: XLM-R large's XNLI in both, kept apart (80.9 and 79.2), and XTREME-R's
    # template row, whose cell no readable source gives
    large = table[(table["model"] == "xlm-roberta-large") & (table["setting"] == "zero-shot")]
    assert sorted(large["xnli"].dropna()) == [79.2, 80.9]
    (template,) = large[large["label"] == "XLM-R Large (xtreme-r)"].index
    assert pd.isna(large.loc[template, "xnli"])
    assert large.loc[template, "xnli_why"].startswith("the paper prints this cell; no source")
    # XTREME's Avg is in its Table 2 and no readable source gives it: n/s in XTREME's rows
    xtreme = large[large["label"] == "XLM-R (Large) (xtreme)"].iloc[0]
    assert pd.isna(xtreme["xtreme_summary"]) and xtreme["xtreme_summary_why"]
    assert check_html_against_csv(out / "leaderboard.csv", out / "leaderboard.html") > 10


def test_the_command_without_a_run_folder_says_how_to_get_one(
    capsys: pytest.CaptureFixture,
) -> None:
    """make leaderboard before any run: RUNS is empty, and the command says what a run folder
    is and how to make one (not argparse's 'the following arguments are required')."""
    assert main(["--out", "somewhere"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("mte-leaderboard: no run folder to rank. A run folder is")
    assert "make run: results/runs/default" in error
