"""Extractive QA scores with the official semantics: SQuAD v1.1 and MLQA v1.

Both take the maximum over a question's gold answers and average over questions. Scores are
fractions like every metric here; the tables print them in percent, as the papers do.
"""

from __future__ import annotations

import re
import string
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence

from mte.tasks.spec import Task

SQUAD_PUNCTUATION = frozenset(string.punctuation)
# MLQA: every Unicode punctuation character (categories P*) and ASCII punctuation
MLQA_PUNCTUATION = (
    frozenset(
        chr(i) for i in range(sys.maxunicode + 1) if unicodedata.category(chr(i)).startswith("P")
    )
    | SQUAD_PUNCTUATION
)
MLQA_ARTICLES = {
    "en": re.compile(r"\b(a|an|the)\b"),
    "es": re.compile(r"\b(un|una|unos|unas|el|la|los|las)\b"),
    "vi": re.compile(r"\b(của|là|cái|chiếc|những)\b"),
    "de": re.compile(r"\b(ein|eine|einen|einem|eines|einer|der|die|das|den|dem|des)\b"),
    # the official script's pattern: its first branch can never match, so every "ال" in the
    # text is replaced, at a word's start or not
    "ar": re.compile("\\sال^|ال"),
}
MLQA_NO_ARTICLES = ("hi", "zh")
MLQA_LANGUAGES = ("en", "es", "de", "ar", "hi", "vi", "zh")
CJK = re.compile("[\u4e00-\u9fa5]")


def normalize_squad(text: str) -> str:
    """SQuAD v1.1: lower case, drop ASCII punctuation, drop a/an/the, collapse white space."""
    text = "".join(ch for ch in text.lower() if ch not in SQUAD_PUNCTUATION)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def _mixed_segmentation(text: str) -> list[str]:
    """MLQA's Chinese segmentation: each CJK character and punctuation mark is a token; runs
    of other characters are split on white space."""
    tokens: list[str] = []
    pending = ""
    for ch in text:
        if CJK.search(ch) or ch in MLQA_PUNCTUATION:
            tokens.extend(pending.split())
            pending = ""
            tokens.append(ch)
        else:
            pending += ch
    tokens.extend(pending.split())
    return tokens


def normalize_mlqa(text: str, language: str) -> str:
    """MLQA v1: lower case, drop Unicode and ASCII punctuation, drop the language's articles,
    then split on white space (characters for zh) and join with single spaces."""
    if language not in MLQA_LANGUAGES:
        raise ValueError(f"MLQA has no answer normalisation for language '{language}'")
    text = "".join(ch for ch in text.lower() if ch not in MLQA_PUNCTUATION)
    if language not in MLQA_NO_ARTICLES:
        text = MLQA_ARTICLES[language].sub(" ", text)
    tokens = _mixed_segmentation(text) if language == "zh" else text.split()
    return " ".join(t for t in tokens if t.strip())


def _f1(prediction: str, gold: str) -> float:
    predicted, expected = prediction.split(), gold.split()
    common = Counter(predicted) & Counter(expected)
    overlap = sum(common.values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(predicted), overlap / len(expected)
    return 2 * precision * recall / (precision + recall)


def qa_example_scores(
    predictions: Sequence[str],
    gold_answers: Sequence[Sequence[str]],
    normalize: Callable[[str], str],
) -> list[tuple[float, float]]:
    """(token F1, exact match) of each question: the best over its gold answers."""
    if len(predictions) != len(gold_answers):
        raise ValueError(f"{len(gold_answers)} questions but {len(predictions)} predictions")
    scores = []
    for prediction, answers in zip(predictions, gold_answers, strict=True):
        if not answers:
            raise ValueError("a question without gold answers cannot be scored")
        guess = normalize(prediction)
        scores.append(
            (
                max(_f1(guess, normalize(a)) for a in answers),
                max(float(guess == normalize(a)) for a in answers),
            )
        )
    return scores


def qa_scores(
    predictions: Sequence[str],
    gold_answers: Sequence[Sequence[str]],
    normalize: Callable[[str], str],
) -> dict[str, float]:
    """Exact match and token F1 (fractions): per question the best over its gold answers,
    then the mean over questions."""
    scores = qa_example_scores(predictions, gold_answers, normalize)
    return {
        "f1": sum(f1 for f1, _ in scores) / len(scores),
        "exact_match": sum(em for _, em in scores) / len(scores),
    }


def answer_language(language: str) -> str:
    """The language whose normalisation scores answers: a G-XLT pair's context language."""
    return language.split("-")[0]


def qa_normalizer(task: Task, language: str) -> Callable[[str], str]:
    """The answer normalisation of a QA task's official script for ``language``."""
    if task.options.normalization == "mlqa":
        context_language = answer_language(language)
        return lambda text: normalize_mlqa(text, context_language)
    return normalize_squad
