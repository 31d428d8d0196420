"""Aggregation of per-language score files into the papers' tables."""

from __future__ import annotations

from typing import Any

import pandas as pd

AVERAGE = "avg"


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


def with_second_metric(table: pd.DataFrame, second: pd.DataFrame, suffix: str) -> pd.DataFrame:
    """``table`` plus the value columns of a second metric's table, suffixed (QA: F1 and EM)."""
    values = [c for c in second.columns if c not in ("model", "setting", "seeds")]
    return table.join(second[values].add_suffix(f"_{suffix}"))


def to_markdown(
    table: pd.DataFrame, languages: list[str], title: str, second: str | None = None
) -> str:
    """A Markdown table: one decimal as the papers print, ``mean ± std`` for several seeds;
    with ``second`` (a column suffix), cells read ``first / second`` (QA's F1 / EM)."""
    columns = [*languages, AVERAGE]
    header = ["model", "setting", *columns]
    lines = [f"# {title}", "", "| " + " | ".join(header) + " |"]
    lines.append("|" + "---|" * 2 + "---:|" * len(columns))
    for _, row in table.iterrows():
        cells = []
        for column in columns:
            cell = f"{row[column]:.1f}"
            if f"{column}_std" in row and row["seeds"] > 1:
                cell += f" ± {row[f'{column}_std']:.1f}"
            if second:
                cell += f" / {row[f'{column}_{second}']:.1f}"
            cells.append(cell)
        lines.append("| " + " | ".join([row["model"], row["setting"], *cells]) + " |")
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
