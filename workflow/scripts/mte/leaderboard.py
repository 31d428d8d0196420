"""A leaderboard across runs: any number of run folders (``results/runs/{run}``, each with the
``scores.csv`` index its ``describe_run`` job writes) read into one table, a row per model x
setting x run, a column per suite average (XTREME's, GLUE's) and per task average, each with its
bootstrap interval, a paired significance test against the column's best row where both rows
scored the same test items, and the published rows of both papers (``config/references``)
beside ours. Written as ``leaderboard.csv`` and a sortable ``leaderboard.html``
(``mte-leaderboard``, ``make leaderboard``; docs/leaderboard.md).

A column is a weighted sum of per-language metrics (its "terms"): a task's average is the mean
of its primary metric over the row's languages, as the run's own table prints it; a suite's is
the suite's average (XTREME: per task the mean over its languages of the task's summary cell,
QA's the mean of F1 and exact match; GLUE: mean over its averaged tasks' metrics), as the run's
suite table prints it. Intervals and tests follow the same weights, on the bootstrap resamples
and per-example statistics of the score files (mte.stats.statistics).
"""

from __future__ import annotations

import argparse
import html as html_text
import json
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mte.errors import InputError, MteError
from mte.registry import all_suites, family_of, get_task
from mte.stats.statistics import (
    bootstrap_replicates,
    has_statistics,
    paired_randomization_weighted,
    percentile_interval,
)
from mte.tables.notes import demo_warning
from mte.tables.render import HTML_STYLE
from mte.tasks.spec import Suite

# the run folder's index of its score files, written by the describe_run rule
SCORES_INDEX = "scores.csv"
INDEX_COLUMNS = ("task", "model", "setting", "seed", "language", "path")
# where a cell's p-value against its column's best row is below alpha, its number is marked
SIGNIFICANT = "*"
OURS, PUBLISHED = "ours", "published"


def scores_index(records: Sequence[dict[str, Any]], paths: Sequence[str]) -> pd.DataFrame:
    """A run's score files (``paths``, relative to the folder that holds ``results/``) by task,
    model, setting, seed and language: what a leaderboard reads of the run."""
    rows = [
        {**{key: record[key] for key in INDEX_COLUMNS[:-1]}, "path": str(path)}
        for record, path in zip(records, paths, strict=True)
    ]
    return pd.DataFrame(rows, columns=list(INDEX_COLUMNS)).sort_values(
        list(INDEX_COLUMNS[:5]), kind="stable"
    )


@dataclass
class Run:
    """A run folder's score records, with where they were read."""

    folder: Path
    name: str
    scores: list[dict[str, Any]]


def read_run(folder: str | Path) -> Run:
    """The score records a run folder's index names. The index's paths are relative to the
    folder that holds ``results/`` (the folder's third parent), so a results tree copied from
    another machine reads as it was written."""
    folder = Path(folder)
    index = folder / SCORES_INDEX
    if not index.is_file():
        raise InputError(
            index,
            None,
            f"{folder} is not a run folder: it has no {SCORES_INDEX} (the index that snakemake's "
            "describe_run job writes into results/runs/<run>/; rerun snakemake for that run)",
        )
    table = pd.read_csv(index, dtype=str, keep_default_na=False)
    missing = [column for column in INDEX_COLUMNS if column not in table.columns]
    if missing:
        raise InputError(index, 1, f"the header lacks {', '.join(missing)}")
    root = folder.resolve().parents[2]
    scores = []
    for line, path in enumerate(table["path"], start=2):
        file = root / path
        if not file.is_file():
            raise InputError(index, line, f"names {path}, which is not at {file}")
        scores.append(json.loads(file.read_text(encoding="utf-8")))
    if not scores:
        raise InputError(index, None, "names no score file")
    return Run(folder, folder.name, scores)


