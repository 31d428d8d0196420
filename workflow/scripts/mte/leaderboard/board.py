"""The leaderboard's rows (ours per model x setting x run, and the papers' published rows), its
columns (suite and task averages as weighted sums of per-language metrics), each cell's value,
interval and paired test against the column's best row."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from mte.leaderboard.runs import LanguageCell, Run
from mte.registry import all_suites, family_of, get_task
from mte.stats.statistics import (
    has_statistics,
    paired_randomization_weighted,
    percentile_interval,
)
from mte.tables.notes import demo_warning, on_demo_data, score_method
from mte.tables.published_rows import OURS, PUBLISHED
from mte.tasks.spec import Suite

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
    # how the model learned the tasks (full fine-tune, LoRA, in context; mte.tables.notes)
    method: str = ""
    provenance: str = ""
    sources: dict[str, str] = field(default_factory=dict)
    cells: dict[tuple[str, str], LanguageCell] = field(default_factory=dict)
    published: dict[str, float | None] = field(default_factory=dict)
    # a published task cell's language count (its paper's set for the task)
    languages: dict[str, int] = field(default_factory=dict)
    demo: list[dict[str, Any]] = field(default_factory=list)

    def ran(self, task: str) -> list[str]:
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
            languages = row.ran(self.name)
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
            languages = row.ran(name)
            if not languages or set(languages) != set(suite.task_languages(task)):
                return None
            metrics = family_of(task).cell_metrics(task)
            weight = 1 / (len(suite.tasks) * len(languages) * len(metrics))
            terms += [(name, lang, m, weight) for lang in languages for m in metrics]
        return terms
    averaged = suite.averaged or suite.tasks
    if any(not row.ran(name) for name in averaged):
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
            languages = row.ran(name)
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
                method=", ".join(sorted({score_method(s) for s in scores})),
                provenance=str(run.folder / "provenance.html"),
            )
            by_cell: dict[tuple[str, str], list[dict[str, Any]]] = {}
            for score in scores:
                by_cell.setdefault((score["task"], score["language"]), []).append(score)
            row.cells = {key: LanguageCell(key[0], key[1], found) for key, found in by_cell.items()}
            row.demo = [s for s in scores if on_demo_data(s)]
            rows.append(row)
    return rows


def _seed_order(seed: str) -> tuple[int, str]:
    return (int(seed), "") if seed.isdigit() else (sys.maxsize, seed)


def published_rows(references: Sequence[dict[str, Any]], columns: Sequence[Column]) -> list[Row]:
    """A row per paper x model x setting of the published numbers: a task column takes an
    entry's average of the task's primary metric; a suite column an entry for the suite
    (GLUE's), else, for a "task_score" suite, the mean of its tasks' published cells (QA's
    mean of F1 and exact match: only where both were published) when every task has one. A
    cell the paper prints and no readable source gives is None (printed n/s)."""
    entries: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for entry in references:
        if entry["has_average"]:
            entries.setdefault((entry["paper"], entry["model"], entry["setting"]), []).append(entry)
    rows = []
    for (paper, model, setting), found in entries.items():
        row = Row(PUBLISHED, model, setting, label=f"{found[0].get('row') or model} ({paper})")
        by_cell = {(e["task"], e["metric"]): e for e in reversed(found)}  # the first wins
        for column in columns:
            if column.suite is None:
                entry = by_cell.get((column.name, get_task(column.name).primary_metric))
                if entry:
                    row.published[column.name] = _average(entry)
                    row.sources[column.name] = _source(entry)
                    row.languages[column.name] = _published_languages(paper, column.name)
            elif entry := by_cell.get((column.name, "score")):
                row.published[column.name] = _average(entry)
                row.sources[column.name] = _source(entry)
            elif column.suite.layout == "task_score" and paper == column.suite.published[0]:
                found_score = _published_suite_score(column.suite, references, model, setting)
                if found_score is not None:
                    row.published[column.name] = found_score[0]
                    row.sources[column.name] = found_score[1]
        if row.published:
            rows.append(row)
    return rows


def _average(entry: dict[str, Any]) -> float | None:
    return None if entry["average"] is None else float(entry["average"])


def _published_languages(paper: str, task: str) -> int:
    """How many languages a paper's average of a task covers: its suite's set for the task
    (XTREME-R's 48 PAN-X languages), else the task's own (XTREME's, the XLM-R paper's)."""
    for suite in all_suites().values():
        if suite.published[0] == paper and task in suite.tasks:
            return len(suite.task_languages(get_task(task)))
    return len(get_task(task).languages)


def _published_suite_score(
    suite: Suite, references: Sequence[dict[str, Any]], model: str, setting: str
) -> tuple[float | None, str] | None:
    """The mean of the suite's published task scores in its paper's table, as the run's suite
    table computes it (mte.tables.references.published_task_score), when every task has one,
    with what it rests on; (None, why) where a task's score is in the table but no readable
    source gives it; None where a task has no entry at all."""
    from mte.tables.references import published_task_score

    scores, unsourced = [], []
    for name in suite.tasks:
        task = get_task(name)
        metrics = family_of(task).cell_metrics(task)
        found = published_task_score(references, model, name, setting, metrics, suite.published)
        if found is None:
            return None
        if found[0] is None:
            unsourced.append(task.title)
        scores.append(found[0])
    if unsourced:
        return None, f"no readable source gives {', '.join(unsourced)} of this row"
    return sum(scores) / len(scores), "the mean of this row's task scores"


def _suite_published(suite: Suite, references: Sequence[dict[str, Any]]) -> bool:
    """Whether the suite's paper has rows among the published ones: its column is shown beside
    them even where no row of ours completes the suite (a published cell reads n/s where no
    source gives the paper's average or every task's, as for XTREME's Avg: config/references)."""
    return any(entry.get("paper") == suite.published[0] for entry in references)


def _source(entry: dict[str, Any]) -> str:
    return f"{entry['paper']} {entry['table']}, {entry['protocol']}; read in {entry['source']}"


def columns_for(rows: Sequence[Row], references: Iterable[dict[str, Any]] = ()) -> list[Column]:
    """The suites and tasks of our rows first (a suite any row completes or has a task of,
    every task our rows ran), then those only published rows give, each in the registry's
    order: our numbers stand at the left, readable on a laptop's screen."""
    from mte.registry import TASKS

    references = list(references)
    ran = {task for row in rows for task, _ in row.cells}
    published = {entry["task"] for entry in references if entry["has_average"]}
    suites = [
        Column(suite.name, suite.short, suite)
        for suite in all_suites().values()
        if any(suite_terms(suite, row) for row in rows)
        or suite.name in published
        or _suite_published(suite, references)
    ]
    suites.sort(key=lambda c: not any(t in ran for t in c.suite.tasks))
    tasks = [
        Column(name, get_task(name).title) for name in TASKS if name in ran or name in published
    ]
    tasks.sort(key=lambda c: c.name not in ran)
    return [*suites, *tasks]


@dataclass
class Value:
    """A row's value in a column (percent; None where the cell has no number: ``why`` says
    why), its interval, the languages it averages (and the task's full set), and its test
    against the best."""

    value: float | None
    low: float | None = None
    high: float | None = None
    languages: int | None = None
    p: float | None = None
    best: bool = False
    source: str = ""
    # the languages of the task's published averages (XTREME's set), for a task column
    all_languages: int | None = None
    why: str = ""

    @property
    def partial(self) -> bool:
        """An average over another number of languages than the paper's for the task."""
        return (
            self.languages is not None
            and self.all_languages is not None
            and self.languages != self.all_languages
        )


def column_value(row: Row, column: Column) -> Value | None:
    if row.kind == PUBLISHED:
        if column.name not in row.published:
            return None
        value = row.published[column.name]
        return Value(
            value,
            source=row.sources.get(column.name, ""),
            languages=row.languages.get(column.name),
            all_languages=_all_languages(column),
            why="" if value is not None else UNSOURCED_WHY,
        )
    terms = column.terms(row)
    if terms is None:
        return _incomplete_suite(row, column)
    value = 100 * sum(w * row.cells[(t, lang)].value(m) for t, lang, m, w in terms)
    languages = len({(t, lang) for t, lang, _, _ in terms})
    replicates = [row.cells[(t, lang)].replicates(m) for t, lang, m, _ in terms]
    confidences = {row.cells[(t, lang)].confidence for t, lang, _, _ in terms}
    low = high = None
    if all(r is not None for r in replicates) and len({r.shape for r in replicates}) == 1:
        combined = 100 * sum(w * r for (_, _, _, w), r in zip(terms, replicates, strict=True))
        if len(confidences) == 1 and None not in confidences:
            low, high = percentile_interval(combined, confidences.pop())
    return Value(value, low, high, languages, all_languages=_all_languages(column))


# a published cell that the paper prints and no readable source gives
UNSOURCED_WHY = "the paper prints this cell; no source readable here gives it (config/references)"


def _all_languages(column: Column) -> int | None:
    """A task column's language count in the papers (the task's set); None for a suite."""
    return None if column.suite is not None else len(get_task(column.name).languages)


def _incomplete_suite(row: Row, column: Column) -> Value | None:
    """A suite column of a row that ran some of its tasks but not all on the suite's
    languages: no value, and why (a row that ran none of them: nothing)."""
    suite = column.suite
    if suite is None or not any(row.ran(name) for name in suite.tasks):
        return None
    missing = [name for name in suite.tasks if not row.ran(name)]
    other = [
        name
        for name in suite.tasks
        if row.ran(name) and set(row.ran(name)) != set(suite.task_languages(get_task(name)))
    ]
    parts = []
    if missing:
        parts.append(f"lacks {len(missing)} of its {len(suite.tasks)} tasks ({', '.join(missing)})")
    if other:
        parts.append(f"ran {', '.join(other)} on other languages than {suite.short}'s")
    return Value(None, why=f"no {suite.short} score: this row {'; '.join(parts)}")


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
        """The CSV's frame: identity columns, then per column value, interval, languages (and
        the task's full set, where the value averages another number), p-value against the
        column's best row, and why a cell has no number; then the published rows' sources."""
        records = []
        for row, values in zip(self.rows, self.values, strict=True):
            record: dict[str, Any] = {
                "row": row.kind,
                "label": row.label,
                "model": row.model,
                "setting": row.setting,
                "method": row.method,
                "run": row.run,
                "seeds": row.seeds,
            }
            for column in self.columns:
                value = values.get(column.name)
                record[column.name] = value.value if value else None
                record[f"{column.name}_low"] = value.low if value else None
                record[f"{column.name}_high"] = value.high if value else None
                record[f"{column.name}_languages"] = value.languages if value else None
                partial = value is not None and value.partial
                record[f"{column.name}_of_languages"] = value.all_languages if partial else None
                record[f"{column.name}_p"] = value.p if value else None
                record[f"{column.name}_best"] = bool(value and value.best)
                record[f"{column.name}_why"] = value.why if value else ""
            record["provenance"] = row.provenance
            record["source"] = " | ".join(dict.fromkeys(row.sources.values()))
            if self.demo:
                record["data_note"] = self.demo if row.demo else ""
            records.append(record)
        table = pd.DataFrame(records)
        for column in self.columns:
            for counts in (f"{column.name}_languages", f"{column.name}_of_languages"):
                table[counts] = table[counts].astype("Int64")
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
        scored = [
            i
            for i, row in enumerate(ours)
            if column.name in values[i] and values[i][column.name].value is not None
        ]
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
