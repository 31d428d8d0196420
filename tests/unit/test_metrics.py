"""Accuracy against values counted by hand."""

import pytest

from mte.metrics import accuracy


def test_accuracy_hand_counted() -> None:
    # 3 of 4 right
    assert accuracy(["a", "b", "c", "a"], ["a", "b", "c", "b"]) == 0.75
    assert accuracy([1], [1]) == 1.0
    assert accuracy([0, 0, 0], [1, 1, 1]) == 0.0


def test_accuracy_refuses_mismatched_or_empty() -> None:
    with pytest.raises(ValueError, match="2 gold labels but 1 predictions"):
        accuracy(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="empty"):
        accuracy([], [])


def test_entity_f1_hand_worked() -> None:
    from mte.metrics import entities, entity_prf

    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    # PER right; LOC predicted as ORG (wrong type); ORG boundaries wrong (two tokens)
    predicted = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "I-ORG"]]
    assert entities(gold[0]) == {("PER", 0, 1), ("LOC", 3, 3)}
    # 1 correct of 3 predicted and 3 gold: P = R = F1 = 1/3
    assert entity_prf(gold, predicted) == pytest.approx(
        {"precision": 1 / 3, "recall": 1 / 3, "f1": 1 / 3}
    )
    # an I- after O opens an entity (conlleval), so IOB1-style input is read as chunks
    assert entities(["I-PER", "I-PER", "O", "I-LOC"]) == {("PER", 0, 1), ("LOC", 3, 3)}
    assert entities(["B-PER", "I-LOC"]) == {("PER", 0, 0), ("LOC", 1, 1)}
    # nothing predicted: precision and F1 are 0, not undefined
    assert entity_prf([["B-PER"]], [["O"]]) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_token_f1_hand_worked() -> None:
    from mte.metrics import token_f1

    gold = [["B-PER", "I-PER", "O", "B-LOC"]]
    predicted = [["B-PER", "O", "B-LOC", "B-LOC"]]
    # non-O: gold 3, predicted 3, correct 2 (B-PER, B-LOC at 3): P = R = F1 = 2/3
    assert token_f1(gold, predicted) == pytest.approx(2 / 3)


def test_pos_metrics_hand_worked() -> None:
    from mte.metrics import tagging_metrics
    from mte.tasks import TASKS

    gold = [["NOUN", "VERB", "DET"], ["PRON"]]
    predicted = [["NOUN", "NOUN", "DET"], ["PRON"]]
    metrics = tagging_metrics(TASKS["udpos"], gold, predicted)
    assert metrics["accuracy"] == 0.75  # 3 of 4 tokens
    assert 0 <= metrics["seqeval_f1"] <= 1
