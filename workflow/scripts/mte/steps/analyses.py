"""Why a model transfers where it does: a run's score files read against the languages'
metadata (XTREME section 5) and broken down by what the scorers record.

- ``wikipedia_correlation``: per task, model and setting, Pearson's and Spearman's correlation
  (scipy) over languages between the score (the task's primary metric, mean over seeds) and the
  log10 size of the language's Wikipedia, with the number of languages that have a size;
- ``groups``: per language family and per script, the mean score and the mean transfer gap
  (English's score minus the language's, over the group's other languages);
- ``entity_types``: NER precision, recall and F1 per entity type, language and seed;
- ``tag_accuracy`` and ``tag_confusions``: POS accuracy per UPOS tag, and the most frequent
  (gold, predicted) confusions, per language and seed;
- ``confusion``: classification counts of (gold, predicted) labels per language and seed.
- ``card_recipe``: the seed evaluation card's ``compute_metrics`` (exact match, precision, recall
  and F1 of whole outputs compared with ``==`` for NER and MLQA; accuracy otherwise) per
  language and seed, labelled as the card's, beside the official primary metric.

Every function takes score records (the dicts of ``scores/{lang}.json``) and returns a
DataFrame; nothing here changes a score.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from mte.registry import get_task
from mte.tasks.language_metadata import Language, load

KEYS = ("task", "model", "setting")


def _primary(record: Mapping[str, Any]) -> float:
    return float(record["metrics"][get_task(record["task"]).primary_metric])


def language_scores(records: Iterable[Mapping[str, Any]]) -> dict[tuple, dict[str, float]]:
    """(task, model, setting) -> language -> primary metric, mean over seeds."""
    collected: dict[tuple, dict[str, list[float]]] = {}
    for record in records:
        key = tuple(record[k] for k in KEYS)
        collected.setdefault(key, {}).setdefault(record["language"], []).append(_primary(record))
    return {
        key: {lang: sum(values) / len(values) for lang, values in by_language.items()}
        for key, by_language in collected.items()
    }


# languages below which a correlation's p-value is not given: over a handful of languages (the
# demo's six) a "significant" p says nothing worth printing, and reads as if it did
MIN_LANGUAGES_FOR_P = 10


def correlation(xs: list[float], ys: list[float]) -> dict[str, float]:
    """Pearson's r and Spearman's rho of two equally long lists, with their two-sided p-values
    from MIN_LANGUAGES_FOR_P points on (NaN below); NaN with fewer than three points (a line
    through two points says nothing)."""
    from scipy import stats

    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} x values against {len(ys)} y values")
    nan = float("nan")
    if len(xs) < 3:
        return {"pearson_r": nan, "pearson_p": nan, "spearman_rho": nan, "spearman_p": nan}
    pearson = stats.pearsonr(xs, ys)
    spearman = stats.spearmanr(xs, ys)
    tested = len(xs) >= MIN_LANGUAGES_FOR_P
    return {
        "pearson_r": float(pearson.statistic),
        "pearson_p": float(pearson.pvalue) if tested else nan,
        "spearman_rho": float(spearman.statistic),
        "spearman_p": float(spearman.pvalue) if tested else nan,
    }


def wikipedia_correlation(
    records: Iterable[Mapping[str, Any]], metadata: Mapping[str, Language] | None = None
) -> pd.DataFrame:
    """Score against log10 Wikipedia size, per task, model and setting, over the languages
    with a size (``n``; ``without_size`` lists the others)."""
    metadata = load() if metadata is None else metadata
    rows = []
    for key, by_language in sorted(language_scores(records).items()):
        sized = [
            (lang, score)
            for lang, score in sorted(by_language.items())
            if lang in metadata and metadata[lang].wikipedia_articles
        ]
        xs = [math.log10(metadata[lang].wikipedia_articles) for lang, _ in sized]
        ys = [score for _, score in sized]
        rows.append(
            {
                **dict(zip(KEYS, key, strict=True)),
                "n": len(sized),
                **correlation(xs, ys),
                "without_size": " ".join(sorted(set(by_language) - {lang for lang, _ in sized})),
            }
        )
    columns = [*KEYS, "n", "pearson_r", "pearson_p", "spearman_rho", "spearman_p", "without_size"]
    return pd.DataFrame(rows, columns=columns)


def groups(
    records: Iterable[Mapping[str, Any]],
    by: str,
    metadata: Mapping[str, Language] | None = None,
) -> pd.DataFrame:
    """Per task, model, setting and group (``by``: ``family`` or ``script``): the group's
    languages, their mean score and mean transfer gap (English minus the language, over the
    group's languages other than English; NaN without an English score). Languages without a
    value for ``by`` form no group."""
    if by not in ("family", "script"):
        raise ValueError(f"groups by family or script, not {by!r}")
    metadata = load() if metadata is None else metadata
    rows = []
    for key, by_language in sorted(language_scores(records).items()):
        english = by_language.get("en")
        members: dict[str, list[str]] = {}
        for lang in sorted(by_language):
            value = getattr(metadata[lang], by) if lang in metadata else None
            if value:
                members.setdefault(value, []).append(lang)
        for group, langs in sorted(members.items()):
            others = [lang for lang in langs if lang != "en"]
            gap = (
                sum(english - by_language[lang] for lang in others) / len(others)
                if english is not None and others
                else float("nan")
            )
            rows.append(
                {
                    **dict(zip(KEYS, key, strict=True)),
                    by: group,
                    "languages": " ".join(langs),
                    "n": len(langs),
                    "mean": sum(by_language[lang] for lang in langs) / len(langs),
                    "transfer_gap": gap,
                }
            )
    return pd.DataFrame(rows, columns=[*KEYS, by, "languages", "n", "mean", "transfer_gap"])


def _identity(record: Mapping[str, Any]) -> dict[str, Any]:
    return {**{k: record[k] for k in KEYS}, "seed": record["seed"], "language": record["language"]}


def entity_types(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    rows = [
        {**_identity(record), "type": kind, **counts}
        for record in records
        for kind, counts in ((record.get("breakdown") or {}).get("entity_types") or {}).items()
    ]
    columns = ["type", "precision", "recall", "f1", "right", "predicted", "gold"]
    return pd.DataFrame(rows, columns=[*KEYS, "seed", "language", *columns])


def tag_accuracy(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    rows = [
        {**_identity(record), "tag": tag, **counts}
        for record in records
        for tag, counts in ((record.get("breakdown") or {}).get("tags") or {}).items()
    ]
    return pd.DataFrame(
        rows, columns=[*KEYS, "seed", "language", "tag", "words", "right", "accuracy"]
    )


def tag_confusions(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    rows = [
        {**_identity(record), **confusion}
        for record in records
        for confusion in (record.get("breakdown") or {}).get("confusions") or ()
    ]
    return pd.DataFrame(rows, columns=[*KEYS, "seed", "language", "gold", "predicted", "count"])


def confusion(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    rows = []
    for record in records:
        matrix = (record.get("breakdown") or {}).get("confusion")
        if not matrix:
            continue
        labels = matrix["labels"]
        for i, gold in enumerate(labels):
            for j, predicted in enumerate(labels):
                rows.append(
                    {
                        **_identity(record),
                        "gold": gold,
                        "predicted": predicted,
                        "count": matrix["matrix"][i][j],
                    }
                )
    return pd.DataFrame(rows, columns=[*KEYS, "seed", "language", "gold", "predicted", "count"])


# what the seed card's compute_metrics gives (mte.stats.metrics.card_metrics), as card_recipe.csv's
# columns; a branch leaves the others' empty (accuracy for NER and MLQA, the rest for labels)
CARD_COLUMNS = (
    "branch",
    "examples",
    "matched",
    "predicted",
    "gold",
    "exact_match",
    "precision",
    "recall",
    "f1",
    "accuracy",
)


def card_recipe(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """The seed evaluation card's recipe (mte.stats.metrics.card_metrics) per language and seed,
    with the task's official primary metric beside it: a different count, never a replacement."""
    rows = []
    for record in records:
        recipe = (record.get("breakdown") or {}).get("card_recipe")
        if not recipe:
            continue
        metric = get_task(record["task"]).primary_metric
        rows.append(
            {
                **_identity(record),
                **{column: recipe.get(column) for column in CARD_COLUMNS},
                "official_metric": metric,
                "official": float(record["metrics"][metric]),
            }
        )
    columns = [*KEYS, "seed", "language", *CARD_COLUMNS, "official_metric", "official"]
    return pd.DataFrame(rows, columns=columns)


TITLES = {
    "wikipedia_correlation": "Score against log10 Wikipedia size (correlation over languages)",
    "families": "Mean score and transfer gap per language family (Glottolog)",
    "scripts": "Mean score and transfer gap per script (ISO 15924)",
    "entity_types": "NER: entity precision, recall and F1 per type",
    "tag_accuracy": "POS: accuracy per UPOS tag",
    "tag_confusions": "POS: the most frequent confusions (gold tag taken for another)",
    "confusion": "Classification: gold label x predicted label (counts)",
    "card_recipe": "The seed evaluation card's recipe, beside the official metric (not a "
    "replacement): its compute_metrics, whole outputs compared with ==",
}
# the analyses' names, in the report's order (each a CSV file of the analyze rule)
ANALYSES = tuple(TITLES)
PERCENT = (
    "mean",
    "transfer_gap",
    "precision",
    "recall",
    "f1",
    "accuracy",
    "exact_match",
    "official",
)
PROPORTION = ("pearson_r", "spearman_rho")
P_VALUES = ("pearson_p", "spearman_p")


def _printed(column: str, value: Any) -> str:
    if value is None or isinstance(value, float) and math.isnan(value):
        return "-"
    if column in PERCENT:
        return f"{100 * value:.1f}"
    if column in PROPORTION:
        return f"{value:.3f}"
    if column in P_VALUES:
        return f"{value:.3g}"
    return str(value)


def analyses_document(tables: Mapping[str, pd.DataFrame], run: str):
    """The report's page of a run's analyses: one section per analysis with rows (scores in
    percent), the classification counts as gold x predicted matrices, the sources of the
    language metadata as notes."""
    from mte.tables.render import Document
    from mte.tasks.language_metadata import SOURCES

    sections = []
    for name in ANALYSES:
        table = tables[name]
        if table.empty:
            continue
        if name == "confusion":
            sections += confusion_matrices(table)
        else:
            sections.append((TITLES[name], _grid(table)))
    notes = [
        "Scores in percent; a transfer gap is English's score minus the language's. "
        "Correlations over languages with a Wikipedia size (n); Pearson on log10 size; "
        f"p-values only over {MIN_LANGUAGES_FOR_P} or more languages ('-' below: over fewer, "
        "a test across languages says next to nothing); "
        "without_size: the languages left out for want of one (none: every language has one).",
        *(f"{key}: {text}" for key, text in SOURCES.items()),
    ]
    if not sections:
        notes.insert(0, "No analysis applies to this run's tasks and languages.")
    return Document(f"Analyses: {run}", sections, notes)


def _grid(table: pd.DataFrame):
    """A table as the page prints it: its text columns (the keys, seed, language, and any of
    words: languages, without_size, ...) first and left-aligned, then its numbers."""
    from mte.tables.render import Grid

    keys = (*KEYS, "seed", "language")
    numeric = pd.api.types.is_numeric_dtype
    text = [c for c in table.columns if c in keys or not numeric(table[c])]
    ordered = [*text, *(c for c in table.columns if c not in text)]
    rows = [
        [_printed(column, row[column]) or "none" for column in ordered]
        for _, row in table.iterrows()
    ]
    return Grid(ordered, rows, len(text))


def confusion_matrices(table: pd.DataFrame) -> list[tuple[str, Any]]:
    """The confusion counts as matrices: per task a section whose rows are a run's (model,
    setting, seed, language) gold labels and whose columns are the predicted labels."""
    from mte.tables.render import Grid

    sections = []
    for task, counts in table.groupby("task", sort=False):
        labels = list(dict.fromkeys(counts["predicted"]))
        header = ["model", "setting", "seed", "language", "gold \\ predicted", *labels]
        rows = []
        keys = ["model", "setting", "seed", "language"]
        for key, block in counts.groupby(keys, sort=False):
            cells = block.set_index(["gold", "predicted"])["count"]
            for gold in dict.fromkeys(block["gold"]):
                rows.append([*map(str, key), str(gold), *(str(cells[gold, p]) for p in labels)])
        sections.append((f"{TITLES['confusion']}: {task}", Grid(header, rows, 5)))
    return sections


def predictions_index(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Where each score's per-example predictions lie: a row per score file, sorted."""
    rows = [
        {**_identity(record), "predictions": record.get("predictions", "")} for record in records
    ]
    columns = [*KEYS, "seed", "language", "predictions"]
    return pd.DataFrame(rows, columns=columns).sort_values(columns[:5], kind="stable")


def analyses(records: list[Mapping[str, Any]]) -> dict[str, pd.DataFrame]:
    """Every analysis of a run's score records, by the name of its file."""
    return {
        "wikipedia_correlation": wikipedia_correlation(records),
        "families": groups(records, "family"),
        "scripts": groups(records, "script"),
        "entity_types": entity_types(records),
        "tag_accuracy": tag_accuracy(records),
        "tag_confusions": tag_confusions(records),
        "confusion": confusion(records),
        "card_recipe": card_recipe(records),
    }
