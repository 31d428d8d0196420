"""Suite tables (a spec's mte.tasks.spec.Suite, found by mte.registry), in their two layouts:
"task_score" (XTREME's summary: one score per task, their mean, and the cross-lingual transfer
gap) and "metrics" (GLUE: a column per metric of each task, and the suite's average)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from mte.registry import family_of, get_task
from mte.tables.notes import demo_warning, label_demo, left_out_note
from mte.tables.published_rows import DELTA, OURS
from mte.tables.render import (
    Document,
    Grid,
    cell,
    html,
    latex,
    markdown,
    row_label,
    unsourced_note,
)
from mte.tables.statistics_columns import Marks, legend
from mte.tables.task_table import AVERAGE
from mte.tasks.spec import Suite, Task

# the summary prints each score with its interval
INTERVALS = Marks(intervals=True)
# the average over every task of a suite whose headline average covers only some
ALL_AVERAGE = "avg_all"
NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def language_score(score: dict[str, Any]) -> float:
    """A score file's number for the summary, in percent: the task's primary metric, and for
    QA the mean of F1 and exact match (as XTREME's score combines them)."""
    task = get_task(score["task"])
    cell = family_of(task).cell_metrics(task)
    return 100.0 * sum(score["metrics"][metric] for metric in cell) / len(cell)


def transfer_gap(per_language: dict[str, float], english: str = "en") -> float | None:
    """English score minus the mean over the other languages (XTREME, Table 3); None where the
    task has no English score or no other language."""
    others = [value for language, value in per_language.items() if language != english]
    if english not in per_language or not others:
        return None
    return per_language[english] - sum(others) / len(others)


def task_replicates(scores: list[dict[str, Any]], task: str) -> np.ndarray | None:
    """The bootstrap replicates of one row's task score (percent), as the score is formed:
    per language the cell metrics' replicates averaged over seeds (every seed resamples the
    same examples) and over the metrics (QA's F1 and exact match, drawn from the same
    resamples), then over the languages. None where a score file has none, or the files
    resampled different numbers of times."""
    from mte.stats.statistics import mean_replicates

    spec = get_task(task)
    kind = family_of(spec).sufficient_statistics(spec)
    metrics = family_of(spec).cell_metrics(spec)
    by_language: dict[str, list[dict[str, Any]]] = {}
    for score in scores:
        by_language.setdefault(score["language"], []).append(score)
    mean = _mean_of([mean_replicates(found, metrics, kind) for found in by_language.values()])
    return None if mean is None else 100.0 * mean


def _with_interval(record: dict[str, Any], column: str, replicates, confidence) -> None:
    from mte.stats.statistics import percentile_interval

    if replicates is not None and confidence is not None:
        record[f"{column}_low"], record[f"{column}_high"] = percentile_interval(
            replicates, confidence
        )


def task_score_table(
    scores: list[dict[str, Any]], tasks: list[str], groups: tuple = ()
) -> pd.DataFrame:
    """Rows model x setting: per task the mean over its languages (mean over seeds), the
    unweighted mean over the tasks, the mean of each group (``groups``: the suite's
    categories, XTREME-R's) whose tasks are all run, and ``gap_{task}``, the transfer gap; each
    score with its bootstrap interval (``{column}_low`` / ``_high``, from the replicates of
    :func:`task_replicates`, averaged as the scores are). A setting that not every task runs
    (tasks may have their own settings) has no average, so no row."""
    frame = pd.DataFrame(
        [
            {
                "model": s["model"],
                "setting": s["setting"],
                "seed": s["seed"],
                "task": s["task"],
                "language": s["language"],
                "value": language_score(s),
            }
            for s in scores
        ]
    )
    # as XTREME's evaluate.py: a group's score only where every task of it is run
    run_groups = [name for name, members in groups if set(members) <= set(tasks)]
    records = []
    for (model, setting), group in frame.groupby(["model", "setting"], sort=False):
        if set(tasks) - set(group["task"]):
            continue
        record: dict[str, Any] = {"model": model, "setting": setting}
        seeds = group["seed"].nunique()
        mine = [s for s in scores if (s["model"], s["setting"]) == (model, setting)]
        confidences = {(s.get("interval") or {}).get("confidence") for s in mine} - {None}
        confidence = confidences.pop() if len(confidences) == 1 else None
        replicates = {}
        for task in tasks:
            rows = group[group["task"] == task]
            per_seed = rows.groupby("seed")["value"].mean()
            record[task] = per_seed.mean()
            per_language = rows.groupby("language")["value"].mean().to_dict()
            record[f"gap_{task}"] = transfer_gap(per_language)
            replicates[task] = task_replicates([s for s in mine if s["task"] == task], task)
            _with_interval(record, task, replicates[task], confidence)
        record[AVERAGE] = sum(record[task] for task in tasks) / len(tasks)
        _with_interval(record, AVERAGE, _mean_of([replicates[t] for t in tasks]), confidence)
        for group in run_groups:
            members = dict(groups)[group]
            record[group] = sum(record[task] for task in members) / len(members)
            _with_interval(record, group, _mean_of([replicates[t] for t in members]), confidence)
        record["seeds"] = seeds
        records.append(record)
    if not records:
        raise ValueError(f"no model and setting has scores for every task of {', '.join(tasks)}")
    scored = [*tasks, AVERAGE, *run_groups]
    columns = ["model", "setting", "seeds", *scored]
    columns += [f"gap_{t}" for t in tasks]
    columns += [f"{c}_{end}" for c in scored for end in ("low", "high")]
    return pd.DataFrame(records).reindex(columns=columns)


def _mean_of(found: list[np.ndarray | None]) -> np.ndarray | None:
    """The replicates of a mean of scores: the mean of theirs (None if one lacks them)."""
    if not found or any(r is None for r in found) or len({r.shape for r in found}) != 1:
        return None
    return np.mean(found, axis=0)


def summary_with_references(
    table: pd.DataFrame,
    references: list[dict[str, Any]],
    tasks: list[str],
    suite: Suite,
    differing: Iterable[str] = (),
) -> pd.DataFrame:
    """``table`` with a published row (the suite's published table's task scores, e.g.
    XTREME's Table 2; QA as (F1 + EM) / 2, so only where both were read) and a delta row after
    each model whose name has them. The published average is the mean of the published tasks
    when every task of the table has one. A task score the table prints and no readable
    source gives (and so the average over it) is named in the ``unsourced`` column. A task run
    on other languages than the paper's (``differing``), and then the average, has no delta:
    the two numbers average different languages."""
    from mte.tables.published_rows import (
        UNSOURCED_COLUMN,
        UNSOURCED_SEPARATOR,
        interleave_published,
    )
    from mte.tables.references import label, published_task_score

    apart = set(differing) | ({AVERAGE} if differing else set())

    def published_of(row: pd.Series) -> list[tuple[str, dict[str, Any], set[str]]]:
        published: dict[str, Any] = {}
        unsourced, source = [], None
        for task in tasks:
            metrics = family_of(get_task(task)).cell_metrics(get_task(task))
            found = published_task_score(
                references, row["model"], task, row["setting"], metrics, suite.published
            )
            if found is None:
                continue
            published[task], source = found[0], source or label(found[1])
            if found[0] is None:
                unsourced.append(task)
        if not published:
            return []
        numbers = [published.get(task) for task in tasks]
        if all(value is not None for value in numbers):
            published[AVERAGE] = sum(numbers) / len(tasks)
        elif unsourced:
            unsourced.append(AVERAGE)
        if unsourced:
            published[UNSOURCED_COLUMN] = UNSOURCED_SEPARATOR.join(unsourced)
        return [(source, published, apart)]

    return interleave_published(table, published_of)


def differing_languages(
    scores: list[dict[str, Any]], tasks: list[str], suite: Suite
) -> dict[str, tuple[int, int, int]]:
    """The tasks averaged over other languages than the suite's for them: task -> (the
    suite's languages run, the suite's count, other languages run). A run of PAN-X's 40
    XTREME languages is not XTREME-R's PAN-X cell."""
    run: dict[str, set[str]] = {}
    for score in scores:
        run.setdefault(score["task"], set()).add(score["language"])
    differing = {}
    for name in tasks:
        expected = set(suite.task_languages(get_task(name)))
        languages = run.get(name, set())
        if languages != expected:
            differing[name] = (len(languages & expected), len(expected), len(languages - expected))
    return differing


def other_languages(scores: list[dict[str, Any]], tasks: list[str], suite: Suite) -> str:
    """Which tasks are averaged over languages other than the suite's for them ("" if none)."""
    return "; ".join(
        f"{name} over {shared} of its {expected}" + (f" and {extra} other(s)" if extra else "")
        for name, (shared, expected, extra) in differing_languages(scores, tasks, suite).items()
    )


def language_mark(counts: tuple[int, int, int]) -> str:
    """What follows our cell of a task run on other languages than the paper's: how many of
    its languages ("(2 of 15)"), so that it never reads as the paper's average."""
    shared, expected, extra = counts
    return f" ({shared} of {expected}" + (f" + {extra}" if extra else "") + ")"


def summary_title(
    tasks: list[str], suite: Suite, languages: str = "", skipped: Iterable[str] = ()
) -> str:
    """The summary's title: a run without all of the suite's tasks says which it averages and
    which are missing (``skipped``: those the config's skip_tasks left out, marked so), and one
    whose tasks do not have the suite's languages says which, so that its average is never
    read as the paper's."""
    skipped = set(skipped)
    missing = [
        f"{task} (skipped)" if task in skipped else task
        for task in suite.tasks
        if task not in tasks
    ]
    languages = f"; not {suite.short}'s languages: {languages}" if languages else ""
    if not missing and not languages:
        return f"{suite.title} ({suite.note})"
    if not missing:
        return f"Partial {suite.title}{languages} ({suite.note})"
    return (
        f"Partial {suite.title}: the average is over {len(tasks)} of {suite.short}'s "
        f"{len(suite.tasks)} tasks ({', '.join(tasks)}); missing: {', '.join(missing)}"
        f"{languages} ({suite.note})"
    )


def partial_note(tasks: list[str], suite: Suite, skipped: Iterable[str] = ()) -> list[str]:
    """The note under a suite table whose run lacks some of the suite's tasks: its average is
    partial, not the suite's score, and the tasks the config skipped."""
    missing = [task for task in suite.tasks if task not in tasks]
    if not missing:
        return []
    note = (
        f"The suite score ({AVERAGE}) is partial: the mean over {len(tasks)} of "
        f"{suite.short}'s {len(suite.tasks)} tasks, not {suite.short}'s score"
    )
    left_out = [get_task(task).title for task in missing if task in set(skipped)]
    if left_out:
        note += f"; skipped by the config's skip_tasks: {', '.join(left_out)}"
    return [f"{note}."]


def summary_markdown(
    table: pd.DataFrame,
    tasks: list[str],
    suite: Suite,
    languages: str = "",
    skipped: Iterable[str] = (),
) -> str:
    """The summary in Markdown: task scores and average, then the transfer gaps."""
    return markdown(summary_document(table, tasks, suite, languages, skipped))


def summary_document(
    table: pd.DataFrame,
    tasks: list[str],
    suite: Suite,
    languages: str = "",
    skipped: Iterable[str] = (),
    marks: Marks = INTERVALS,
    counts: dict[str, tuple[int, int, int]] | None = None,
) -> Document:
    """The summary: task scores, average and group scores, then the transfer gaps;
    ``languages`` (:func:`other_languages`) names tasks run on other languages than the
    suite's."""
    titles = [get_task(t).title for t in tasks]
    groups = [name for name, _ in suite.groups if name in table]
    counts = counts or {}

    def printed(row: pd.Series, column: str) -> str:
        text = cell(row, column, None, marks)
        if text and column in counts and row.get("row", OURS) == OURS:
            text += language_mark(counts[column])
        return text

    body = [
        [row["model"], row_label(row), *(printed(row, c) for c in (*tasks, AVERAGE, *groups))]
        for _, row in table.iterrows()
    ]
    sections: list[tuple[str | None, Grid]] = [
        (None, Grid(["model", "setting", *titles, AVERAGE, *groups], body))
    ]
    gap_tasks = [
        t for t in tasks if table.get(f"gap_{t}") is not None and table[f"gap_{t}"].notna().any()
    ]
    if gap_tasks:
        ours = table[table["row"] == "ours"] if "row" in table else table
        gaps = [
            [
                row["model"],
                row["setting"],
                *(f"{row[f'gap_{t}']:.1f}" if pd.notna(row[f"gap_{t}"]) else "" for t in gap_tasks),
            ]
            for _, row in ours.iterrows()
        ]
        heading = "Cross-lingual transfer gap (English minus the mean of the other languages)"
        header = ["model", "setting", *(get_task(t).title for t in gap_tasks)]
        sections.append((heading, Grid(header, gaps)))
    notes = partial_note(tasks, suite, skipped)
    if counts:
        notes.append(
            f"(n of N): the mean over n of {suite.short}'s N languages for the task (+ m: and "
            "m others): not the paper's average, so no delta against it."
        )
    notes += [
        f"{note} (each language resampled, the replicates averaged as the scores are)."
        for note in legend(table, marks)
    ]
    notes += unsourced_note(table, [*tasks, AVERAGE])
    if groups:
        members = dict(suite.groups)
        listed = "; ".join(
            f"{name}: {', '.join(get_task(t).title for t in members[name])}" for name in groups
        )
        notes.append(f"Groups (the mean of their tasks) - {listed}.")
    return Document(summary_title(tasks, suite, languages, skipped), sections, notes)


def task_score_suite(
    suite: Suite,
    tasks: list[str],
    scores: list[dict[str, Any]],
    references: list[dict],
    warning: str | None = None,
    skipped: Iterable[str] = (),
    notes: Iterable[str] = (),
) -> dict[str, str]:
    """A "task_score" suite's tables: per-task averages, their mean and the transfer gaps,
    with the published task scores beside the models that have them; ``notes`` go under it
    (the languages left out)."""
    counts = differing_languages(scores, tasks, suite)
    table = task_score_table(scores, tasks, suite.groups)
    table = summary_with_references(table, references, tasks, suite, counts)
    languages = other_languages(scores, tasks, suite)
    # the CSV says which of the suite's tasks its average covers, in every row, and which
    # tasks were not run on the suite's languages
    table["averaged"] = " ".join(tasks)
    table["missing"] = " ".join(t for t in suite.tasks if t not in tasks)
    table["skipped"] = " ".join(t for t in suite.tasks if t not in tasks and t in set(skipped))
    table["other_languages"] = languages
    confidences = {(s.get("interval") or {}).get("confidence") for s in scores} - {None}
    marks = Marks(intervals=True, confidence=confidences.pop() if confidences else 0.95)
    document = summary_document(table, tasks, suite, languages, skipped, marks, counts)
    document.notes.extend(notes)
    return {
        "csv": table.to_csv(index=False, float_format="%.2f"),
        "md": markdown(document),
        "tex": latex(document),
        "html": html(document, warning=warning),
    }


def suite_average(task_metrics: dict[str, dict[str, float]], merged: dict[str, str]) -> float:
    """A "metrics" suite's score (GLUE's): the mean over tasks of each task's score, a task
    with several metrics (MRPC and QQP F1/accuracy, STS-B Pearson/Spearman) or merged with
    another (MNLI matched/mismatched) scoring their mean."""
    groups: dict[str, list[float]] = {}
    for task, metrics in task_metrics.items():
        groups.setdefault(merged.get(task, task), []).extend(metrics.values())
    if not groups:
        raise ValueError("no task scores")
    return sum(sum(values) / len(values) for values in groups.values()) / len(groups)


def metrics_table(scores: list[dict[str, Any]], tasks: list[Task], suite: Suite) -> pd.DataFrame:
    """Rows model x setting; per task one column per metric (in percent, mean over seeds) and
    the suite's average over the tasks it averages (``avg``; GLUE: the XLM-R paper's six Table 4
    tasks); with other tasks run too (CoLA, RTE), ``avg_all`` averages every task."""
    rows: dict[tuple[str, str], dict[str, dict[str, list[float]]]] = {}
    for s in scores:
        cell = rows.setdefault((s["model"], s["setting"]), {}).setdefault(s["task"], {})
        for metric, value in s["metrics"].items():
            cell.setdefault(metric, []).append(100.0 * value)
    averaged = set(suite.averaged or suite.tasks)
    records = []
    for (model, setting), by_task in rows.items():
        missing = [t.name for t in tasks if t.name not in by_task]
        if missing:
            raise ValueError(f"{model}, {setting}: no score for {', '.join(missing)}")
        means = {
            t.name: {m: sum(by_task[t.name][m]) / len(by_task[t.name][m]) for m in t.metrics}
            for t in tasks
        }
        record: dict[str, Any] = {"model": model, "setting": setting}
        for t in tasks:
            for metric in t.metrics:
                record[f"{t.name}_{metric}"] = means[t.name][metric]
        headline = {name: m for name, m in means.items() if name in averaged}
        record[AVERAGE] = suite_average(headline, suite.merged) if headline else float("nan")
        if len(headline) < len(means):
            record[ALL_AVERAGE] = suite_average(means, suite.merged)
        records.append(record)
    return pd.DataFrame(records)


def _average_groups(suite: Suite) -> int:
    return len({suite.merged.get(t, t) for t in suite.averaged or suite.tasks})


def metrics_with_references(
    table: pd.DataFrame, references: list[dict[str, Any]], tasks: list[Task], suite: Suite
) -> pd.DataFrame:
    """``table`` with the suite's published rows (GLUE: the XLM-R paper's Table 4) after each
    model that has them. A published cell fills a task's column only where the task has one
    metric (MNLI, QNLI, SST-2: accuracy); Table 4 names no metric for QQP, MRPC and STS-B, whose
    columns stay empty. The published average is the paper's, over its tasks: compared with
    ours only when the table has all of them."""
    from mte.tables.published_rows import interleave_published
    from mte.tables.references import find_references, label

    averaged = set(suite.averaged or suite.tasks) - set(suite.merged)
    complete = averaged <= {task.name for task in tasks}
    groups = _average_groups(suite)
    over = NUMBER_WORDS[groups] if groups < len(NUMBER_WORDS) else str(groups)

    def published_of(row: pd.Series) -> list[tuple[str, dict[str, Any], set[str]]]:
        found = []
        for entry in find_references(references, row["model"], suite.name, row["setting"], "score"):
            published: dict[str, Any] = {
                f"{task.name}_{task.metrics[0]}": entry["values"].get(task.name)
                for task in tasks
                if len(task.metrics) == 1
            }
            published[AVERAGE] = entry.get("average")
            if complete:
                found.append((label(entry), published, set()))
            else:
                found.append((f"{label(entry)} (avg over its {over} tasks)", published, {AVERAGE}))
        return found

    return interleave_published(table, published_of)


def _number(row: pd.Series, column: str) -> str:
    value = row.get(column)
    if value is None or pd.isna(value):
        return ""
    return f"{value:+.1f}" if row.get("row") == DELTA else f"{value:.1f}"


def _metrics_grid(table: pd.DataFrame, tasks: list[Task]) -> tuple[list[str], list[list[str]]]:
    """Header and printed rows of a "metrics" table: a task with two metrics reads
    ``first/second``."""
    averages = [AVERAGE, *([ALL_AVERAGE] if ALL_AVERAGE in table else [])]
    header = ["model", "setting", *(t.title for t in tasks), *averages]
    rows = []
    for _, row in table.iterrows():
        cells = []
        for t in tasks:
            values = [_number(row, f"{t.name}_{m}") for m in t.metrics]
            cells.append("/".join(values) if any(values) else "")
        cells += [_number(row, column) for column in averages]
        rows.append([row["model"], row_label(row), *cells])
    return header, rows


def _metrics_notes(table: pd.DataFrame, tasks: list[Task], suite: Suite) -> list[str]:
    metrics = "; ".join(f"{t.title}: {'/'.join(t.metrics)}" for t in tasks)
    note = f"{AVERAGE}: {suite.average_note}"
    if ALL_AVERAGE in table:
        rest = [get_task(t).title for t in suite.tasks if t not in (suite.averaged or suite.tasks)]
        listed = ", ".join(rest[:-1]) + f" and {rest[-1]}" if len(rest) > 1 else "".join(rest)
        note += f"; {ALL_AVERAGE}: over every task run, {listed} included"
    return [f"Metrics - {metrics}.", f"{note}."]


def metrics_document(table: pd.DataFrame, tasks: list[Task], suite: Suite) -> Document:
    """A "metrics" suite's table, then the metrics and what the averages cover."""
    header, rows = _metrics_grid(table, tasks)
    notes = _metrics_notes(table, tasks, suite)
    return Document(f"{suite.title} ({suite.note})", [(None, Grid(header, rows))], notes)


def metrics_markdown(table: pd.DataFrame, tasks: list[Task], suite: Suite) -> str:
    return markdown(metrics_document(table, tasks, suite))


def metrics_suite(
    suite: Suite,
    tasks: list[str],
    scores: list[dict[str, Any]],
    references: list[dict],
    warning: str | None = None,
    skipped: Iterable[str] = (),
    notes: Iterable[str] = (),
) -> dict[str, str]:
    """A "metrics" suite's tables (GLUE): every task run side by side, with the average;
    ``notes`` go under it (the languages left out)."""
    chosen = [get_task(name) for name in tasks]
    table = metrics_table(scores, chosen, suite)
    table = metrics_with_references(table, references, chosen, suite)
    document = metrics_document(table, chosen, suite)
    document.notes.extend(notes)
    return {
        "csv": table.to_csv(index=False, float_format="%.2f"),
        "md": markdown(document),
        "tex": latex(document),
        "html": html(document, warning=warning),
    }


def summarize(
    suite: Suite,
    tasks: list[str],
    scores: list[dict[str, Any]],
    references: list[dict],
    demo_tasks: Iterable[str] = (),
    skipped: Iterable[str] = (),
    left_out: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, str]:
    """The suite's table over ``tasks`` (those of it that ran) as CSV, Markdown, LaTeX and
    HTML; where some ran on the bundled demo data (``demo_tasks``), every file says so;
    ``skipped``: the tasks the config's skip_tasks left out, named as such; ``left_out``: per
    task, the languages its folder lacked (missing_files: skip) and why, named in a note."""
    build = {"metrics": metrics_suite, "task_score": task_score_suite}
    demo = set(demo_tasks)
    notes = left_out_notes(left_out or {})
    if not demo:
        return build[suite.layout](suite, tasks, scores, references, None, skipped, notes)
    warning = demo_warning([score for score in scores if score["task"] in demo])
    tables = build[suite.layout](suite, tasks, scores, references, warning, skipped, notes)
    return label_demo(tables, warning)


def left_out_notes(left_out: Mapping[str, Mapping[str, str]]) -> list[str]:
    """The note on the languages that ``missing_files: skip`` left out of a run, per task
    (task -> language -> the file looked for); none where nothing was left out."""
    return left_out_note({get_task(task).title: languages for task, languages in left_out.items()})
