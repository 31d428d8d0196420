"""Aggregation of per-language score files into the papers' tables."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

AVERAGE = "avg"
# where a cell's p-value against the baseline row is below alpha, its number is marked
SIGNIFICANT = "*"


@dataclass(frozen=True)
class Marks:
    """What printed cells show beyond the number: bootstrap intervals (at ``confidence``) and
    significance marks (p < ``alpha`` against the ``baseline`` row)."""

    intervals: bool = False
    confidence: float = 0.95
    alpha: float | None = None
    baseline: tuple[str, str] | None = None


def task_table(scores: list[dict[str, Any]], languages: list[str], metric: str) -> pd.DataFrame:
    """Rows model x setting, columns ``languages`` + ``avg``, in percent as the papers print.

    A cell is the mean over seeds; ``avg`` is the unweighted mean over the languages. With more
    than one seed, ``{column}_std`` columns hold the sample standard deviation over seeds.
    """
    frame = pd.DataFrame(
        [
            {
                "model": s["model"],
                "setting": s["setting"],
                "seed": s["seed"],
                "language": s["language"],
                "value": 100.0 * s["metrics"][metric],
            }
            for s in scores
        ]
    )
    missing = sorted(set(languages) - set(frame["language"]))
    if missing:
        raise ValueError(f"no score for language(s) {', '.join(missing)}")
    per_seed = frame.pivot_table(
        index=["model", "setting", "seed"], columns="language", values="value", aggfunc="first"
    )[languages]
    per_seed[AVERAGE] = per_seed.mean(axis=1)
    grouped = per_seed.groupby(level=["model", "setting"], sort=False)
    # rows in the order the scores come (the config's order of models and settings)
    rows = list(dict.fromkeys(zip(frame["model"], frame["setting"], strict=True)))
    table = grouped.mean().reindex(rows)
    table.insert(0, "seeds", grouped.size().reindex(rows))
    if (table["seeds"] > 1).any():
        std = grouped.std(ddof=1).reindex(rows).add_suffix("_std")
        table = table.join(std)
    return table.reset_index()


Cell = tuple[str, str, str]


def _seed_means(
    scores: list[dict[str, Any]], values: Callable[[dict[str, Any]], Any]
) -> dict[Cell, np.ndarray]:
    """Per (model, setting, language): ``values`` of its score files averaged over seeds.
    A cell where a seed has none, or where the seeds' arrays differ in shape, is left out."""
    grouped: dict[Cell, list[Any]] = {}
    for s in scores:
        grouped.setdefault((s["model"], s["setting"], s["language"]), []).append(values(s))
    means = {}
    for cell, found in grouped.items():
        if all(v is not None and len(v) for v in found):
            arrays = [np.asarray(v, float) for v in found]
            if len({a.shape for a in arrays}) == 1:
                means[cell] = np.mean(arrays, axis=0)
    return means


def _with_row_columns(
    table: pd.DataFrame, columns: Callable[[pd.Series], dict[str, Any]]
) -> pd.DataFrame:
    """``table`` plus the columns that ``columns`` gives each row."""
    records = [columns(row) for _, row in table.iterrows()]
    return pd.concat([table, pd.DataFrame(records, index=table.index)], axis=1)


def with_intervals(
    table: pd.DataFrame, scores: list[dict[str, Any]], languages: list[str]
) -> pd.DataFrame:
    """``table`` plus ``{column}_low`` / ``{column}_high``: the bootstrap interval of each cell
    and of the average, in percent.

    A cell's replicates are its score files' replicates averaged over seeds (all seeds resample
    the same examples), the average's the mean of its languages' replicates: so the interval is
    that of the number printed. A cell without replicates (no per-example statistics) has none.
    """
    from mte.statistics import percentile_interval

    replicates = _seed_means(scores, lambda s: (s.get("interval") or {}).get("replicates"))
    confidences = [s["interval"]["confidence"] for s in scores if s.get("interval")]

    def intervals(row: pd.Series) -> dict[str, Any]:
        found = {
            lang: replicates[(row["model"], row["setting"], lang)]
            for lang in languages
            if (row["model"], row["setting"], lang) in replicates
        }
        if len(found) == len(languages):
            found[AVERAGE] = np.mean([found[lang] for lang in languages], axis=0)
        record = {}
        for column, values in found.items():
            low, high = percentile_interval(values, confidences[0])
            record[f"{column}_low"], record[f"{column}_high"] = 100 * low, 100 * high
        return record

    return _with_row_columns(table, intervals)


