"""The leaderboard written out: ``leaderboard.csv`` and a sortable ``leaderboard.html``."""

from __future__ import annotations

import os
from pathlib import Path

from mte.leaderboard.board import Leaderboard, Row, Value
from mte.registry import get_suite, get_task
from mte.tables.published_rows import OURS, PUBLISHED
from mte.tables.references import NOT_PUBLISHED, UNSOURCED
from mte.tables.render import Cell, Document, Grid, html
from mte.tables.statistics_columns import SIGNIFICANT


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def printed_cell(value: Value | None, alpha: float, kind: str = OURS) -> str:
    """A cell as the HTML prints it: the value, its interval, and the mark where the row
    differs from the column's best row (p < alpha); without a number, n/s in a published row
    (the paper prints it, no readable source gives it) and a dash in ours (a suite the row
    does not complete)."""
    if value is None:
        return ""
    if value.value is None:
        return UNSOURCED if kind == PUBLISHED else NOT_PUBLISHED
    text = _number(value.value)
    if value.low is not None:
        text += f" [{_number(value.low)}, {_number(value.high)}]"
    if value.p is not None and value.p < alpha:
        text += SIGNIFICANT
    return text


SORT_SCRIPT = """
// a click on a header sorts the rows by that column (numbers by value, words alphabetically);
// a second click reverses; rows without a value stay last either way
document.querySelectorAll("table.leaderboard th").forEach(function (header, index) {
  header.addEventListener("click", function () {
    var table = header.closest("table");
    var body = table.tBodies[0];
    // numbers first sort high to low, words A to Z
    var numeric = header.classList.contains("number");
    var first = numeric ? "descending" : "ascending";
    var other = first === "descending" ? "ascending" : "descending";
    var descending = (header.getAttribute("aria-sort") === first ? other : first) === "descending";
    table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[index].dataset.value, y = b.cells[index].dataset.value;
      if (x === "" && y === "") { return 0; }
      if (x === "") { return 1; }
      if (y === "") { return -1; }
      var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return descending ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
"""


LEADERBOARD_STYLE = """
.mte th { cursor: pointer; user-select: none; }
.mte th[aria-sort=descending]::after { content: " \\25BC"; }
.mte th[aria-sort=ascending]::after { content: " \\25B2"; }
.mte tr.published td { color: #555; font-style: italic; }
.mte tr.demo td { background: #fff3cd; }
.mte td small { color: #555; }
.mte td.best { font-weight: bold; }
.mte td[data-column=label] { white-space: normal; min-width: 12em; max-width: 24em; }
.mte td[data-column=provenance] { white-space: normal; max-width: 40em; }
.mte details ul { margin: 0.2em 0; padding-left: 1.2em; font-size: 0.9em; }
"""


def leaderboard_html(board: Leaderboard, out_dir: Path) -> str:
    """The sortable page: a header cell per column (a click sorts), our rows and the published
    rows, each of ours linking to its run's provenance page (relative to ``out_dir``)."""
    names = [
        "label", "setting", "method", "run", "seeds", *(c.name for c in board.columns),
        "provenance",
    ]  # fmt: skip
    kinds = ["text"] * 5 + ["number"] * len(board.columns) + ["text"]
    grid = Grid(
        header=[
            "model",
            "setting",
            "method",
            "run",
            "seeds",
            *(c.title for c in board.columns),
            "provenance",
        ],
        rows=[
            _row_cells(row, values, board, out_dir)
            for row, values in zip(board.rows, board.values, strict=True)
        ],
        kinds=kinds,
        names=names,
        # a row on the bundled demo data says so itself, wherever a sort puts it
        row_classes=[f"{row.kind} demo" if row.demo else row.kind for row in board.rows],
        css_class="leaderboard",
    )
    document = Document("Leaderboard", [(None, grid)], _notes(board))
    return html(document, warning=board.demo, style=LEADERBOARD_STYLE, script=SORT_SCRIPT)


