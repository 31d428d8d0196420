"""Figures (matplotlib, PNG): language x task heatmap (per-language bars with intervals when one
task ran), transfer gaps, ours against published, and each fine-tune's training curves."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from mte.registry import family_of, get_task
from mte.steps.summary import language_score, transfer_gap
from mte.tables.references import label


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    return plt


def _label_demo(fig: Any, scores: list[dict[str, Any]]) -> None:
    """The demo caveat under a figure any of whose scores ran on the bundled demo data."""
    from mte.tables.notes import DEMO_FIGURE_LABEL, on_demo_data

    if any(on_demo_data(score) for score in scores):
        fig.text(0.5, -0.02, DEMO_FIGURE_LABEL, ha="center", va="top", fontsize=7, color="#9c1c1c")


def _save(fig: Any, path: str | Path) -> None:
    from mte.io import atomic_path

    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=150, bbox_inches="tight")


def language_task_matrix(scores: list[dict[str, Any]], model: str, setting: str) -> pd.DataFrame:
    """Languages x tasks of one model and setting (mean over seeds; QA (F1 + EM) / 2)."""
    frame = pd.DataFrame(
        [
            {
                "task": get_task(s["task"]).title,
                "train_language": get_task(s["task"]).train_language,
                "language": s["language"],
                "value": language_score(s),
            }
            for s in scores
            if s["model"] == model and s["setting"] == setting
        ]
    )
    return frame.pivot_table(
        index="language", columns="task", values="value", aggfunc="mean", sort=False
    )


# a heatmap taller than this many languages is drawn in side-by-side panels of at most this
# many rows, without numbers in the cells (SIB-200's 205 languages would make one column a
# 60-inch strip of unreadable labels)
ROWS_PER_PANEL = 50


def plot_heatmap(scores: list[dict[str, Any]], model: str, setting: str, path: str | Path) -> None:
    """A language x task heatmap of one model (empty where a task lacks the language)."""
    plt = _pyplot()
    matrix = language_task_matrix(scores, model, setting)
    if len(matrix.columns) == 1:  # a one-column heatmap says less than bars with intervals
        chosen = [s for s in scores if s["model"] == model and s["setting"] == setting]
        plot_language_bars(chosen, f"{model}, {setting}", path)
        return
    if len(matrix.index) > ROWS_PER_PANEL:
        _heatmap_panels(plt, matrix, model, setting, path, scores)
        return
    height = max(2.5, 0.28 * len(matrix.index) + 1.2)
    fig, ax = plt.subplots(figsize=(1.2 * len(matrix.columns) + 2.5, height))
    image = ax.imshow(matrix.to_numpy(dtype=float), cmap="viridis", vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(len(matrix.columns)), matrix.columns, rotation=45, ha="right")
    ax.set_yticks(range(len(matrix.index)), matrix.index)
    for (i, j), value in pd.DataFrame(matrix.to_numpy()).stack().items():
        ax.text(j, i, f"{value:.0f}", ha="center", va="center", fontsize=7,
                color="white" if value < 60 else "black")  # fmt: skip
    ax.set_title(f"{model}, {setting}: score per language and task (%)")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    _label_demo(fig, scores)
    _save(fig, path)
    plt.close(fig)


def _heatmap_panels(
    plt: Any, matrix: pd.DataFrame, model: str, setting: str, path, scores: list[dict[str, Any]]
) -> None:
    """Many languages: side-by-side panels of at most ROWS_PER_PANEL rows, one colour scale,
    no numbers in the cells."""
    panels = math.ceil(len(matrix.index) / ROWS_PER_PANEL)
    rows = math.ceil(len(matrix.index) / panels)
    width = (1.2 * len(matrix.columns) + 1.5) * panels + 1.0
    fig, axes = plt.subplots(
        1, panels, figsize=(width, 0.2 * rows + 1.5), squeeze=False, layout="constrained"
    )
    for ax, start in zip(axes[0], range(0, len(matrix.index), rows), strict=True):
        part = matrix.iloc[start : start + rows]
        image = ax.imshow(part.to_numpy(dtype=float), cmap="viridis", vmin=0, vmax=100,
                          aspect="auto")  # fmt: skip
        ax.set_xticks(range(len(part.columns)), part.columns, rotation=45, ha="right")
        ax.set_yticks(range(len(part.index)), part.index, fontsize=6)
    fig.suptitle(f"{model}, {setting}: score per language and task (%)")
    fig.colorbar(image, ax=list(axes[0]), fraction=0.02, pad=0.02)
    _label_demo(fig, scores)
    _save(fig, path)
    plt.close(fig)


def language_values(scores: list[dict[str, Any]]) -> pd.DataFrame:
    """Per language of one task: the primary metric in percent (mean over seeds) and its
    whiskers: the bootstrap interval over test examples with one seed, the standard deviation
    over seeds with several."""
    rows = []
    for s in scores:
        task = get_task(s["task"])
        interval = s.get("interval") or {}
        has_interval = interval.get("metric") == task.primary_metric and "low" in interval
        rows.append(
            {
                "language": s["language"],
                "value": 100.0 * s["metrics"][task.primary_metric],
                "low": 100.0 * interval["low"] if has_interval else math.nan,
                "high": 100.0 * interval["high"] if has_interval else math.nan,
            }
        )
    frame = pd.DataFrame(rows)
    grouped = frame.groupby("language", sort=False)
    table = grouped["value"].agg(["mean", "count", "std"])
    one_seed = (table["count"] == 1).all()
    if one_seed:
        table["low"] = grouped["low"].first()
        table["high"] = grouped["high"].first()
    else:
        table["low"] = table["mean"] - table["std"]
        table["high"] = table["mean"] + table["std"]
    table.attrs["whiskers"] = "95% bootstrap interval" if one_seed else "± 1 std over seeds"
    return table


def plot_language_bars(scores: list[dict[str, Any]], title: str, path: str | Path) -> None:
    """One task: a bar per language with its value printed and whiskers (the interval)."""
    plt = _pyplot()
    task = get_task(scores[0]["task"])
    table = language_values(scores)
    fig, ax = plt.subplots(figsize=(max(4.0, 0.55 * len(table.index) + 1.5), 3.6))
    errors = [
        (table["mean"] - table["low"]).clip(lower=0).fillna(0),
        (table["high"] - table["mean"]).clip(lower=0).fillna(0),
    ]
    bars = ax.bar(table.index, table["mean"], yerr=errors, capsize=3, color="C0",
                  error_kw={"linewidth": 0.8})  # fmt: skip
    # each value printed above its whisker, where the two do not overlap
    tops = table[["mean", "high"]].max(axis=1, skipna=True)
    for bar, value, top in zip(bars, table["mean"], tops, strict=True):
        ax.annotate(f"{value:.1f}", (bar.get_x() + bar.get_width() / 2, top),
                    textcoords="offset points", xytext=(0, 2), ha="center", fontsize=7)  # fmt: skip
    # room above for the labels; below zero only for a metric that goes there (MCC)
    top = max(10.0, float(tops.max(skipna=True)))
    bottom = min(0.0, float(table[["mean", "low"]].min(axis=None, skipna=True)))
    ax.set_ylim(bottom * 1.15, min(100.0, top * 1.15) if top <= 100 else top * 1.05)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_ylabel(f"{task.primary_metric} (%)")
    ax.tick_params(axis="x", rotation=90 if len(table.index) > 12 else 0)
    ax.set_title(f"{title}: {task.title} per language (whiskers: {table.attrs['whiskers']})",
                 fontsize=9)  # fmt: skip
    _label_demo(fig, scores)
    _save(fig, path)
    plt.close(fig)


def gap_interval(
    scores: list[dict[str, Any]],
    english: str,
    confidence: float = 0.95,
    language: str | None = None,
) -> tuple[float, float] | None:
    """A percentile interval of the transfer gap from the languages' bootstrap replicates: the
    gap of replicate i of every language (``language``: of that language alone). For parallel
    test sets (XNLI, PAWS-X, XQuAD) replicate i of every language resamples the same items, so
    the gap is resampled by item; other tasks' languages are resampled independently, as their
    test sets are. None without replicates of every language (several seeds, QA's two-metric
    cells, no interval computed)."""
    import numpy as np

    replicates = {}
    for s in scores:
        task = get_task(s["task"])
        interval = s.get("interval") or {}
        if (
            family_of(task).cell_metrics(task) != (task.primary_metric,)
            or interval.get("metric") != task.primary_metric
            or not interval.get("replicates")
            or s["language"] in replicates
        ):
            return None
        replicates[s["language"]] = np.asarray(interval["replicates"], dtype=float)
        confidence = interval.get("confidence", confidence)
    others = [r for lang, r in replicates.items() if lang != english and language in (None, lang)]
    if english not in replicates or not others:
        return None
    size = min(len(r) for r in replicates.values())
    gaps = 100.0 * (replicates[english][:size] - np.mean([r[:size] for r in others], axis=0))
    tail = 100.0 * (1 - confidence) / 2
    return float(np.percentile(gaps, tail)), float(np.percentile(gaps, 100.0 - tail))


def whisker_errors(
    table: pd.DataFrame, whiskers: dict[str, dict[str, tuple[float, float]]]
) -> list[list[list[float]]]:
    """pandas' ``yerr`` for bars of ``table`` (rows x series): per series, the lengths below
    and above each bar. A cell without a whisker (a series that does not run a task or a
    language, or a gap without replicates) gets none."""
    return [
        [[whiskers[series].get(row, (0.0, 0.0))[end] for row in table.index] for end in (0, 1)]
        for series in table.columns
    ]


def language_gaps(
    scores: list[dict[str, Any]],
) -> tuple[pd.DataFrame, dict[str, dict[str, tuple[float, float]]]]:
    """One task's gap per language: the training language's score minus the language's (mean
    over seeds, points), languages x series (model, setting), and each cell's whisker lengths
    (below, above) from :func:`gap_interval` (none: 0, 0)."""
    gaps: dict[str, dict[str, float]] = {}
    whiskers: dict[str, dict[str, tuple[float, float]]] = {}
    for (model, setting), members in _by_series(scores).items():
        series = f"{model}, {setting}"
        english = get_task(members[0]["task"]).train_language
        means = (
            pd.DataFrame([{"language": s["language"], "value": language_score(s)} for s in members])
            .groupby("language", sort=False)["value"]
            .mean()
        )
        if english not in means.index:
            continue
        for language, value in means.items():
            if language == english:
                continue
            gap = means[english] - value
            gaps.setdefault(series, {})[language] = gap
            interval = gap_interval(members, english, language=language)
            low, high = interval if interval else (gap, gap)
            whiskers.setdefault(series, {})[language] = (gap - low, high - gap)
    return pd.DataFrame(gaps), whiskers


def _by_series(scores: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    series: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for score in scores:
        series.setdefault((score["model"], score["setting"]), []).append(score)
    return series


def plot_language_gaps(scores: list[dict[str, Any]], path: str | Path) -> None:
    """Bars: one task's transfer gap per language (its training language's score minus the
    language's), one bar per model and setting, so that the settings (fine-tuned whole, with
    LoRA, in context) are compared language by language; whiskers as the task gaps'."""
    plt = _pyplot()
    table, whiskers = language_gaps(scores)
    task = get_task(scores[0]["task"]) if scores else None
    fig, ax = plt.subplots(figsize=(max(4.5, 0.9 * max(len(table.index), 1) + 2.5), 3.5))
    if table.empty:
        ax.text(0.5, 0.5, "no score in the training language and another", ha="center",
                va="center")  # fmt: skip
        ax.set_axis_off()
    else:
        errors = whisker_errors(table, whiskers)
        table.plot.bar(ax=ax, rot=0, yerr=errors, capsize=2, error_kw={"linewidth": 0.7})
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel(f"{task.train_language} minus the language (points)")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    title = task.title if task else ""
    ax.set_title(f"{title}: transfer gap per language and setting (whiskers: 95% bootstrap "
                 "interval)", fontsize=9)  # fmt: skip
    _label_demo(fig, scores)
    _save(fig, path)
    plt.close(fig)


