"""Tagging features: one label position per word, windows for long sentences."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
from transformers import AutoTokenizer

from mte.families.tagging.features import tokenize_tagging
from mte.families.tagging.heads import TaggingHead
from mte.registry import TASKS

PANX = TASKS["panx"]


def _sentence(n: int) -> dict:
    words = [
        ["Der", "Zug", "nach", "Berlin", "fuhr", "heute", "nicht", "."][i % 8] for i in range(n)
    ]
    tags = ["B-LOC" if w == "Berlin" else "O" for w in words]
    return {"id": f"s{n}", "tokens": words, "tags": tags}


class PositionEcho:
    """A stand-in model whose arg-max tag at a position is (input id mod number of tags)."""

    def __init__(self, labels: int):
        self.labels = labels

    def eval(self) -> None:
        pass

    def __call__(self, input_ids, attention_mask, **_):
        logits = torch.nn.functional.one_hot(input_ids % self.labels, self.labels).float()
        return SimpleNamespace(logits=logits)


def test_long_sentences_are_split_not_truncated(tiny_model: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    examples = [
        _sentence(5),
        _sentence(300),
        {"id": "e", "tokens": ["a", "", "b"], "tags": ["O"] * 3},
    ]
    features = tokenize_tagging(tokenizer, examples, PANX, 16, "first", "paper")
    assert features["split_sentences"] == 1
    assert all(len(ids) <= 16 for ids in features["input_ids"])
    windows = [w for w, e in enumerate(features["window_example"]) if e == 1]
    assert len(windows) > 1
    # every word of every sentence has exactly one labelled position
    for example, sentence in enumerate(examples):
        positions = [
            len(features["window_positions"][w])
            for w, e in enumerate(features["window_example"])
            if e == example
        ]
        assert sum(positions) == len(sentence["tokens"])
    for labels, positions in zip(features["labels"], features["window_positions"], strict=True):
        assert sum(label != -100 for label in labels) == len(positions)
    # the empty word got a placeholder sub-token and so a prediction
    predicted = TaggingHead(PANX).predict(PositionEcho(len(PANX.labels)), features, 4, 0)
    assert [len(tags) for tags in predicted] == [5, 300, 3]
    expected: list[list[int]] = [[] for _ in examples]
    for window, example in enumerate(features["window_example"]):
        ids = features["input_ids"][window]
        expected[example] += [
            ids[p] % len(PANX.labels) for p in features["window_positions"][window]
        ]
    assert predicted == expected


def test_first_nonempty_skips_bare_markers(e5_model: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(e5_model)
    example = {"id": "z", "tokens": list("天气很冷"), "tags": ["B-LOC", "I-LOC", "O", "O"]}
    first = tokenize_tagging(tokenizer, [example], PANX, 32, "first", "paper")
    nonempty = tokenize_tagging(tokenizer, [example], PANX, 32, "first_nonempty", "paper")
    marker = tokenizer.convert_tokens_to_ids("\u2581")
    first_ids = [first["input_ids"][0][p] for p in first["window_positions"][0]]
    nonempty_ids = [nonempty["input_ids"][0][p] for p in nonempty["window_positions"][0]]
    assert marker in first_ids  # the papers' rule puts labels on bare markers
    assert marker not in nonempty_ids
    assert first["word_labels"] == nonempty["word_labels"] == [[5, 6, 0, 0]]


def test_qa_windows_hold_the_answer_and_map_back(tiny_model: Path) -> None:
    from mte.families.qa.features import tokenize_qa

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    filler = "Der Zug nach Berlin fuhr heute nicht. " * 20
    context = filler + "Paris liegt an der Seine."
    start = context.index("Seine")
    example = {
        "id": "q",
        "context": context,
        "question": "Wo liegt Paris?",
        "answers": {"text": ["Seine"], "answer_start": [start]},
    }
    xquad = TASKS["xquad"]
    training = tokenize_qa(tokenizer, [example], xquad, 48, 16, training=True)
    every = tokenize_qa(tokenizer, [example], xquad, 48, 16, training=False)
    assert len(every["input_ids"]) > len(training["input_ids"]) >= 1
    assert all(len(ids) <= 48 for ids in every["input_ids"])
    # the labelled tokens' character offsets cover exactly the answer
    for window, (first, last) in enumerate(
        zip(training["start_positions"], training["end_positions"], strict=True)
    ):
        offsets = training["offsets"][window]
        assert context[offsets[first][0] : offsets[last][1]].strip() == "Seine"
    # windows overlap: every context character is in some window
    covered = set()
    for offsets in every["offsets"]:
        for span in offsets:
            if span is not None:
                covered.update(range(*span))
    assert covered >= {i for i, ch in enumerate(context) if not ch.isspace()}


def test_best_span_respects_order_length_and_context() -> None:
    from mte.families.qa.heads import QuestionAnsweringHead

    head = QuestionAnsweringHead(TASKS["xquad"])
    offsets = [None, None, [0, 5], [6, 9], [10, 14], None]
    starts = torch.tensor([9.0, 0.0, 1.0, 3.0, 0.5, 9.0])
    ends = torch.tensor([9.0, 0.0, 2.0, 0.1, 4.0, 9.0])
    # question/special tokens (None) never count; the best valid span is tokens 3..4
    score, first, last = head._best_span(starts, ends, offsets)
    assert (first, last) == (3, 4) and score == pytest.approx(7.0)
    # one-token spans only: 1 + 2 (token 2), 3 + 0.1 (token 3), 0.5 + 4 (token 4)
    head.max_answer_tokens = 1
    assert head._best_span(starts, ends, offsets) == pytest.approx((4.5, 4, 4))
