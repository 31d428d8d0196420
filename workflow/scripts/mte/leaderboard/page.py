"""The leaderboard written out: ``leaderboard.csv`` and a sortable ``leaderboard.html``."""

from __future__ import annotations

import html as html_text
import os
from pathlib import Path

from mte.leaderboard.board import Leaderboard, Row, Value
from mte.tables.published_rows import OURS
from mte.tables.render import HTML_STYLE
from mte.tables.statistics_columns import SIGNIFICANT


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def printed_cell(value: Value | None, alpha: float) -> str:
    """A cell as the HTML prints it: the value, its interval, and the mark where the row
    differs from the column's best row (p < alpha)."""
    if value is None:
        return ""
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
    var first = header.dataset.type === "number" ? "descending" : "ascending";
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
      var order = header.dataset.type === "number" ? Number(x) - Number(y) : x.localeCompare(y);
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
    escape = html_text.escape
    lines = [
        _row_html(row, values, board, out_dir)
        for row, values in zip(board.rows, board.values, strict=True)
    ]
    warning = f'<p class="warning">{escape(board.demo)}</p>' if board.demo else ""
    return (
        "\n".join(
            [
                "<!DOCTYPE html>",
                '<html lang="en">',
                '<head><meta charset="utf-8">',
                "<title>Leaderboard</title>",
                f"<style>{HTML_STYLE}{LEADERBOARD_STYLE}</style>",
                "</head>",
                "<body>",
                '<div class="mte">',
                "<h1>Leaderboard</h1>",
                warning,
                '<table class="leaderboard">',
                "<thead><tr>" + "".join(_header_cells(board)) + "</tr></thead>",
                "<tbody>",
                *lines,
                "</tbody>",
                "</table>",
                *(f'<p class="note">{escape(note)}</p>' for note in _notes(board)),
                "</div>",
                f"<script>{SORT_SCRIPT}</script>",
                "</body>",
                "</html>",
            ]
        )
        + "\n"
    )


def _header_cells(board: Leaderboard) -> list[str]:
    escape = html_text.escape
    identity = [
        ("label", "model", "text"),
        ("setting", "setting", "text"),
        ("run", "run", "text"),
        ("seeds", "seeds", "text"),
    ]
    header = [
        f'<th data-type="{kind}" data-column="{name}">{escape(title)}</th>'
        for name, title, kind in identity
    ]
    header += [
        f'<th data-type="number" data-column="{c.name}">{escape(c.title)}</th>'
        for c in board.columns
    ]
    header.append('<th data-type="text" data-column="provenance">provenance</th>')
    return header


def _row_html(row: Row, values: dict[str, Value], board: Leaderboard, out_dir: Path) -> str:
    """One row: its identity, a cell per column (the value with its interval and mark, its
    sources and p-value as the cell's title), and its provenance."""
    escape = html_text.escape
    # a row on the bundled demo data says so itself, wherever a sort puts it
    demo = bool(row.demo)
    label = f"{row.label} [demo data]" if demo else row.label
    cells = [
        _text_cell("label", label, row.model),
        _text_cell("setting", row.setting),
        _text_cell("run", row.run),
        _text_cell("seeds", row.seeds),
    ]
    for column in board.columns:
        value = values.get(column.name)
        data = "" if value is None else repr(round(value.value, 6))
        title = ""
        if value is not None:
            about = [value.source] if value.source else []
            if value.languages is not None:
                about.append(f"{value.languages} test sets")
            if value.p is not None:
                about.append(f"p = {value.p:.4g} against the column's best row")
            title = f' title="{escape("; ".join(about))}"' if about else ""
        classes = "number best" if value is not None and value.best else "number"
        # the test's p-value under the number, where the row was tested against the best
        tested = "" if value is None or value.p is None else f"<br><small>p = {value.p:.3g}</small>"
        cells.append(
            f'<td class="{classes}" data-column="{column.name}" data-value="{data}"{title}>'
            f"{escape(printed_cell(value, board.alpha))}{tested}</td>"
        )
    if row.kind == OURS:
        link = os.path.relpath(row.provenance, out_dir)
        cells.append(
            f'<td class="text" data-column="provenance" data-value="{escape(row.run)}">'
            f'<a href="{escape(link)}">provenance</a></td>'
        )
    else:
        # the sources collapsed: a click opens them (their text is long: repository, path,
        # commit, how faithful the reprint is)
        sources = list(dict.fromkeys(row.sources.values()))
        listed = "".join(f"<li>{escape(source)}</li>" for source in sources)
        cells.append(
            f'<td class="text" data-column="provenance" data-value="{escape(sources[0])}">'
            f"<details><summary>{len(sources)} source{'s' if len(sources) > 1 else ''}"
            f"</summary><ul>{listed}</ul></details></td>"
        )
    kind = f"{row.kind} demo" if demo else row.kind
    return f'<tr class="{kind}">' + "".join(cells) + "</tr>"


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
        "Suite columns (XTREME, GLUE, ...): a value only for rows that ran every task of the "
        "suite on its languages; a published row's suite cell is empty where no source gives "
        "the paper's average or every task's (XTREME's Avg: none readable, config/references). "
        "Published rows (italic): the papers' averages as config/references enters them, with "
        "their sources; they are not tested.",
    ]


def _text_cell(column: str, text: str, title: str = "") -> str:
    escape = html_text.escape
    about = f' title="{escape(title)}"' if title else ""
    return (
        f'<td class="text" data-column="{column}" data-value="{escape(text)}"{about}>'
        f"{escape(text)}</td>"
    )


def write_leaderboard(board: Leaderboard, out_dir: str | Path) -> tuple[Path, Path]:
    """``leaderboard.csv`` and ``leaderboard.html`` in ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    csv, page = out_dir / "leaderboard.csv", out_dir / "leaderboard.html"
    csv.write_text(board.table().to_csv(index=False, float_format="%.4f"), encoding="utf-8")
    page.write_text(leaderboard_html(board, out_dir.resolve()), encoding="utf-8")
    return csv, page
