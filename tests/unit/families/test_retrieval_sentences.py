"""The sed-style sentence breaker of XTREME-R's LAReQA fine-tune, on sentences whose breaks
are worked out by hand from its rules (mte.families.retrieval.sentences)."""

from __future__ import annotations

import pytest

from mte.families.retrieval.sentences import sentence_breaks


def _sentences(text: str) -> list[str]:
    return [text[start:end] for start, end in sentence_breaks(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a stop, a space and a capital or a digit
        ("He left. She stayed.", ["He left.", "She stayed."]),
        ("It had 3 parts. 2 were lost.", ["It had 3 parts.", "2 were lost."]),
        # lower case after the stop: no break
        ("He said no. the end came.", ["He said no. the end came."]),
        # a closing quote stays with its sentence, an opening one with the next
        ('He said "go." "Why?" she asked.', ['He said "go."', '"Why?" she asked.']),
        # titles, abbreviations and initials keep their sentence
        ("Dr. Smith came. He sat.", ["Dr. Smith came.", "He sat."]),
        ("See e.g. Smith on it.", ["See e.g. Smith on it."]),
        ("It was J. R. R. Tolkien. Yes.", ["It was J. R. R. Tolkien.", "Yes."]),
        ("He was born c. 1900 in Paris.", ["He was born c. 1900 in Paris."]),
        # a month abbreviation is joined, then "In" opens a sentence again
        ("It rained in Jan. In Feb. it snowed.", ["It rained in Jan.", "In Feb. it snowed."]),
        # "Feb." is no listed month: a capital after it breaks
        ("Rain in Feb. More in March.", ["Rain in Feb.", "More in March."]),
        # Wikipedia's note marks stay before the break
        ("It grew.[citation needed] Then it fell.", ["It grew.[citation needed]", "Then it fell."]),
        # line breaks read as spaces; spaces around sentences are not theirs
        ("  One here.\nTwo there.  ", ["One here.", "Two there."]),
        # SQuAD's own: "iPod" opens a sentence in lower case
        ("It sold well. iPod sales grew.", ["It sold well.", "iPod sales grew."]),
    ],
)
def test_sentences_as_the_rules_break_them(text: str, expected: list[str]) -> None:
    assert _sentences(text) == expected


def test_spans_point_into_the_text() -> None:
    text = "  One here.\nTwo there.  "
    assert list(sentence_breaks(text)) == [(2, 11), (12, 22)]


def test_a_text_without_a_stop_is_one_sentence() -> None:
    assert list(sentence_breaks("no stop at all")) == [(0, 14)]
