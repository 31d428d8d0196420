"""The one renderer of every printed table: a table is a :class:`Document` (a title, sections of
:class:`Grid` rows of printed cells, notes), written as Markdown, as LaTeX (booktabs) or as an
HTML page (the report's view). The table builders (task tables, G-XLT matrices, suites) only
decide what the cells say."""

from __future__ import annotations

import html as html_text
from dataclasses import dataclass, field

import pandas as pd

from mte.tables.published_rows import DELTA, OURS, PUBLISHED, unsourced_columns
from mte.tables.references import NOT_PUBLISHED, UNSOURCED, UNSOURCED_NOTE
from mte.tables.statistics_columns import SIGNIFICANT, Marks, legend
from mte.tables.task_table import AVERAGE

LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#",
    "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}",
    "±": r"$\pm$", "<": r"$<$",
}  # fmt: skip

# above this many languages a table is printed transposed (a row per language, a column per
# model and setting): SIB-200's 205 language columns would not stay readable
TRANSPOSE_ABOVE = 20
# a column's alignment by its kind: Markdown's separator cell, LaTeX's column type
ALIGN = {"text": ("---|", "l"), "number": ("---:|", "r")}
# a table printed without intervals or significance marks
NO_MARKS = Marks()


@dataclass(frozen=True)
class Cell:
    """A printed cell with what an interactive page shows beside its text (the leaderboard):
    ``sort_value``, the value a click on the header sorts by; ``title``, shown on hover;
    ``classes``, added to the cell's kind; ``below``, a small second line; ``link``, where the
    text leads; ``listed``, items collapsed under the text. Markdown and LaTeX print the text."""

    text: str
    sort_value: str | None = None
    title: str = ""
    classes: str = ""
    below: str = ""
    link: str = ""
    listed: tuple[str, ...] = ()


@dataclass
class Grid:
    """A header and rows of printed cells (text, or a :class:`Cell`); the first
    ``text_columns`` are text (left-aligned, capitalised headers in LaTeX), the others numbers
    (right-aligned), unless ``kinds`` gives every column's kind. An interactive page's table
    names its columns (``names``), its rows' classes (``row_classes``) and its own class."""

    header: list[str]
    rows: list[list[str | Cell]]
    text_columns: int = 2
    kinds: list[str] | None = None
    names: list[str] | None = None
    row_classes: list[str] | None = None
    css_class: str = ""

    def column_kinds(self) -> list[str]:
        if self.kinds is not None:
            return self.kinds
        return ["text" if i < self.text_columns else "number" for i in range(len(self.header))]


def _text(cell: str | Cell) -> str:
    return cell.text if isinstance(cell, Cell) else cell


@dataclass
class Document:
    """A titled table: sections (an optional heading, a grid) and notes printed under them."""

    title: str
    sections: list[tuple[str | None, Grid]]
    notes: list[str] = field(default_factory=list)


def latex_escape(text: str) -> str:
    """Text safe inside a LaTeX table cell (one pass, so escapes are not escaped again)."""
    return "".join(LATEX_SPECIAL.get(char, char) for char in text)


def _markdown_grid(grid: Grid) -> list[str]:
    lines = ["| " + " | ".join(grid.header) + " |"]
    lines.append("|" + "".join(ALIGN[kind][0] for kind in grid.column_kinds()))
    lines += ["| " + " | ".join(map(_text, cells)) + " |" for cells in grid.rows]
    return lines


def markdown(document: Document) -> str:
    lines = [f"# {document.title}"]
    for heading, grid in document.sections:
        lines.append("")
        if heading:
            lines += [f"## {heading}", ""]
        lines += _markdown_grid(grid)
    return "\n".join(lines) + "\n" + "".join(f"\n{note}\n" for note in document.notes)


