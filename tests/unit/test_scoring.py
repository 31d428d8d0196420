"""Scores are computed only when predictions and gold match one to one."""

from __future__ import annotations

import pytest

from mte.errors import IntegrityError
from mte.registry import TASKS
from tests.scoring_helper import score

XNLI = TASKS["xnli"]
GOLD = [
    {"id": "1", "text_a": "", "text_b": "", "label": "entailment"},
    {"id": "2", "text_a": "", "text_b": "", "label": "neutral"},
    {"id": "3", "text_a": "", "text_b": "", "label": "contradiction"},
]


def _pred(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"id": i, "label": label} for i, label in pairs]


def test_score_in_any_order() -> None:
    predictions = _pred(("3", "contradiction"), ("1", "neutral"), ("2", "neutral"))
    result = score(XNLI, predictions, GOLD, "p.jsonl", "g.jsonl")
    stats = result.pop("example_stats")
    # the breakdown, in gold order whatever the predictions' order: entailment taken for neutral
    assert result == {
        "n": 3,
        "metrics": {"accuracy": 2 / 3},
        "breakdown": {
            "confusion": {
                "labels": ["entailment", "neutral", "contradiction"],
                "matrix": [[0, 1, 0], [0, 1, 0], [0, 0, 1]],
            },
            # the seed card's recipe, its accuracy branch: 2 of 3 labels equal their gold
            "card_recipe": {"branch": "XNLI", "examples": 3, "matched": 2, "accuracy": 2 / 3},
        },
    }
    # per example, in gold order, its one-hot confusion cell gold * 3 + predicted
    # (entailment 0, neutral 1, contradiction 2): (0, 1) -> 1, (1, 1) -> 4, (2, 2) -> 8
    assert [list(row).index(1) for row in stats] == [1, 4, 8]
    assert stats.sum() == 3


@pytest.mark.parametrize(
    ("predictions", "message"),
    [
        (
            _pred(("1", "neutral"), ("2", "neutral")),
            "1 gold ids have no prediction in p.jsonl: '3'",
        ),
        (
            _pred(("1", "neutral"), ("2", "neutral"), ("3", "neutral"), ("9", "neutral")),
            "1 predicted ids are not in the gold file g.jsonl: '9'",
        ),
        (
            _pred(("1", "neutral"), ("2", "neutral"), ("2", "neutral"), ("3", "neutral")),
            "duplicated prediction ids in p.jsonl: '2'",
        ),
        (
            _pred(("1", "neutral"), ("2", "maybe"), ("3", "neutral")),
            "predicted label(s) 'maybe' are not labels of XNLI",
        ),
    ],
)
def test_mismatches_stop_scoring(predictions: list[dict[str, str]], message: str) -> None:
    with pytest.raises(IntegrityError) as caught:
        score(XNLI, predictions, GOLD, "p.jsonl", "g.jsonl")
    assert message in str(caught.value)


def test_tagging_predictions_must_have_one_tag_per_word() -> None:
    panx = TASKS["panx"]
    gold = [{"id": "1", "tokens": ["Paris", "is", "big"], "tags": ["B-LOC", "O", "O"]}]
    right = [{"id": "1", "tags": ["B-LOC", "O", "O"]}]
    assert score(panx, right, gold, "p", "g")["metrics"]["f1"] == 1.0
    with pytest.raises(IntegrityError, match="sentence '1' has 3 words in g but 2 predicted"):
        score(panx, [{"id": "1", "tags": ["B-LOC", "O"]}], gold, "p", "g")
    with pytest.raises(IntegrityError, match="'B-GPE' are not tags of PAN-X"):
        score(panx, [{"id": "1", "tags": ["B-GPE", "O", "O"]}], gold, "p", "g")