def with_significance(
    table: pd.DataFrame,
    scores: list[dict[str, Any]],
    task: Any,
    languages: list[str],
    baseline: tuple[str, str],
    trials: int,
    seed: int,
) -> pd.DataFrame:
    """``table`` plus ``{column}_p``: for every row but the baseline's, the p-value of a paired
    approximate randomization test against the baseline row, per language and on the average.

    Each side is its per-example statistics averaged over its seeds. Cells whose systems were
    not scored on the same examples (different counts), or whose metric has no per-example
    statistics, get no p-value.
    """
    from mte.statistics import paired_randomization, statistic

    if statistic(task, task.primary_metric) is None:
        return table
    stats = _seed_means(scores, lambda s: s.get("example_stats"))

    def p_values(row: pd.Series) -> dict[str, Any]:
        if (row["model"], row["setting"]) == tuple(baseline):
            return {}
        pairs = {}
        for lang in languages:
            a = stats.get((row["model"], row["setting"], lang))
            b = stats.get((baseline[0], baseline[1], lang))
            if a is not None and b is not None and a.shape == b.shape:
                pairs[lang] = (a, b)
        record = {}
        for lang, pair in pairs.items():
            test = paired_randomization(task, task.primary_metric, [pair], trials, seed)
            record[f"{lang}_p"] = test["p_value"]
        if len(pairs) == len(languages):
            test = paired_randomization(
                task, task.primary_metric, list(pairs.values()), trials, seed
            )
            record[f"{AVERAGE}_p"] = test["p_value"]
        return record

    return _with_row_columns(table, p_values)


def with_statistics(
    table: pd.DataFrame,
    scores: list[dict[str, Any]],
    task: Any,
    languages: list[str],
    options: dict[str, Any],
) -> tuple[pd.DataFrame, Marks]:
    """Intervals for every row and, with more than one row, p-values against the baseline row
    (the config's ``statistics.baseline``, else the first row); and the marks to print."""
    table = with_intervals(table, scores, languages)
    rows = list(zip(table["model"], table["setting"], strict=True))
    chosen = options.get("baseline")
    baseline = (chosen["model"], chosen["setting"]) if chosen else rows[0]
    compared = len(rows) > 1 and baseline in rows
    if compared:
        table = with_significance(
            table, scores, task, languages, baseline, options["trials"], options["seed"]
        )
    marks = Marks(
        intervals=options["intervals_in_tables"],
        confidence=options["confidence"],
        alpha=options["alpha"] if compared else None,
        baseline=baseline if compared else None,
    )
    return table, marks


def with_second_metric(table: pd.DataFrame, second: pd.DataFrame, suffix: str) -> pd.DataFrame:
    """``table`` plus the value columns of a second metric's table, suffixed (QA: F1 and EM)."""
    values = [c for c in second.columns if c not in ("model", "setting", "seeds")]
    return table.join(second[values].add_suffix(f"_{suffix}"))


OURS, PUBLISHED, DELTA = "ours", "published", "ours - published"


def with_references(
    table: pd.DataFrame,
    references: list[dict[str, Any]],
    task: str,
    languages: list[str],
    metrics: dict[str, str],
) -> pd.DataFrame:
    """``table`` with a ``row`` column, and after each (model, setting) row that has published
    numbers for the same model name, per paper and table that publish them a ``published`` row
    and an ``ours - published`` row, labelled in a ``reference`` column.

    ``metrics``: column suffix -> metric (``{"": "f1", "_em": "exact_match"}`` for QA). A
    published average covers the table's languages only when the paper has all of them. An
    entry with only an average (XTREME's Table 2) is its task's average over all its languages:
    it is printed in ``avg``, and its delta only when the table covers those languages too
    (else the row's label says what the average is over, and the delta stays empty).
    """
    from mte.references import find_references, label
    from mte.tasks import get_task

    every_language = set(languages) == set(get_task(task).languages)

    every = len(get_task(task).languages)

    def published_of(row: pd.Series) -> list[tuple[str, dict[str, Any], set[str]]]:
        by_source: dict[str, dict[str, Any]] = {}
        apart: dict[str, set[str]] = {}
        for suffix, metric in metrics.items():
            for entry in find_references(references, row["model"], task, row["setting"], metric):
                source = label(entry)
                if not entry["values"] and not every_language:
                    source += f" (avg over all {every} languages)"
                    apart.setdefault(source, set()).add(f"{AVERAGE}{suffix}")
                published = by_source.setdefault(source, {})
                if not entry["values"]:
                    published[f"{AVERAGE}{suffix}"] = entry["average"]
                    continue
                values = [entry["values"].get(lang) for lang in languages]
                for lang, value in zip(languages, values, strict=True):
                    published[f"{lang}{suffix}"] = value
                complete = all(v is not None for v in values)
                published[f"{AVERAGE}{suffix}"] = sum(values) / len(values) if complete else None
        return [
            (source, published, apart.get(source, set()))
            for source, published in by_source.items()
            if any(value is not None for value in published.values())
        ]

    return interleave_published(table, published_of)