def plot_transfer_gaps(scores: list[dict[str, Any]], path: str | Path) -> None:
    """Bars: per task, its training language (English; SIB-200's eng_Latn) minus the mean of
    the other languages, one bar per model and setting; tasks without a score in the training
    language (Tatoeba, BUCC) have no gap."""
    plt = _pyplot()
    frame = pd.DataFrame(
        [
            {
                "series": f"{s['model']}, {s['setting']}",
                "task": get_task(s["task"]).title,
                "train_language": get_task(s["task"]).train_language,
                "language": s["language"],
                "value": language_score(s),
            }
            for s in scores
        ]  # fmt: skip
    )
    gaps, whiskers = {}, {}
    for (series, task, english), group in frame.groupby(
        ["series", "task", "train_language"], sort=False
    ):
        gap = transfer_gap(group.groupby("language")["value"].mean().to_dict(), english)
        if gap is None:
            continue
        gaps.setdefault(series, {})[task] = gap
        members = [
            s
            for s in scores
            if f"{s['model']}, {s['setting']}" == series and get_task(s["task"]).title == task
        ]
        interval = gap_interval(members, english)
        low, high = interval if interval else (gap, gap)
        whiskers.setdefault(series, {})[task] = (gap - low, high - gap)
    table = pd.DataFrame(gaps)
    fig, ax = plt.subplots(figsize=(max(4, 1.3 * max(len(table.index), 1) + 2), 3.5))
    if table.empty:
        ax.text(0.5, 0.5, "no task with English and another language", ha="center", va="center")
        ax.set_axis_off()
    else:
        errors = whisker_errors(table, whiskers)
        table.plot.bar(ax=ax, rot=0, yerr=errors, capsize=3, error_kw={"linewidth": 0.8})
        # each value printed beyond its whisker (above a gain, below a loss)
        bar_groups = [c for c in ax.containers if hasattr(c, "datavalues")]
        for series, container in zip(table.columns, bar_groups, strict=True):
            for task, bar in zip(table.index, container, strict=True):
                value = table.loc[task, series]
                if pd.isna(value):
                    continue
                below, above = whiskers[series].get(task, (0.0, 0.0))
                end = value + above if value >= 0 else value - below
                ax.annotate(f"{value:.1f}", (bar.get_x() + bar.get_width() / 2, end),
                            textcoords="offset points", xytext=(0, 2 if value >= 0 else -9),
                            ha="center", fontsize=7)  # fmt: skip
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel("English minus other languages (points)")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("Cross-lingual transfer gap per task (whiskers: 95% bootstrap interval)",
                 fontsize=9)  # fmt: skip
    _label_demo(fig, scores)
    _save(fig, path)
    plt.close(fig)