def test_qa_scores_use_the_languages_normalisation() -> None:
    gold = [
        {
            "id": "1",
            "context": "",
            "question": "",
            "answers": {"text": ["la casa"], "answer_start": [0]},
        }
    ]
    # MLQA Spanish drops the article "la"; SQuAD (XQuAD) does not
    mlqa = score(TASKS["mlqa"], [{"id": "1", "answer": "casa"}], gold, "p", "g", "es")
    assert mlqa["metrics"] == {"f1": 1.0, "exact_match": 1.0}
    xquad = score(TASKS["xquad"], [{"id": "1", "answer": "casa"}], gold, "p", "g", "es")
    assert xquad["metrics"]["exact_match"] == 0.0
    with pytest.raises(IntegrityError, match="no answer string for id"):
        score(TASKS["xquad"], [{"id": "1", "label": "x"}], gold, "p", "g", "es")
    with pytest.raises(IntegrityError, match="gold ids have no prediction"):
        score(TASKS["xquad"], [{"id": "2", "answer": "x"}], gold, "p", "g", "es")
    # a gold question without answers is a gold problem named like the others, not a bare error
    no_answers = [{**gold[0], "id": "q7", "answers": {"text": [], "answer_start": []}}]
    with pytest.raises(IntegrityError, match=r"^g: question\(s\) 'q7' have no gold answer"):
        score(TASKS["xquad"], [{"id": "q7", "answer": "x"}], no_answers, "p", "g", "es")


def _files(tmp_path, predictions: list[dict], gold: list[dict]):
    from mte.io import write_jsonl

    write_jsonl(tmp_path / "predictions.jsonl", predictions)
    write_jsonl(tmp_path / "gold.jsonl", gold)
    return tmp_path / "predictions.jsonl", tmp_path / "gold.jsonl"


TAG_GOLD = [
    {"id": "1", "tokens": ["Paris", "is"], "tags": ["B-LOC", "O"]},
    {"id": "2", "tokens": ["Anna"], "tags": ["B-PER"]},
]
QA_GOLD = [
    {
        "id": "q1",
        "context": "Paris is big.",
        "question": "?",
        "answers": {"text": ["Paris"], "answer_start": [0]},
    },
    {
        "id": "q2",
        "context": "Anna sleeps.",
        "question": "?",
        "answers": {"text": ["Anna"], "answer_start": [0]},
    },
]
STS_GOLD = [
    {"id": "1", "text_a": "", "text_b": "", "label": 1.0},
    {"id": "2", "text_a": "", "text_b": "", "label": 4.0},
]


@pytest.mark.parametrize(
    ("task", "gold", "predictions", "message"),
    [
        ("panx", TAG_GOLD, [{"id": "1", "tags": ["B-LOC", "O"]}], "1 gold ids have no prediction"),
        (
            "panx",
            TAG_GOLD,
            [
                {"id": i, "tags": t["tags"]}
                for i, t in (("1", TAG_GOLD[0]), ("1", TAG_GOLD[0]), ("2", TAG_GOLD[1]))
            ],
            "duplicated prediction ids",
        ),
        (
            "panx",
            TAG_GOLD,
            [{"id": "1", "tags": ["B-LOC", "O"]}, {"id": "2", "tags": ["B-XYZ"]}],
            "'B-XYZ' are not tags of PAN-X",
        ),
        ("xquad", QA_GOLD, [{"id": "q1", "answer": "Paris"}], "1 gold ids have no prediction"),
        (
            "xquad",
            QA_GOLD,
            [
                {"id": "q1", "answer": "Paris"},
                {"id": "q2", "answer": "Anna"},
                {"id": "q9", "answer": "x"},
            ],
            "1 predicted ids are not in the gold file",
        ),
        (
            "stsb",
            STS_GOLD,
            [{"id": "1", "score": 1.0}, {"id": "2", "score": float("nan")}],
            "no finite score for id(s) '2'",
        ),
        (
            "xnli",
            GOLD,
            _pred(("1", "neutral"), ("2", "neutral"), ("3", "NEUTRAL")),
            "'NEUTRAL' are not labels of XNLI",
        ),
    ],
    ids=[
        "tags-missing",
        "tags-duplicated",
        "tag-unknown",
        "qa-missing",
        "qa-extra",
        "sts-nan",
        "label-unknown",
    ],
)
def test_the_score_rule_stops_on_mismatched_files(
    tmp_path, task: str, gold: list, predictions: list, message: str
) -> None:
    """Through the score rule's own entry point, reading the files: one message, no score."""
    from mte.steps.scoring import score_record

    predictions_path, gold_path = _files(tmp_path, predictions, gold)
    run = {"model": "m", "setting": "zero-shot", "seed": 1, "language": "de"}
    statistics = {"resamples": 10, "seed": 1, "confidence": 0.95}
    with pytest.raises(IntegrityError) as caught:
        score_record(TASKS[task], predictions_path, gold_path, run, "test", statistics)
    assert message in str(caught.value)
    assert str(predictions_path) in str(caught.value) or str(gold_path) in str(caught.value)