def interleave_published(
    table: pd.DataFrame,
    published_of: Callable[[pd.Series], list[tuple[str, dict[str, Any], set[str]]]],
) -> pd.DataFrame:
    """``table`` with a ``row`` column; after each row, for every (reference label, published
    values, columns not to compare) that ``published_of(row)`` gives (column -> number, or None
    where the paper has none), a ``published`` row and an ``ours - published`` row, labelled in
    a ``reference`` column (present only when some row has one)."""
    rows = []
    for _, row in table.iterrows():
        ours = {**row.to_dict(), "row": OURS}
        rows.append(ours)
        key = {"model": row["model"], "setting": row["setting"]}
        for source, published, apart in published_of(row):
            rows.append({**key, **published, "row": PUBLISHED, "reference": source})
            delta = {
                c: ours[c] - value
                for c, value in published.items()
                if value is not None
                and c not in apart
                and ours.get(c) is not None
                and not pd.isna(ours[c])
            }
            rows.append({**key, **delta, "row": DELTA, "reference": source})
    labelled = any("reference" in r for r in rows)
    columns = [
        "model",
        "setting",
        "row",
        *(["reference"] if labelled else []),
        *[c for c in table.columns if c not in ("model", "setting")],
    ]
    return pd.DataFrame(rows).reindex(columns=columns)


def _cell(row: pd.Series, column: str, second: str | None, marks: Marks = Marks()) -> str:
    """One printed cell: one decimal, ``± std`` with several seeds, ``/ second`` (QA's EM),
    a sign on deltas, empty where there is no number; with ``marks``, a mark where the p-value
    against the baseline is below alpha and the bootstrap interval in brackets."""
    signed = row.get("row") == DELTA

    def number(col: str) -> str:
        value = row.get(col)
        if value is None or pd.isna(value):
            return ""
        return f"{value:+.1f}" if signed else f"{value:.1f}"

    cell = number(column)
    if cell and f"{column}_std" in row and row.get("seeds", 1) > 1 and row.get("row") == OURS:
        cell += f" ± {row[f'{column}_std']:.1f}"
    p_value = row.get(f"{column}_p")
    if cell and marks.alpha is not None and p_value is not None and not pd.isna(p_value):
        cell += SIGNIFICANT if p_value < marks.alpha else ""
    low, high = row.get(f"{column}_low"), row.get(f"{column}_high")
    if cell and marks.intervals and low is not None and not pd.isna(low):
        cell += f" [{low:.1f}, {high:.1f}]"
    if second:
        other = number(f"{column}_{second}")
        cell = f"{cell} / {other}" if cell or other else ""
    return cell


def _label(row: pd.Series) -> str:
    kind = row.get("row", OURS)
    if kind in (OURS, None) or pd.isna(kind):
        return row["setting"]
    source = row.get("reference")
    if source is not None and not pd.isna(source):
        return f"{row['setting']} ({kind}: {source})"
    return f"{row['setting']} ({kind})"


# above this many languages a table is printed transposed (a row per language, a column per
# model and setting): SIB-200's 205 language columns would not stay readable
TRANSPOSE_ABOVE = 20


def to_markdown(
    table: pd.DataFrame,
    languages: list[str],
    title: str,
    second: str | None = None,
    marks: Marks = Marks(),
) -> str:
    """A Markdown table: one decimal as the papers print, ``mean ± std`` for several seeds;
    with ``second`` (a column suffix), cells read ``first / second`` (QA's F1 / EM);
    published and delta rows, where present, are labelled in the setting column; with
    ``marks``, bootstrap intervals and significance marks, explained under the table. With
    more than TRANSPOSE_ABOVE languages, languages are rows and model x setting columns."""
    columns = [*languages, AVERAGE]
    notes = "".join(f"\n{note}.\n" for note in legend(table, marks))
    if len(languages) > TRANSPOSE_ABOVE:
        heads = [f"{row['model']}, {_label(row)}" for _, row in table.iterrows()]
        lines = [f"# {title}", "", "| " + " | ".join(["language", *heads]) + " |"]
        lines.append("|---|" + "---:|" * len(heads))
        for column in columns:
            cells = [_cell(row, column, second, marks) for _, row in table.iterrows()]
            lines.append("| " + " | ".join([column, *cells]) + " |")
        return "\n".join(lines) + "\n" + notes
    header = ["model", "setting", *columns]
    lines = [f"# {title}", "", "| " + " | ".join(header) + " |"]
    lines.append("|" + "---|" * 2 + "---:|" * len(columns))
    for _, row in table.iterrows():
        cells = [_cell(row, column, second, marks) for column in columns]
        lines.append("| " + " | ".join([row["model"], _label(row), *cells]) + " |")
    return "\n".join(lines) + "\n" + notes


