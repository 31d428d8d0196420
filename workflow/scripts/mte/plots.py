"""Figures (matplotlib, PNG): language x task heatmap, transfer gaps, ours against published."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from mte.summary import language_score, transfer_gap
from mte.tasks import get_task


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    return plt


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
    if len(matrix.index) > ROWS_PER_PANEL:
        _heatmap_panels(plt, matrix, model, setting, path)
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
    _save(fig, path)
    plt.close(fig)


def _heatmap_panels(plt: Any, matrix: pd.DataFrame, model: str, setting: str, path) -> None:
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
    gaps = {}
    for (series, task, english), group in frame.groupby(
        ["series", "task", "train_language"], sort=False
    ):
        gap = transfer_gap(group.groupby("language")["value"].mean().to_dict(), english)
        if gap is not None:
            gaps.setdefault(series, {})[task] = gap
    table = pd.DataFrame(gaps)
    fig, ax = plt.subplots(figsize=(max(4, 1.3 * max(len(table.index), 1) + 2), 3.5))
    if table.empty:
        ax.text(0.5, 0.5, "no task with English and another language", ha="center", va="center")
        ax.set_axis_off()
    else:
        table.plot.bar(ax=ax, rot=0)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel("English minus other languages (points)")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("Cross-lingual transfer gap per task")
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
    languages = [lang for lang in ours if lang in reference["values"]]
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
