"""Prediction files a person can read: each record holds the answer, the model's probabilities
or score, and the gold label, worked out by hand from given logits."""

from __future__ import annotations

import math

import pytest
import torch

from mte.families.pairs.heads import ClassificationHead
from mte.families.qa.heads import QuestionAnsweringHead
from mte.families.tagging.heads import TaggingHead
from mte.registry import TASKS


def _predict(head, features: dict, outputs: dict) -> list[dict]:
    collected = head.start(features)
    head.read(features, list(range(len(features["input_ids"]))), outputs, collected)
    return head.records(features, head.finish(features, collected))


def test_classification_records_carry_probabilities_and_gold() -> None:
    features = {
        "ids": ["a", "b"],
        "input_ids": [[5, 6], [5, 7]],
        "label_names": ["entailment", "neutral", "contradiction"],
        "labels": [0, 1],
    }
    logits = torch.tensor([[2.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    first, second = _predict(ClassificationHead(TASKS["xnli"]), features, {"logits": logits})
    # softmax(2, 0, 0) = e^2 / (e^2 + 2) and 1 / (e^2 + 2); softmax(0, 0, 1) = e / (e + 2)
    e2, e = math.exp(2), math.e
    assert first["id"] == "a" and first["label"] == "entailment" and first["gold"] == "entailment"
    assert first["probabilities"] == pytest.approx(
        {"entailment": e2 / (e2 + 2), "neutral": 1 / (e2 + 2), "contradiction": 1 / (e2 + 2)},
        abs=1e-6,
    )
    assert second["label"] == "contradiction" and second["gold"] == "neutral"
    assert second["probabilities"]["contradiction"] == pytest.approx(e / (e + 2), abs=1e-6)


def test_an_unlabelled_test_set_gets_no_gold() -> None:
    features = {"ids": ["a"], "input_ids": [[5]], "label_names": ["0", "1"], "labels": [-1]}
    (record,) = _predict(
        ClassificationHead(TASKS["pawsx"]), features, {"logits": torch.tensor([[0.0, 1.0]])}
    )
    assert "gold" not in record and record["label"] == "1"


def test_tagging_records_carry_each_words_tag_probability_and_gold() -> None:
    names = ["O", "B-PER", "I-PER"]
    # one sentence of three words in two windows: words 0-1, then word 2
    features = {
        "ids": ["s1"],
        "input_ids": [[1, 2, 3, 4], [1, 5, 6]],
        "window_positions": [[1, 2], [1]],
        "window_example": [0, 0],
        "label_names": names,
        "word_labels": [[1, 2, 0]],
    }
    logits = torch.zeros(2, 4, 3)
    logits[0, 1] = torch.tensor([0.0, 2.0, 0.0])  # B-PER, e^2 / (e^2 + 2)
    logits[0, 2] = torch.tensor([0.0, 0.0, 1.0])  # I-PER, e / (e + 2)
    logits[1, 1] = torch.tensor([1.0, 0.0, 0.0])  # O, e / (e + 2)
    (record,) = _predict(TaggingHead(TASKS["panx"]), features, {"logits": logits})
    e2, e = math.exp(2), math.e
    assert record["tags"] == ["B-PER", "I-PER", "O"] and record["gold"] == record["tags"]
    assert record["tag_probabilities"] == pytest.approx(
        [e2 / (e2 + 2), e / (e + 2), e / (e + 2)], abs=1e-6
    )


def test_qa_records_carry_the_span_score_and_gold_answers() -> None:
    context = "Paris is the capital"
    features = {
        "ids": ["q1"],
        "input_ids": [[0, 9, 9, 2, 5, 6, 7, 8, 2]],
        "window_example": [0],
        # question and special tokens have no offset; then the four words' characters
        "offsets": [[None, None, None, None, (0, 5), (6, 8), (9, 12), (13, 20), None]],
        "contexts": [context],
        "answers": [["Paris"]],
    }
    start = torch.full((1, 9), -5.0)
    end = torch.full((1, 9), -5.0)
    start[0, 4], end[0, 4] = 3.0, 2.5  # "Paris": 3.0 + 2.5
    (record,) = _predict(
        QuestionAnsweringHead(TASKS["xquad"]), features, {"start_logits": start, "end_logits": end}
    )
    assert record == {"id": "q1", "answer": "Paris", "score": 5.5, "gold": ["Paris"]}