@dataclass
class LanguageCell:
    """One task x language of a row: per metric the value (a fraction) and bootstrap
    replicates averaged over the row's seeds, the per-example statistics averaged over seeds,
    and the test file's checksum (None where the seeds were scored on different files)."""

    task: str
    language: str
    scores: list[dict[str, Any]]
    _replicates: dict[str, np.ndarray | None] = field(default_factory=dict)

    def value(self, metric: str) -> float:
        return float(np.mean([s["metrics"][metric] for s in self.scores]))

    def replicates(self, metric: str) -> np.ndarray | None:
        """The metric's replicates averaged over seeds: each score file's stored ones for its
        interval's metric, else drawn again from its per-example statistics with the seed and
        number of resamples it recorded (the same resamples, so a QA cell's F1 and exact
        match replicates pair up)."""
        if metric not in self._replicates:
            per_seed = [_score_replicates(self.task, s, metric) for s in self.scores]
            shapes = {None if r is None else r.shape for r in per_seed}
            self._replicates[metric] = (
                None if None in shapes or len(shapes) != 1 else np.mean(per_seed, axis=0)
            )
        return self._replicates[metric]

    @cached_property
    def example_stats(self) -> np.ndarray | None:
        found = [s.get("example_stats") for s in self.scores]
        if any(not f for f in found):
            return None
        arrays = [np.asarray(f, float) for f in found]
        if len({a.shape for a in arrays}) != 1:
            return None
        return np.mean(arrays, axis=0)

    @cached_property
    def test_items(self) -> str | None:
        """The checksum of the scored test file (the last data record of the provenance)."""
        found = {_test_checksum(s) for s in self.scores}
        return found.pop() if len(found) == 1 else None

    @property
    def confidence(self) -> float | None:
        found = [(s.get("interval") or {}).get("confidence") for s in self.scores]
        return found[0] if found and found[0] is not None else None


def _test_checksum(score: dict[str, Any]) -> str | None:
    data = (score.get("provenance") or {}).get("data") or []
    return data[-1].get("sha256_jsonl") if data else None


def _score_replicates(task: str, score: dict[str, Any], metric: str) -> np.ndarray | None:
    interval = score.get("interval")
    if not interval:
        return None
    if interval.get("metric") == metric and interval.get("replicates"):
        return np.asarray(interval["replicates"], float)
    kind = family_of(get_task(task)).sufficient_statistics(get_task(task))
    stats = score.get("example_stats")
    if not stats or not has_statistics(kind, metric):
        return None
    seed = interval["seed"]
    return bootstrap_replicates(kind, metric, np.asarray(stats, float), interval["resamples"], seed)


# a column's definition for one row: (task, language, metric, weight) terms
Terms = list[tuple[str, str, str, float]]


@dataclass
class Row:
    """A leaderboard row: ours (a model x setting of a run) or a published one."""

    kind: str
    model: str
    setting: str
    label: str
    run: str = ""
    seeds: str = ""
    provenance: str = ""
    sources: dict[str, str] = field(default_factory=dict)
    cells: dict[tuple[str, str], LanguageCell] = field(default_factory=dict)
    published: dict[str, float] = field(default_factory=dict)
    demo: list[dict[str, Any]] = field(default_factory=list)

    def languages(self, task: str) -> list[str]:
        return sorted(language for t, language in self.cells if t == task)


@dataclass(frozen=True)
class Column:
    """A column: a suite's average (``suite``) or a task's (``task``)."""

    name: str
    title: str
    suite: Suite | None = None

    def terms(self, row: Row) -> Terms | None:
        """How the row's value of this column is formed from its languages' metrics, or None
        where the row lacks what it needs (a suite's task, or the suite's languages)."""
        if self.suite is None:
            languages = row.languages(self.name)
            if not languages:
                return None
            metric = get_task(self.name).primary_metric
            return [(self.name, lang, metric, 1 / len(languages)) for lang in languages]
        return suite_terms(self.suite, row)


