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