def latex(document: Document) -> str:
    """A ``table`` float with booktabs rules (``\\usepackage{booktabs}``), the title and notes
    as its caption; sections after the first are separated by a rule, their heading a row."""
    first = document.sections[0][1]
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        r"\begin{tabular}{" + "".join(ALIGN[kind][1] for kind in first.column_kinds()) + "}",
        r"\toprule",
    ]
    for index, (heading, grid) in enumerate(document.sections):
        if index:
            lines.append(r"\midrule")
            if heading:
                lines.append(
                    r"\multicolumn{" + str(len(grid.header)) + "}{l}{" + latex_escape(heading)
                    + r"} \\"
                )  # fmt: skip
        header = [h.capitalize() for h in grid.header[: grid.text_columns]]
        header += grid.header[grid.text_columns :]
        lines.append(" & ".join(latex_escape(h) for h in header) + r" \\")
        lines.append(r"\midrule")
        lines += [" & ".join(latex_escape(_text(c)) for c in cells) + r" \\" for cells in grid.rows]
    caption = " ".join([document.title, *document.notes])
    lines += [
        r"\bottomrule",
        r"\end{tabular}",
        r"\caption{" + latex_escape(caption) + "}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"


# every rule under .mte: the report embeds these pages in its own page (the first screen), where
# unscoped rules would restyle the report itself
HTML_STYLE = """
.mte { font-family: system-ui, sans-serif; color: #222; margin: 0.6em 0 1.6em 0; }
div.mte h1 { font-size: 1.2em; margin: 0.4em 0; line-height: 1.3; }
div.mte h2 { font-size: 1em; margin: 1em 0 0.3em 0; }
.mte div.scroll { overflow-x: auto; max-width: 100%; }
.mte table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
.mte th, .mte td { padding: 0.2em 0.55em; border-bottom: 1px solid #ddd; white-space: nowrap; }
.mte thead th { border-bottom: 2px solid #444; }
.mte .number { text-align: right; font-variant-numeric: tabular-nums; }
.mte .text { text-align: left; }
.mte p.note, .mte li { font-size: 0.8em; color: #444; max-width: 60em; margin: 0.2em 0; }
.mte .warning { background: #fff4ce; border-left: 4px solid #e0a800; padding: 0.4em 0.8em;
  font-size: 0.85em; max-width: 60em; }
"""


def _attributes(pairs: list[tuple[str, str | None]]) -> str:
    return "".join(f' {name}="{html_text.escape(value)}"' for name, value in pairs if value)


def _html_cell(tag: str, kind: str, name: str | None, cell: str | Cell) -> str:
    escape = html_text.escape
    # a plain cell is a Cell of text alone: its kind and column, no sort value, no title
    cell = Cell(cell) if isinstance(cell, str) else cell
    attributes = [("class", f"{kind} {cell.classes}".strip()), ("data-column", name)]
    # an empty sort value still sorts (last), so it is written
    value = "" if cell.sort_value is None else f' data-value="{escape(cell.sort_value)}"'
    content = escape(cell.text)
    if cell.link:
        content = f'<a href="{escape(cell.link)}">{content}</a>'
    if cell.listed:
        listed = "".join(f"<li>{escape(item)}</li>" for item in cell.listed)
        content = f"<details><summary>{content}</summary><ul>{listed}</ul></details>"
    if cell.below:
        content += f"<br><small>{escape(cell.below)}</small>"
    return (
        f"<{tag}{_attributes(attributes)}{value}{_attributes([('title', cell.title)])}>"
        f"{content}</{tag}>"
    )


def _html_grid(grid: Grid) -> list[str]:
    kinds = grid.column_kinds()
    names = grid.names or [None] * len(kinds)

    def row(cells: list[str | Cell], tag: str, css_class: str = "") -> str:
        return f"<tr{_attributes([('class', css_class)])}>" + "".join(
            _html_cell(tag, kind, name, cell)
            for kind, name, cell in zip(kinds, names, cells, strict=True)
        ) + "</tr>"  # fmt: skip

    # a table wider than the page scrolls inside its own box: no cell is cut off at the
    # window's edge (a laptop's 1,400 pixels)
    table = f'<div class="scroll"><table{_attributes([("class", grid.css_class)])}>'
    lines = [table, "<thead>", row(grid.header, "th"), "</thead>", "<tbody>"]
    classes = grid.row_classes or [""] * len(grid.rows)
    lines += [row(cells, "td", css) for cells, css in zip(grid.rows, classes, strict=True)]
    return [*lines, "</tbody>", "</table></div>"]


def html(
    document: Document,
    about: list[str] = (),
    warning: str | None = None,
    style: str = "",
    script: str = "",
) -> str:
    """A standalone HTML page of ``document`` (the report shows it as it is): the title, a
    ``warning`` box (e.g. demo data), the tables, the notes, and ``about`` (the data note) as a
    list under them; an interactive page adds its ``style`` rules and its ``script``."""
    escape = html_text.escape
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        f"<title>{escape(document.title)}</title>",
        f"<style>{HTML_STYLE}{style}</style>",
        "</head>",
        "<body>",
        '<div class="mte">',
        f"<h1>{escape(document.title)}</h1>",
    ]
    if warning:
        lines.append(f'<p class="warning">{escape(warning)}</p>')
    for heading, grid in document.sections:
        if heading:
            lines.append(f"<h2>{escape(heading)}</h2>")
        lines += _html_grid(grid)
    lines += [f'<p class="note">{escape(note)}</p>' for note in document.notes]
    if about:
        lines += ["<h2>Data</h2>", "<ul>", *(f"<li>{escape(item)}</li>" for item in about), "</ul>"]
    lines.append("</div>")
    if script:
        lines.append(f"<script>{script}</script>")
    return "\n".join([*lines, "</body>", "</html>"]) + "\n"