def suite_terms(suite: Suite, row: Row) -> Terms | None:
    """A suite's average as terms (mte.steps.summary's averages, written as weights): every task of
    the suite on the suite's languages, else None (an average over other tasks or languages is
    not the suite's, and is not ranked beside it)."""
    if suite.layout == "task_score":
        terms: Terms = []
        for name in suite.tasks:
            task = get_task(name)
            languages = row.languages(name)
            if not languages or set(languages) != set(suite.task_languages(task)):
                return None
            metrics = family_of(task).cell_metrics(task)
            weight = 1 / (len(suite.tasks) * len(languages) * len(metrics))
            terms += [(name, lang, m, weight) for lang in languages for m in metrics]
        return terms
    averaged = suite.averaged or suite.tasks
    if any(not row.languages(name) for name in averaged):
        return None
    # GLUE's average (mte.steps.summary.suite_average): the mean over groups (MNLI-m and -mm are
    # one) of the mean of the group's metrics
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in averaged:
        groups.setdefault(suite.merged.get(name, name), []).extend(
            (name, metric) for metric in get_task(name).metrics
        )
    terms = []
    for members in groups.values():
        for name, metric in members:
            languages = row.languages(name)
            weight = 1 / (len(groups) * len(members) * len(languages))
            terms += [(name, lang, metric, weight) for lang in languages]
    return terms


def ours_rows(runs: Sequence[Run]) -> list[Row]:
    """A row per run x model x setting, in the runs' order; seeds averaged."""
    names = [run.name for run in runs]
    rows = []
    for run in runs:
        # two folders named alike (default of two checkouts) are told apart by their paths
        label = run.name if names.count(run.name) == 1 else str(run.folder)
        grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for score in run.scores:
            grouped.setdefault((score["model"], score["setting"]), []).append(score)
        for (model, setting), scores in grouped.items():
            row = Row(
                OURS,
                model,
                setting,
                label=model,
                run=label,
                seeds=" ".join(sorted({str(s["seed"]) for s in scores}, key=_seed_order)),
                provenance=str(run.folder / "provenance.html"),
            )
            by_cell: dict[tuple[str, str], list[dict[str, Any]]] = {}
            for score in scores:
                by_cell.setdefault((score["task"], score["language"]), []).append(score)
            row.cells = {key: LanguageCell(key[0], key[1], found) for key, found in by_cell.items()}
            row.demo = [s for s in scores if _is_demo(s)]
            rows.append(row)
    return rows


def _seed_order(seed: str) -> tuple[int, str]:
    return (int(seed), "") if seed.isdigit() else (sys.maxsize, seed)


def _is_demo(score: dict[str, Any]) -> bool:
    data = (score.get("provenance") or {}).get("data") or []
    return any(record.get("source") == "demo" for record in data)


def published_rows(references: Sequence[dict[str, Any]], columns: Sequence[Column]) -> list[Row]:
    """A row per paper x model x setting of the published numbers: a task column takes an
    entry's average of the task's primary metric; a suite column an entry for the suite
    (GLUE's), else, for a "task_score" suite, the mean of its tasks' published cells (QA's
    mean of F1 and exact match: only where both were published) when every task has one."""
    entries: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for entry in references:
        if entry.get("average") is not None:
            entries.setdefault((entry["paper"], entry["model"], entry["setting"]), []).append(entry)
    rows = []
    for (paper, model, setting), found in entries.items():
        row = Row(PUBLISHED, model, setting, label=f"{found[0].get('row') or model} ({paper})")
        by_cell = {(e["task"], e["metric"]): e for e in reversed(found)}  # the first wins
        for column in columns:
            if column.suite is None:
                entry = by_cell.get((column.name, get_task(column.name).primary_metric))
                if entry:
                    row.published[column.name] = float(entry["average"])
                    row.sources[column.name] = _source(entry)
            elif entry := by_cell.get((column.name, "score")):
                row.published[column.name] = float(entry["average"])
                row.sources[column.name] = _source(entry)
            elif column.suite.layout == "task_score" and paper == column.suite.published[0]:
                value = _published_suite_score(column.suite, references, model, setting)
                if value is not None:
                    row.published[column.name] = value
                    row.sources[column.name] = "the mean of this row's task scores"
        if row.published:
            rows.append(row)
    return rows


