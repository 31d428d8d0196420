"""XTREME's pseudo test analysis: BLEU and chrF from sacrebleu, Pearson's r from scipy."""

from __future__ import annotations

import math

import pytest
import sacrebleu

from mte.errors import IntegrityError
from mte.registry import TASKS, family_of
from mte.steps.pseudo_test import (
    pseudo_test_markdown,
    pseudo_test_rows,
    pseudo_test_table,
    translation_quality,
)

XNLI = TASKS["xnli"]


def pair_texts(example: dict) -> list[str]:
    """What a translation of an XNLI example carries, as its family defines it."""
    return family_of(XNLI).segments(XNLI, example)


def _pair(id_: str, text_a: str, text_b: str) -> dict:
    return {"id": id_, "text_a": text_a, "text_b": text_b, "label": "neutral"}


def test_bleu_of_a_hand_checked_pair() -> None:
    human = [_pair("1", "the cat sat on the mat", "the cat sat on the mat")]
    machine = [_pair("1", "the cat sat on a mat", "the cat sat on the mat")]
    quality = translation_quality(human[:1], machine[:1], pair_texts, "de")
    # two segments: the second identical (6 of 6 unigrams, 5/5, 4/4, 3/3), the first with one
    # word changed (5/6, 3/5, 2/4, 1/3); same lengths, no brevity penalty:
    # BLEU = (11/12 * 8/10 * 6/8 * 4/6) ** (1/4)
    by_hand = 100 * (11 / 12 * 8 / 10 * 6 / 8 * 4 / 6) ** 0.25
    assert quality["bleu"] == pytest.approx(by_hand, abs=1e-6)
    hypotheses = ["the cat sat on a mat", "the cat sat on the mat"]
    references = [["the cat sat on the mat", "the cat sat on the mat"]]
    assert quality["chrf"] == pytest.approx(sacrebleu.corpus_chrf(hypotheses, references).score)
    assert 0 < quality["chrf"] < 100


def test_identical_translations_score_100_and_chinese_is_split_into_characters() -> None:
    human = [_pair("1", "我喜欢猫。", "我喜欢猫。")]
    quality = translation_quality(human, human, pair_texts, "zh")
    assert quality == {
        "bleu": pytest.approx(100.0),
        "chrf": pytest.approx(100.0),
        "bleu_tokenize": "zh",
    }


def test_sets_of_other_examples_are_refused() -> None:
    with pytest.raises(IntegrityError, match="do not hold the same examples"):
        translation_quality([_pair("1", "a", "b")], [_pair("2", "a", "b")], pair_texts, "de")


def _score(model: str, language: str, value: float, seed: int = 1) -> dict:
    return {"model": model, "language": language, "seed": seed, "metrics": {"accuracy": value}}


def test_rows_and_pearson_across_languages() -> None:
    languages = ["de", "es", "ru"]
    human_data = [[_pair("1", "a b c d", "e f g h")] for _ in languages]
    # machine translations of falling quality: all words right, one wrong, two wrong
    pseudo_data = [
        [_pair("1", "a b c d", "e f g h")],
        [_pair("1", "a b c x", "e f g h")],
        [_pair("1", "a b x d", "e f y h")],
    ]
    human = [_score("m", lang, 0.6) for lang in languages]
    # two seeds on the pseudo sets: their mean counts
    pseudo = [_score("m", "de", 0.6), _score("m", "es", 0.64), _score("m", "ru", 0.7)]
    pseudo += [_score("m", "de", 0.6, 2), _score("m", "es", 0.66, 2), _score("m", "ru", 0.7, 2)]
    rows = pseudo_test_rows(XNLI, languages, human, pseudo, human_data, pseudo_data, pair_texts)
    table, correlations = pseudo_test_table(rows)
    assert list(table["language"]) == languages
    assert list(table["difference"].round(6)) == [0.0, 5.0, 10.0]
    assert table["bleu"].iloc[0] == pytest.approx(100.0)
    bleu = list(table["bleu"])
    # Pearson's r by its definition
    mean_b, mean_d = sum(bleu) / 3, 5.0
    dx, dy = [b - mean_b for b in bleu], [d - mean_d for d in (0.0, 5.0, 10.0)]
    by_hand = sum(x * y for x, y in zip(dx, dy, strict=True)) / math.sqrt(
        sum(x * x for x in dx) * sum(y * y for y in dy)
    )
    assert correlations["m"]["pearson_bleu_difference"] == pytest.approx(by_hand)
    assert correlations["m"]["pearson_bleu_difference"] < 0
    markdown = pseudo_test_markdown(table, correlations, "XNLI", "accuracy")
    assert "| m | es |" in markdown and "+5.0" in markdown


def test_two_languages_give_no_correlation() -> None:
    rows = [
        {"model": "m", "language": lang, "bleu": b, "chrf": b, "human": 50.0, "pseudo": p}
        for lang, b, p in (("de", 30.0, 50.0), ("es", 40.0, 52.0))
    ]
    _, correlations = pseudo_test_table(rows)
    assert correlations["m"]["pearson_bleu_difference"] is None