def cell(row: pd.Series, column: str, second: str | None, marks: Marks = NO_MARKS) -> str:
    """One printed cell: one decimal, ``± std`` with several seeds, ``/ second`` (QA's EM),
    a sign on deltas, empty where there is no number; with ``marks``, a mark where the p-value
    against the baseline is below alpha and the bootstrap interval in brackets."""
    signed = row.get("row") == DELTA

    def number(col: str) -> str:
        value = row.get(col)
        if value is None or pd.isna(value):
            return published_gap(row, col)
        return f"{value:+.1f}" if signed else f"{value:.1f}"

    text = number(column)
    if text and f"{column}_std" in row and row.get("seeds", 1) > 1 and row.get("row") == OURS:
        text += f" ± {row[f'{column}_std']:.1f}"
    p_value = row.get(f"{column}_p")
    if text and marks.alpha is not None and p_value is not None and not pd.isna(p_value):
        text += SIGNIFICANT if p_value < marks.alpha else ""
    low, high = row.get(f"{column}_low"), row.get(f"{column}_high")
    if text and marks.intervals and low is not None and not pd.isna(low):
        text += f" [{low:.1f}, {high:.1f}]"
    if second:
        other = number(f"{column}_{second}")
        text = f"{text} / {other}" if text or other else ""
    return text


def published_gap(row: pd.Series, column: str) -> str:
    """What a published row prints for a cell without a number: n/s where the paper prints it
    and no readable source gives it, a dash where the published table has no such cell; other
    rows print nothing."""
    if row.get("row") != PUBLISHED:
        return ""
    return UNSOURCED if column in unsourced_columns(row) else NOT_PUBLISHED


def unsourced_note(table: pd.DataFrame, columns: list[str]) -> list[str]:
    """The note under a table with a published row that lacks one of ``columns`` (its
    n/s and dash explained), else none."""
    if "row" not in table or not (table["row"] == PUBLISHED).any():
        return []
    published = table[table["row"] == PUBLISHED]
    present = [c for c in columns if c in published]
    if not present or not published[present].isna().any().any():
        return []
    return [f"{UNSOURCED_NOTE}."]


def row_label(row: pd.Series) -> str:
    """The setting column of a row: the setting, and for a published or delta row its kind
    and source."""
    kind = row.get("row", OURS)
    if kind in (OURS, None) or pd.isna(kind):
        return row["setting"]
    source = row.get("reference")
    if source is not None and not pd.isna(source):
        return f"{row['setting']} ({kind}: {source})"
    return f"{row['setting']} ({kind})"


def task_document(
    table: pd.DataFrame,
    languages: list[str],
    title: str,
    second: str | None = None,
    marks: Marks = NO_MARKS,
) -> Document:
    """A task's table: one decimal as the papers print, ``mean ± std`` for several seeds;
    with ``second`` (a column suffix), cells read ``first / second`` (QA's F1 / EM);
    published and delta rows, where present, are labelled in the setting column; with
    ``marks``, bootstrap intervals and significance marks, explained under the table. With
    more than TRANSPOSE_ABOVE languages, languages are rows and model x setting columns."""
    columns = [*languages, AVERAGE]
    notes = [f"{note}." for note in legend(table, marks)]
    seconds = [f"{c}_{second}" for c in columns] if second else []
    notes += unsourced_note(table, [*columns, *seconds])
    rows = list(table.iterrows())
    if len(languages) > TRANSPOSE_ABOVE:
        heads = [f"{row['model']}, {row_label(row)}" for _, row in rows]
        body = [
            [column, *(cell(row, column, second, marks) for _, row in rows)] for column in columns
        ]
        return Document(title, [(None, Grid(["language", *heads], body, 1))], notes)
    body = [
        [row["model"], row_label(row), *(cell(row, column, second, marks) for column in columns)]
        for _, row in rows
    ]
    return Document(title, [(None, Grid(["model", "setting", *columns], body))], notes)


def pair_matrix_document(table: pd.DataFrame, pairs: list[str], title: str) -> Document:
    """MLQA's G-XLT layout: per model and setting, rows are context languages, columns
    question languages, cells the first metric (and the second after a slash)."""
    contexts = list(dict.fromkeys(p.split("-")[0] for p in pairs))
    questions = list(dict.fromkeys(p.split("-")[1] for p in pairs))
    sections: list[tuple[str | None, Grid]] = []
    for _, row in table.iterrows():
        body = []
        for c in contexts:
            cells = []
            for q in questions:
                pair = f"{c}-{q}"
                text = f"{row[pair]:.1f}" if pair in row else ""
                if pair in row and f"{pair}_em" in row:
                    text += f" / {row[f'{pair}_em']:.1f}"
                cells.append(text)
            body.append([c, *cells])
        heading = f"{row['model']}, {row['setting']} (rows: context, columns: question)"
        sections.append((heading, Grid(["context", *questions], body, 1)))
    return Document(title, sections)