def legend(table: pd.DataFrame, marks: Marks) -> list[str]:
    """What the brackets and marks of a table mean, printed under it."""
    notes = []
    if marks.intervals and any(c.endswith("_low") for c in table.columns):
        notes.append(
            f"[low, high]: bootstrap {100 * marks.confidence:g}% interval over test examples"
        )
    if marks.alpha is not None and marks.baseline and any(c.endswith("_p") for c in table.columns):
        model, setting = marks.baseline
        notes.append(
            f"{SIGNIFICANT}: differs from {model}, {setting} "
            f"(paired approximate randomization test, p < {marks.alpha:g})"
        )
    return notes


LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#",
    "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}",
    "±": r"$\pm$", "<": r"$<$",
}  # fmt: skip


def _latex_escape(text: str) -> str:
    """Text safe inside a LaTeX table cell (one pass, so escapes are not escaped again)."""
    return "".join(LATEX_SPECIAL.get(char, char) for char in text)


def to_latex(
    table: pd.DataFrame,
    languages: list[str],
    title: str,
    second: str | None = None,
    marks: Marks = Marks(),
) -> str:
    """The same table as LaTeX with booktabs rules (``\\usepackage{booktabs}``), ready to
    paste: a ``table`` float with the title as caption."""
    columns = [*languages, AVERAGE]
    if len(languages) > TRANSPOSE_ABOVE:  # a row per language, as in to_markdown
        heads = [f"{row['model']}, {_label(row)}" for _, row in table.iterrows()]
        lines = [
            r"\begin{table}[t]",
            r"\centering",
            r"\small",
            r"\begin{tabular}{l" + "r" * len(heads) + "}",
            r"\toprule",
            " & ".join(["Language", *(_latex_escape(h) for h in heads)]) + r" \\",
            r"\midrule",
        ]
        for column in columns:
            cells = [
                _latex_escape(_cell(row, column, second, marks)) for _, row in table.iterrows()
            ]
            lines.append(" & ".join([_latex_escape(column), *cells]) + r" \\")
    else:
        lines = [
            r"\begin{table}[t]",
            r"\centering",
            r"\small",
            r"\begin{tabular}{ll" + "r" * len(columns) + "}",
            r"\toprule",
            " & ".join(["Model", "Setting", *columns]) + r" \\",
            r"\midrule",
        ]
        for _, row in table.iterrows():
            cells = [_latex_escape(_cell(row, column, second, marks)) for column in columns]
            label = _latex_escape(_label(row))
            lines.append(" & ".join([_latex_escape(row["model"]), label, *cells]) + r" \\")
    caption = " ".join([title, *(f"{note}." for note in legend(table, marks))])
    lines += [
        r"\bottomrule",
        r"\end{tabular}",
        r"\caption{" + _latex_escape(caption) + "}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"


def pair_matrix_markdown(table: pd.DataFrame, pairs: list[str], title: str) -> str:
    """MLQA's G-XLT layout: per model and setting, rows are context languages, columns
    question languages, cells the first metric (and the second after a slash)."""
    contexts = list(dict.fromkeys(p.split("-")[0] for p in pairs))
    questions = list(dict.fromkeys(p.split("-")[1] for p in pairs))
    lines = [f"# {title}"]
    for _, row in table.iterrows():
        lines += ["", f"## {row['model']}, {row['setting']} (rows: context, columns: question)"]
        lines += ["", "| context | " + " | ".join(questions) + " |"]
        lines.append("|---|" + "---:|" * len(questions))
        for c in contexts:
            cells = []
            for q in questions:
                pair = f"{c}-{q}"
                cell = f"{row[pair]:.1f}" if pair in row else ""
                if pair in row and f"{pair}_em" in row:
                    cell += f" / {row[f'{pair}_em']:.1f}"
                cells.append(cell)
            lines.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