def plot_training_curves(record: dict[str, Any], title: str, path: str | Path) -> None:
    """A fine-tune's ``training.json``: the dev score at each evaluation (epoch ends, or every
    ``selection_every_steps`` steps) against the epochs trained, the selected model marked, and
    the training loss per step (with its running mean when there are many)."""
    plt = _pyplot()
    fig, (dev_ax, loss_ax) = plt.subplots(1, 2, figsize=(8.5, 3.2), layout="constrained")
    per_epoch = record.get("steps_per_epoch")

    def trained(entry: dict[str, Any]) -> float:
        # epochs trained at an evaluation (records before steps_per_epoch: its epoch)
        return entry["step"] / per_epoch if per_epoch else entry["epoch"]

    epochs = [trained(h) for h in record["history"]]
    dev = [100.0 * h["dev_score"] for h in record["history"]]
    dev_ax.plot(epochs, dev, marker="o" if len(dev) <= 50 else None, color="C0")
    if len(dev) <= 20:  # more values than that would cover the curve
        for epoch, value in zip(epochs, dev, strict=True):
            dev_ax.annotate(f"{value:.1f}", (epoch, value), textcoords="offset points",
                            xytext=(0, 6), ha="center", fontsize=7)  # fmt: skip
    selected = record["selected"]
    at = f"epoch {selected['epoch']}"
    if (record.get("hyperparameters") or {}).get("selection_every_steps"):
        at = f"step {selected['step']}"
    dev_ax.plot(
        [trained(selected)],
        [100.0 * selected["dev_score"]],
        marker="*",
        markersize=14,
        color="C3",
        linestyle="none",
        label=f"selected: {at}",
    )
    low, high = min(dev), max(dev)
    dev_ax.set_ylim(low - 0.1 * (high - low) - 1, high + 0.15 * (high - low) + 1)  # room for labels
    dev_ax.set_xticks(range(1, int(max(epochs)) + 1) if max(epochs) <= 20 else dev_ax.get_xticks())
    dev_ax.set_xlabel("epochs trained")
    dev_ax.set_ylabel("dev score (%)")
    dev_ax.legend(fontsize=7, loc="lower right")
    losses = record.get("losses") or []
    steps = range(1, len(losses) + 1)
    loss_ax.plot(steps, losses, linewidth=0.6, color="C1", alpha=0.6, label="per step")
    window = max(1, len(losses) // 25)
    if window > 1:
        smooth = pd.Series(losses).rolling(window, min_periods=1).mean()
        loss_ax.plot(steps, smooth, linewidth=1.4, color="C1", label=f"mean of {window} steps")
        loss_ax.legend(fontsize=7)
    loss_ax.set_xlabel("step")
    loss_ax.set_ylabel("training loss")
    fig.suptitle(title, fontsize=10)
    _save(fig, path)
    plt.close(fig)


def plot_against_reference(
    scores: list[dict[str, Any]], reference: dict[str, Any], path: str | Path
) -> None:
    """Per-language bars of ours beside the published numbers of the same model and task."""
    plt = _pyplot()
    metric = reference["metric"]
    ours = {}
    for s in scores:
        ours.setdefault(s["language"], []).append(100.0 * s["metrics"][metric])
    # the languages both have a number for (a cell no readable source gives is left out)
    languages = [lang for lang in ours if reference["values"].get(lang) is not None]
    if not languages:
        raise ValueError(
            f"{reference['model']}, {reference['task']}: no published number for "
            f"{', '.join(ours)} ({label(reference)})"
        )
    table = pd.DataFrame(
        {
            "ours": [sum(ours[lang]) / len(ours[lang]) for lang in languages],
            "published": [reference["values"][lang] for lang in languages],
        },
        index=languages,
    )
    fig, ax = plt.subplots(figsize=(max(4, 0.5 * len(languages) + 2), 3.5))
    table.plot.bar(ax=ax, rot=0)
    task = get_task(reference["task"]).title
    ax.set_title(f"{reference['model']}, {task} ({metric}): ours and published", fontsize=10)
    ax.set_ylabel(f"{metric} (%)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))  # beside, not on bars
    fig.text(0.01, -0.04, f"Published: {reference['source']}", fontsize=6)
    _save(fig, path)
    plt.close(fig)