def _published_suite_score(
    suite: Suite, references: Sequence[dict[str, Any]], model: str, setting: str
) -> float | None:
    """The mean of the suite's published task scores in its paper's table, as the run's suite
    table computes it (mte.tables.references.published_task_score), when every task has one."""
    from mte.tables.references import published_task_score

    scores = []
    for name in suite.tasks:
        task = get_task(name)
        metrics = family_of(task).cell_metrics(task)
        found = published_task_score(references, model, name, setting, metrics, suite.published)
        if found is None:
            return None
        scores.append(found[0])
    return sum(scores) / len(scores)


def _source(entry: dict[str, Any]) -> str:
    return f"{entry['paper']} {entry['table']}, {entry['protocol']}; read in {entry['source']}"


def columns_for(rows: Sequence[Row], references: Iterable[dict[str, Any]] = ()) -> list[Column]:
    """The suites any of our rows completes, then every task our rows ran or a published row
    gives, in the registry's order."""
    from mte.registry import TASKS

    ran = {task for row in rows for task, _ in row.cells}
    published = {entry["task"] for entry in references if entry.get("average") is not None}
    suites = [
        Column(suite.name, suite.short, suite)
        for suite in all_suites().values()
        if any(suite_terms(suite, row) for row in rows) or suite.name in published
    ]
    tasks = [
        Column(name, get_task(name).title) for name in TASKS if name in ran or name in published
    ]
    return [*suites, *tasks]


@dataclass
class Value:
    """A row's value in a column (percent), its interval, and its test against the best."""

    value: float
    low: float | None = None
    high: float | None = None
    languages: int | None = None
    p: float | None = None
    best: bool = False
    source: str = ""


def column_value(row: Row, column: Column) -> Value | None:
    if row.kind == PUBLISHED:
        if column.name not in row.published:
            return None
        return Value(row.published[column.name], source=row.sources.get(column.name, ""))
    terms = column.terms(row)
    if terms is None:
        return None
    value = 100 * sum(w * row.cells[(t, lang)].value(m) for t, lang, m, w in terms)
    languages = len({(t, lang) for t, lang, _, _ in terms})
    replicates = [row.cells[(t, lang)].replicates(m) for t, lang, m, _ in terms]
    confidences = {row.cells[(t, lang)].confidence for t, lang, _, _ in terms}
    low = high = None
    if all(r is not None for r in replicates) and len({r.shape for r in replicates}) == 1:
        combined = 100 * sum(w * r for (_, _, _, w), r in zip(terms, replicates, strict=True))
        if len(confidences) == 1 and None not in confidences:
            low, high = percentile_interval(combined, confidences.pop())
    return Value(value, low, high, languages)


def paired_test(row: Row, best: Row, column: Column, trials: int, seed: int) -> float | None:
    """The p-value of the paired randomization test of ``row`` against ``best`` on the
    column's statistic, or None where the two did not score the same test items (other
    languages or files, other numbers of examples) or a metric has no per-example
    statistics."""
    terms, best_terms = column.terms(row), column.terms(best)
    if terms is None or best_terms is None or sorted(terms) != sorted(best_terms):
        return None
    weights: dict[tuple[str, str], dict[str, float]] = {}
    for task, language, metric, weight in terms:
        weights.setdefault((task, language), {})[metric] = weight
    sets = []
    for (task, language), metrics in weights.items():
        a, b = row.cells[(task, language)], best.cells[(task, language)]
        kind = family_of(get_task(task)).sufficient_statistics(get_task(task))
        if not all(has_statistics(kind, metric) for metric in metrics):
            return None
        if a.test_items is None or a.test_items != b.test_items:
            return None
        stats_a, stats_b = a.example_stats, b.example_stats
        if stats_a is None or stats_b is None or stats_a.shape != stats_b.shape:
            return None
        sets.append((kind, metrics, stats_a, stats_b))
    return paired_randomization_weighted(sets, trials, seed)["p_value"]


