"""XTREME's pseudo test analysis (Hu et al. 2020, section 3.4): the English test set machine-
translated into each language against the human translation of the same items. Per language:
BLEU and chrF of the machine translation (human as reference) and the model's score on each;
across languages, Pearson's r of translation quality against the score difference."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from mte.errors import IntegrityError

# sacrebleu's tokenisation for BLEU where 13a (spaces and punctuation) does not apply:
# Chinese by character with its own rules, scripts written without spaces by character
NO_CORRELATION = "n/a (fewer than three languages, or no spread)"
BLEU_TOKENIZE = {"zh": "zh", "ja": "char", "th": "char", "my": "char", "km": "char", "lo": "char"}


def translation_quality(
    human: list[dict[str, Any]],
    machine: list[dict[str, Any]],
    segments: Callable[[dict[str, Any]], list[str]],
    language: str,
    human_path: str = "human",
    machine_path: str = "machine",
) -> dict[str, float]:
    """Corpus BLEU and chrF (sacrebleu) of the machine translations against the human ones,
    paired by example id (both sets must hold the same ids); ``segments``: the texts of one
    example a translation carries, as its task's family defines them."""
    import sacrebleu

    by_id = {example["id"]: example for example in machine}
    missing = [example["id"] for example in human if example["id"] not in by_id]
    if missing or len(by_id) != len(human):
        raise IntegrityError(
            f"{machine_path} and {human_path} do not hold the same examples "
            f"({len(machine)} and {len(human)}; first missing: {missing[:3]})"
        )
    references, hypotheses = [], []
    for example in human:
        reference = segments(example)
        hypothesis = segments(by_id[example["id"]])
        if len(reference) != len(hypothesis):
            raise IntegrityError(f"{machine_path}: id {example['id']!r} lacks a text field")
        references += reference
        hypotheses += hypothesis
    tokenize = BLEU_TOKENIZE.get(language, "13a")
    bleu = sacrebleu.corpus_bleu(hypotheses, [references], tokenize=tokenize)
    chrf = sacrebleu.corpus_chrf(hypotheses, [references])
    return {"bleu": bleu.score, "chrf": chrf.score, "bleu_tokenize": tokenize}


def pseudo_test_rows(
    task: Any,
    languages: list[str],
    human_scores: list[dict[str, Any]],
    pseudo_scores: list[dict[str, Any]],
    human_data: list[list[dict[str, Any]]],
    pseudo_data: list[list[dict[str, Any]]],
    segments: Callable[[dict[str, Any]], list[str]],
) -> list[dict[str, Any]]:
    """One row per model and language: translation quality (``*_data``: per language, in the
    order of ``languages``; ``segments``: the texts of an example a translation carries) and the
    primary metric on both test sets, mean over seeds."""
    quality = {
        language: translation_quality(human, pseudo, segments, language)
        for language, human, pseudo in zip(languages, human_data, pseudo_data, strict=True)
    }

    def mean_scores(scores: list[dict[str, Any]]) -> dict[tuple[str, str], float]:
        values: dict[tuple[str, str], list[float]] = {}
        for s in scores:
            values.setdefault((s["model"], s["language"]), []).append(
                100 * s["metrics"][task.primary_metric]
            )
        return {key: sum(v) / len(v) for key, v in values.items()}

    human, pseudo = mean_scores(human_scores), mean_scores(pseudo_scores)
    models = list(dict.fromkeys(model for model, _ in human))
    return [
        {
            "model": model,
            "language": language,
            **quality[language],
            "human": human[(model, language)],
            "pseudo": pseudo[(model, language)],
        }
        for model in models
        for language in languages
    ]


def pseudo_test_table(rows: list[dict[str, Any]]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Per language: BLEU, chrF, the score on the human and on the pseudo test set (percent,
    mean over seeds) and their difference (pseudo - human); and per model Pearson's r (scipy)
    of BLEU and of chrF against the difference across languages (None with fewer than three
    languages or no spread)."""
    from scipy.stats import pearsonr

    table = pd.DataFrame(rows)
    table["difference"] = table["pseudo"] - table["human"]
    correlations: dict[str, Any] = {}
    for model, part in table.groupby("model", sort=False):
        found: dict[str, Any] = {"languages": len(part)}
        for quality in ("bleu", "chrf"):
            value = None
            if len(part) >= 3 and part[quality].nunique() > 1 and part["difference"].nunique() > 1:
                value = float(pearsonr(part[quality], part["difference"]).statistic)
            found[f"pearson_{quality}_difference"] = value
        correlations[model] = found
    return table, correlations


def pseudo_test_markdown(
    table: pd.DataFrame, correlations: dict[str, Any], title: str, metric: str
) -> str:
    """The analysis as Markdown: one row per model and language, r under it."""
    lines = [
        f"# {title}: pseudo test sets (English test machine-translated) vs human translations",
        "",
        f"| model | language | BLEU | chrF | {metric} human | {metric} pseudo | pseudo - human |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for _, row in table.iterrows():
        lines.append(
            f"| {row['model']} | {row['language']} | {row['bleu']:.1f} | {row['chrf']:.1f} | "
            f"{row['human']:.1f} | {row['pseudo']:.1f} | {row['difference']:+.1f} |"
        )
    for model, found in correlations.items():
        lines.append("")
        for quality, name in (("bleu", "BLEU"), ("chrf", "chrF")):
            value = found[f"pearson_{quality}_difference"]
            shown = (
                "n/a (fewer than three languages, or no spread)"
                if value is None
                else f"{value:.3f}"
            )
            lines.append(f"{model}: Pearson's r of {name} and the difference: {shown}.")
    return "\n".join(lines) + "\n"
