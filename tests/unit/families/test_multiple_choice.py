"""The multiple-choice family on XCOPA: the JSON-lines reader with COPA's row adapter on every
XCOPA file in ../shared/data and on damaged lines, the model inputs as XTREME's run_xcopa.py
forms them, batches, and accuracy by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mte.errors import InputError, IntegrityError
from mte.families.base import ScoringFiles
from mte.families.multiple_choice.features import choice_inputs
from mte.families.multiple_choice.heads import MultipleChoiceHead
from mte.families.multiple_choice.readers import read_choice_file
from mte.registry import TASKS, family_of
from mte.steps.data import materialize

XCOPA = TASKS["xcopa"]
ITEM = {
    "premise": "The man turned on the faucet.",
    "choice1": "The toilet filled with water.",
    "choice2": "Water flowed from the spout.",
    "question": "effect",
    "label": 1,
    "idx": 0,
}


def read_copa_jsonl(path: Path) -> list[dict]:
    return read_choice_file(XCOPA, path)


def _write(path: Path, records: list) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def test_reader_keeps_ids_choices_and_labels(tmp_path: Path) -> None:
    path = _write(tmp_path / "val.et.jsonl", [ITEM, {**ITEM, "idx": 7, "label": 0}])
    assert read_copa_jsonl(path) == [
        {
            "id": "0",
            "premise": "The man turned on the faucet.",
            "question": "effect",
            "choices": ["The toilet filled with water.", "Water flowed from the spout."],
            "label": 1,
        },
        {
            "id": "7",
            "premise": "The man turned on the faucet.",
            "question": "effect",
            "choices": ["The toilet filled with water.", "Water flowed from the spout."],
            "label": 0,
        },
    ]


@pytest.mark.parametrize(
    ("damaged", "message"),
    [
        ('{"premise": "x"', "line 2: not JSON"),
        ({**ITEM, "idx": 1, "question": "reason"}, "line 2: question 'reason'"),
        ({**ITEM, "idx": 1, "label": 2}, r"line 2: label 2 names no choice \(there are 2\)"),
        ({**ITEM, "idx": 1, "label": 1.0}, "line 2: label 1.0 is not an integer"),
        ({**ITEM, "idx": 1, "label": "1"}, "line 2: label '1' is not an integer"),
        ({**ITEM, "idx": 1, "label": True}, "line 2: label True is not an integer"),
        ({k: v for k, v in ITEM.items() if k != "choice2"}, "line 2: lacks choice2"),
        ({**ITEM, "idx": 1, "choice1": " "}, "line 2: every choice must be a non-empty string"),
        ({**ITEM, "idx": 1, "premise": ""}, "line 2: premise must be non-empty"),
        ("[1, 2]", "line 2: expected a JSON object, found list"),
        ({**ITEM}, "repeated example ids: 0"),
    ],
)
def test_a_damaged_line_names_file_and_line(tmp_path: Path, damaged, message: str) -> None:
    path = _write(tmp_path / "test.et.jsonl", [ITEM, damaged])
    with pytest.raises(InputError, match=message) as caught:
        read_copa_jsonl(path)
    assert str(caught.value).startswith(str(path))


def _real_files(shared_data: Path) -> list[Path]:
    return sorted((shared_data / "xcopa").rglob("*.jsonl"))


def test_every_real_file_is_read_whole(shared_data: Path) -> None:
    files = _real_files(shared_data)
    assert len(files) == 12  # et, id, zh x val, test x original, data-gmt
    for path in files:
        examples = read_copa_jsonl(path)
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        assert len(examples) == len(lines), path
        assert [e["id"] for e in examples] == [str(json.loads(line)["idx"]) for line in lines]
        assert {e["label"] for e in examples} == {0, 1}
        assert {e["question"] for e in examples} == {"cause", "effect"}


@pytest.mark.parametrize("language", ["et", "id", "zh"])
def test_translations_are_the_same_items_in_english(shared_data: Path, language: str) -> None:
    cfg = {"source": "files", "path": str(shared_data / "xcopa")}
    test, _ = materialize(XCOPA, cfg, language, "test")
    translated = read_copa_jsonl(
        shared_data / "xcopa" / "data-gmt" / language / f"test.{language}.jsonl"
    )
    assert len(test) == len(translated) == 500
    assert [(e["id"], e["label"], e["question"]) for e in test] == [
        (e["id"], e["label"], e["question"]) for e in translated
    ]
    dev, _ = materialize(XCOPA, cfg, language, "dev")
    assert len(dev) == 100


def test_inputs_are_premise_and_question_then_each_choice() -> None:
    example = {
        "id": "0",
        "premise": "It rained.",
        "question": "cause",
        "choices": ["Clouds came.", "The sun shone."],
        "label": 0,
    }
    firsts, seconds = choice_inputs(XCOPA, example)
    assert firsts == ["It rained. What was the cause?"] * 2
    assert seconds == ["Clouds came.", "The sun shone."]

    class Tokenizer:
        pad_token_id = 0
        model_input_names = ["input_ids", "attention_mask"]

        def __call__(self, firsts, seconds, truncation=True, max_length=None):
            ids = [[len(a.split()), len(b.split())] for a, b in zip(firsts, seconds, strict=True)]
            if max_length is not None and truncation:
                ids = [row[:max_length] for row in ids]
            return {"input_ids": ids}

    features = family_of(XCOPA).tokenize(Tokenizer(), [example], XCOPA, {"max_length": 8})
    # "It rained. What was the cause?" has 6 words; the choices 2 and 3
    assert features["input_ids"] == [[[6, 2], [6, 3]]]
    assert features["labels"] == [0] and features["label_names"] == []


def test_batches_stack_the_choices_of_each_example() -> None:
    features = {"input_ids": [[[5, 6, 7], [5, 8]], [[5], [5, 9, 9, 9]]], "labels": [1, 0]}
    head = MultipleChoiceHead(XCOPA)
    batch = head.collate(features, [0, 1], pad_id=0)
    assert batch["input_ids"].tolist() == [
        [[5, 6, 7, 0], [5, 8, 0, 0]],
        [[5, 0, 0, 0], [5, 9, 9, 9]],
    ]
    assert batch["attention_mask"].tolist() == [
        [[1, 1, 1, 0], [1, 1, 0, 0]],
        [[1, 0, 0, 0], [1, 1, 1, 1]],
    ]
    assert head.batch_targets(features, [1, 0])["labels"].tolist() == [0, 1]


def test_accuracy_by_hand_and_mismatches_refused() -> None:
    family = family_of(XCOPA)
    choices = ["a", "b"]
    gold = [
        {"id": str(n), "choices": choices, "label": label} for n, label in enumerate([0, 1, 1, 0])
    ]
    predictions = [{"id": str(n), "label": label} for n, label in enumerate([0, 1, 0, 1])]
    paths = ScoringFiles("p.jsonl", "g.jsonl", "et")
    scored = family.score(XCOPA, predictions, gold, paths)
    # two of four right
    assert scored["n"] == 4 and scored["metrics"] == {"accuracy": 0.5}
    assert scored["example_stats"].tolist() == [[1, 1], [1, 1], [0, 1], [0, 1]]
    compute = family.statistic(XCOPA, "accuracy")
    assert compute(scored["example_stats"].sum(axis=0)) == pytest.approx(0.5)
    assert np.isclose(compute(np.array([3.0, 4.0])), 0.75)
    with pytest.raises(IntegrityError, match="have no prediction"):
        family.score(XCOPA, predictions[:3], gold, paths)
    with pytest.raises(IntegrityError, match="choice.*2.* name no choice of their item"):
        family.score(XCOPA, [*predictions[:3], {"id": "3", "label": 2}], gold, paths)