def _row_cells(row: Row, values: dict[str, Value], board: Leaderboard, out_dir: Path) -> list:
    """One row: its identity, a cell per column (the value with its interval and mark, its
    sources and p-value as the cell's title, the p-value under it), and its provenance."""
    label = f"{row.label} [demo data]" if row.demo else row.label
    cells = [
        Cell(label, sort_value=label, title=row.model),
        *(Cell(text, sort_value=text) for text in (row.setting, row.method, row.run, row.seeds)),
    ]
    cells += [
        _value_cell(values.get(column.name), board.alpha, row.kind) for column in board.columns
    ]
    if row.kind == OURS:
        link = os.path.relpath(row.provenance, out_dir)
        cells.append(Cell("provenance", sort_value=row.run, link=link))
    else:
        # the sources collapsed: a click opens them (their text is long: repository, path,
        # commit, how faithful the reprint is)
        sources = tuple(dict.fromkeys(row.sources.values()))
        summary = f"{len(sources)} source{'s' if len(sources) > 1 else ''}"
        cells.append(Cell(summary, sort_value=sources[0], listed=sources))
    return cells


def languages_note(value: Value) -> str:
    """Under a task cell that averages another number of languages than the papers' (the
    task's set): how many, so that a 6-language average is not read as a 15-language one."""
    if not value.partial:
        return ""
    if value.languages < value.all_languages:
        return f"{value.languages} of {value.all_languages} languages"
    return f"{value.languages} languages, not {value.all_languages}"


def _value_cell(value: Value | None, alpha: float, kind: str = OURS) -> Cell:
    if value is None:
        return Cell("", sort_value="")
    if value.value is None:
        return Cell(printed_cell(value, alpha, kind), sort_value="", title=value.why)
    about = [value.source] if value.source else []
    if value.languages is not None:
        about.append(f"{value.languages} test sets")
    if value.p is not None:
        about.append(f"p = {value.p:.4g} against the column's best row")
    # under the number: its language count where it is not the papers', the test's p-value
    below = [languages_note(value), "" if value.p is None else f"p = {value.p:.3g}"]
    return Cell(
        printed_cell(value, alpha, kind),
        sort_value=repr(round(value.value, 6)),
        title="; ".join(about),
        classes="best" if value.best else "",
        below="; ".join(filter(None, below)),
    )


def _notes(board: Leaderboard) -> list[str]:
    return [
        "Click a column's header to sort by it; click again to reverse.",
        "A cell: the mean over the row's languages (the seeds column's seeds averaged) in "
        "percent, with its bootstrap 95% interval over test examples; bold: the best of our rows "
        "in the column; p: the paired test's p-value against it.",
        "Rows marked [demo data] (shaded) ran on the bundled demo data: their numbers say "
        "nothing about the benchmark.",
        f"{SIGNIFICANT}: differs from the column's best row (paired approximate randomization "
        f"test over the same test items, p < {board.alpha:g}); rows scored on other items are "
        "not tested.",
        "Under a task cell, 'n of N languages': the average is over n languages, the papers' "
        "over the task's N (XTREME's set): not the same number. XTREME-R's averages cover its "
        f"own sets ({_suite_sets('xtreme_r')}).",
        "Suite columns (XTREME, GLUE, ...): a value only for rows that ran every task of the "
        f"suite on its languages; {NOT_PUBLISHED} in our row: it ran some of the suite's tasks, "
        "not all (the cell's title says which are missing); blank: none of them.",
        "Published rows (italic): the papers' averages as config/references enters them, with "
        f"their sources; they are not tested. {UNSOURCED}: the paper prints the cell, but no "
        "source readable here gives it (XTREME's BUCC, Tatoeba, UD-POS and Avg; XTREME-R's "
        "table: config/references/xtreme-r.yaml is its empty template) - a user who holds the "
        "paper fills it in a references file of their own (docs/outputs.md, 'Published "
        "numbers').",
    ]


def _suite_sets(suite_name: str) -> str:
    """A suite's language counts where they are not its tasks' own (XTREME-R's PAN-X 48)."""
    suite = get_suite(suite_name)
    return ", ".join(
        f"{get_task(name).title} {len(languages)}" for name, languages in suite.languages.items()
    )


def write_leaderboard(board: Leaderboard, out_dir: str | Path) -> tuple[Path, Path]:
    """``leaderboard.csv`` and ``leaderboard.html`` in ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    csv, page = out_dir / "leaderboard.csv", out_dir / "leaderboard.html"
    csv.write_text(board.table().to_csv(index=False, float_format="%.4f"), encoding="utf-8")
    page.write_text(leaderboard_html(board, out_dir.resolve()), encoding="utf-8")
    return csv, page