@dataclass
class Leaderboard:
    columns: list[Column]
    rows: list[Row]
    values: list[dict[str, Value]]
    alpha: float
    demo: str | None = None

    def table(self) -> pd.DataFrame:
        """The CSV's frame: identity columns, then per column value, interval, languages and
        p-value against the column's best row, then the published rows' sources."""
        records = []
        for row, values in zip(self.rows, self.values, strict=True):
            record: dict[str, Any] = {
                "row": row.kind,
                "label": row.label,
                "model": row.model,
                "setting": row.setting,
                "run": row.run,
                "seeds": row.seeds,
            }
            for column in self.columns:
                value = values.get(column.name)
                record[column.name] = value.value if value else None
                record[f"{column.name}_low"] = value.low if value else None
                record[f"{column.name}_high"] = value.high if value else None
                record[f"{column.name}_languages"] = value.languages if value else None
                record[f"{column.name}_p"] = value.p if value else None
                record[f"{column.name}_best"] = bool(value and value.best)
            record["provenance"] = row.provenance
            record["source"] = " | ".join(dict.fromkeys(row.sources.values()))
            if self.demo:
                record["data_note"] = self.demo if row.demo else ""
            records.append(record)
        table = pd.DataFrame(records)
        for column in self.columns:
            table[f"{column.name}_languages"] = table[f"{column.name}_languages"].astype("Int64")
        return table


def build_leaderboard(
    runs: Sequence[Run],
    references: Sequence[dict[str, Any]] = (),
    alpha: float = 0.05,
    trials: int = 10000,
    seed: int = 12345,
) -> Leaderboard:
    """Our rows from ``runs`` and the published rows from ``references``; in each column the
    best of our rows is marked and every other row of ours that scored the same test items is
    tested against it."""
    from tqdm import tqdm

    ours = ours_rows(runs)
    columns = columns_for(ours, references)
    rows = ours + published_rows(references, columns)
    values: list[dict[str, Value]] = [{} for _ in rows]
    tests: list[tuple[int, int, Column]] = []  # (row, best row, column)
    for column in columns:
        for i, row in enumerate(rows):
            if (value := column_value(row, column)) is not None:
                values[i][column.name] = value
        scored = [i for i, row in enumerate(ours) if column.name in values[i]]
        if not scored:
            continue
        best = max(scored, key=lambda i: values[i][column.name].value)
        values[best][column.name].best = True
        tests += [(i, best, column) for i in scored if i != best]
    # a test resamples every example of its column trials times: minutes for XTREME's suite
    for i, best, column in tqdm(tests, desc="paired tests", unit="test", disable=None):
        values[i][column.name].p = paired_test(ours[i], ours[best], column, trials, seed)
    demo = [score for row in ours for score in row.demo]
    return Leaderboard(columns, rows, values, alpha, demo_warning(demo) if demo else None)


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
.mte td.best { font-weight: bold; }
.mte td[data-column=label] { white-space: normal; min-width: 12em; max-width: 24em; }
.mte td[data-column=provenance] { white-space: normal; max-width: 40em; }
.mte details ul { margin: 0.2em 0; padding-left: 1.2em; font-size: 0.9em; }
"""


def leaderboard_html(board: Leaderboard, out_dir: Path) -> str:
    """The sortable page: a header cell per column (a click sorts), our rows and the published
    rows, each of ours linking to its run's provenance page (relative to ``out_dir``)."""
    escape = html_text.escape
    identity = [("label", "model", "text"), ("setting", "setting", "text"), ("run", "run", "text")]
    header = [
        f'<th data-type="{kind}" data-column="{name}">{escape(title)}</th>'
        for name, title, kind in identity
    ]
    header += [
        f'<th data-type="number" data-column="{c.name}">{escape(c.title)}</th>'
        for c in board.columns
    ]
    header.append('<th data-type="text" data-column="provenance">provenance</th>')
    lines = []
    for row, values in zip(board.rows, board.values, strict=True):
        cells = [
            _text_cell("label", row.label, row.model),
            _text_cell("setting", row.setting),
            _text_cell("run", row.run),
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
            cells.append(
                f'<td class="{classes}" data-column="{column.name}" data-value="{data}"{title}>'
                f"{escape(printed_cell(value, board.alpha))}</td>"
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
        lines.append(f'<tr class="{row.kind}">' + "".join(cells) + "</tr>")
    notes = [
        "Click a column's header to sort by it; click again to reverse.",
        "A cell: the mean over the row's languages (seeds averaged) in percent, with its "
        "bootstrap 95% interval over test examples; bold: the best of our rows in the column.",
        f"{SIGNIFICANT}: differs from the column's best row (paired approximate randomization "
        f"test over the same test items, p < {board.alpha:g}); rows scored on other items are "
        "not tested.",
        "Suite columns (XTREME, GLUE, ...) only for rows that ran every task of the suite on its "
        "languages. Published rows (italic): the papers' averages as config/references enters "
        "them, with their sources; they are not tested.",
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
                "<thead><tr>" + "".join(header) + "</tr></thead>",
                "<tbody>",
                *lines,
                "</tbody>",
                "</table>",
                *(f'<p class="note">{escape(note)}</p>' for note in notes),
                "</div>",
                f"<script>{SORT_SCRIPT}</script>",
                "</body>",
                "</html>",
            ]
        )
        + "\n"
    )


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


