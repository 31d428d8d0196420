"""A task's table from its per-language score files: rows model x setting, a column per
language and the average (intervals and tests: mte.tables.statistics_columns; published rows:
mte.tables.published_rows; printing: mte.tables.render)."""

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
