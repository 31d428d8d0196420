"""Social IQa through the multiple-choice family: the release's JSON lines (every item of the
dev file in ../shared/data against an independent count), the hub's rows, damaged lines, and
the model's input as XTREME-R's run_xcopa.py joins it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import datasets
import pytest

from mte.errors import InputError, MteError
from mte.families.multiple_choice.features import choice_inputs
from mte.families.multiple_choice.readers import choice_examples_from_hub, read_choice_file
from mte.registry import TASKS

SIQA = TASKS["siqa"]
ITEM = {
    "context": "Tracy didn't go home that evening.",
    "question": "What does Tracy need to do before this?",
    "answerA": "make a new plan",
    "answerB": "Go home and see Riley",
    "answerC": "Find somewhere to go",
    "correct": "C",
}


def _write(path: Path, records: list) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def test_the_release_layout_becomes_context_question_choices_and_the_letters_index(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "socialIQa_v1.4_dev.jsonl", [ITEM, {**ITEM, "correct": "A"}])
    assert read_choice_file(SIQA, path) == [
        {
            "id": "1",
            "context": "Tracy didn't go home that evening.",
            "question": "What does Tracy need to do before this?",
            "choices": ["make a new plan", "Go home and see Riley", "Find somewhere to go"],
            "label": 2,
        },
        {
            "id": "2",
            "context": "Tracy didn't go home that evening.",
            "question": "What does Tracy need to do before this?",
            "choices": ["make a new plan", "Go home and see Riley", "Find somewhere to go"],
            "label": 0,
        },
    ]


@pytest.mark.parametrize(
    ("damaged", "message"),
    [
        ('{"context": "x"', "line 2: not JSON"),
        ({k: v for k, v in ITEM.items() if k != "answerC"}, "line 2: lacks answerC"),
        ({**ITEM, "correct": "D"}, "line 2: correct 'D' is not one of A, B, C"),
        ({**ITEM, "correct": 2}, "line 2: correct 2 is not one of A, B, C"),
        ({k: v for k, v in ITEM.items() if k != "correct"}, "line 2: lacks correct"),
        ({**ITEM, "answerB": ""}, "line 2: every choice must be a non-empty string"),
        ({**ITEM, "question": 7}, "line 2: question 7 is not a string"),
    ],
)
def test_a_damaged_line_names_file_and_line(tmp_path: Path, damaged, message: str) -> None:
    path = _write(tmp_path / "socialIQa_v1.4_dev.jsonl", [ITEM, damaged])
    with pytest.raises(InputError, match=message) as caught:
        read_choice_file(SIQA, path)
    assert str(caught.value).startswith(str(path))


def test_every_item_of_the_real_dev_file(shared_data: Path) -> None:
    """The dev file's 1954 items, each line one example in file order, the labels those of its
    letters counted independently from the raw lines."""
    path = shared_data / "siqa" / "socialIQa_v1.4_dev.jsonl"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    letters = Counter(json.loads(line)["correct"] for line in lines)
    examples = read_choice_file(SIQA, path)
    assert len(examples) == len(lines) == 1954
    assert Counter(e["label"] for e in examples) == {
        index: letters[letter] for index, letter in enumerate("ABC")
    }
    assert [e["id"] for e in examples] == [str(n) for n in range(1, 1955)]
    assert all(len(e["choices"]) == 3 for e in examples)
    first = json.loads(lines[0])
    assert examples[0]["choices"] == [first["answerA"], first["answerB"], first["answerC"]]


def test_hub_rows_of_allenai_social_i_qa() -> None:
    """The hub's schema: the same texts, ``label`` a string "1".."3" (1-based); a damaged row
    is named by its position."""
    columns = ("context", "question", "answerA", "answerB", "answerC", "label")
    rows = {name: [] for name in columns}
    for label in ("3", "1"):
        for name in columns[:-1]:
            rows[name].append(ITEM[name])
        rows["label"].append(label)
    features = datasets.Features({name: datasets.Value("string") for name in columns})
    dataset = datasets.Dataset.from_dict(rows, features=features)
    examples = choice_examples_from_hub(SIQA, dataset, "allenai/social_i_qa None")
    assert [(e["id"], e["label"]) for e in examples] == [("1", 2), ("2", 0)]
    bad = datasets.Dataset.from_dict({**rows, "label": ["4", "1"]}, features=features)
    with pytest.raises(MteError, match=r"row 1: label '4' names no choice \(there are 3\)"):
        choice_examples_from_hub(SIQA, bad, "allenai/social_i_qa None")


def test_the_input_is_context_and_question_then_each_answer() -> None:
    firsts, seconds = choice_inputs(
        SIQA,
        {
            "context": "Tracy went home.",
            "question": "Why?",
            "choices": ["to rest", "to swim", "to sing"],
            "label": 0,
        },
    )
    # run_xcopa.py: f"{context} {question}" and the answer, for each of the three answers
    assert firsts == ["Tracy went home. Why?"] * 3
    assert seconds == ["to rest", "to swim", "to sing"]
    assert SIQA.languages == ("en",) and SIQA.default_eval_split == "dev"