def main(argv: Sequence[str] | None = None) -> int:
    """``mte-leaderboard RUN_FOLDER [RUN_FOLDER ...] --out DIR``."""
    from mte.tables.references import load_references

    parser = argparse.ArgumentParser(
        prog="mte-leaderboard",
        description="One leaderboard (CSV and a sortable HTML page) across run folders "
        "(results/runs/<run>), with the published rows of config/references beside them.",
    )
    parser.add_argument("runs", nargs="+", help="run folders: results/runs/<run> of any checkout")
    parser.add_argument("--out", default="results/leaderboard", help="where to write (%(default)s)")
    parser.add_argument(
        "--references",
        default="config/references",
        help="a folder of published-number files, *.yaml (%(default)s); 'none' for none",
    )
    parser.add_argument(
        "--alpha", type=float, default=0.05, help="marked where p < alpha (%(default)s)"
    )
    parser.add_argument(
        "--trials", type=int, default=10000, help="randomization trials per test (%(default)s)"
    )
    parser.add_argument("--seed", type=int, default=12345, help="the tests' seed (%(default)s)")
    args = parser.parse_args(argv)
    try:
        runs = [read_run(folder) for folder in args.runs]
        references = []
        if args.references != "none":
            folder = Path(args.references)
            if not folder.is_dir():
                raise InputError(folder, None, "--references: not a folder")
            references = load_references(sorted(folder.glob("*.yaml")))
        board = build_leaderboard(runs, references, args.alpha, args.trials, args.seed)
        csv, page = write_leaderboard(board, args.out)
    except MteError as error:  # a file or line, or a config key (a task no longer known)
        print(f"mte-leaderboard: {error}", file=sys.stderr)
        return 1
    ours = sum(row.kind == OURS for row in board.rows)
    published = len(board.rows) - ours
    print(f"{ours} rows of {len(runs)} run folder(s) and {published} published: {csv}, {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
