"""MCTest through the multiple-choice family: the TSV/ANS release read record by record (every
question of the mc500 files in ../shared/data against an independent count), damaged files
named with their line, and the model's input: the story, then the question with each answer."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mte.errors import InputError
from mte.families.multiple_choice.features import choice_inputs
from mte.families.multiple_choice.readers import read_choice_file
from mte.registry import TASKS
from tests.workflow.tiny_data import MCTEST_STORIES, write_mctest

MCTEST = TASKS["mctest"]


def test_each_question_of_each_story_is_an_example(tmp_path: Path) -> None:
    write_mctest(tmp_path)
    examples = read_choice_file(MCTEST, tmp_path / "mc500.dev.tsv")
    assert len(examples) == 8
    first = examples[0]
    assert first == {
        "id": "mc500.dev.0.q1",
        # the release's escaped line break is a line break again
        "story": "Tom has a red ball.\nHe plays with it in the park every day.",
        "question": "What color is the ball?",
        "type": "one",
        "choices": ["red", "blue", "green", "black"],
        "label": 0,
    }
    assert [e["id"] for e in examples[4:]] == [f"mc500.dev.1.q{n}" for n in range(1, 5)]
    assert [e["label"] for e in examples] == [0, 1, 2, 3] * 2
    assert [e["type"] for e in examples[:4]] == ["one", "one", "multiple", "one"]
    assert examples[6]["question"] == "Who eats the bread?"


def _damage(tmp_path: Path, file: str, line: int, change) -> Path:
    write_mctest(tmp_path)
    path = tmp_path / file
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[line - 1] = change(lines[line - 1])
    path.write_text("".join(f"{text}\n" for text in lines), encoding="utf-8")
    return tmp_path / "mc500.dev.tsv"


@pytest.mark.parametrize(
    ("file", "line", "change", "where", "message"),
    [
        (
            "mc500.dev.tsv",
            2,
            lambda text: text.rsplit("\t", 1)[0],
            "mc500.dev.tsv, line 2",
            "expected 23 tab-separated fields, found 22",
        ),
        (
            "mc500.dev.ans",
            2,
            lambda text: text.replace("D", "E"),
            "mc500.dev.ans, line 2",
            r"expected 4 answer letters \(A, B, C, D\), found \['A', 'B', 'C', 'E'\]",
        ),
        (
            "mc500.dev.ans",
            1,
            lambda text: text.rsplit("\t", 1)[0],
            "mc500.dev.ans, line 1",
            "expected 4 answer letters",
        ),
        (
            "mc500.dev.tsv",
            1,
            lambda text: text.replace("one: What color", "What color"),
            "mc500.dev.tsv, line 1",
            "starts with neither one: nor multiple:",
        ),
    ],
)
def test_a_damaged_line_names_its_file_and_line(
    tmp_path: Path, file: str, line: int, change, where: str, message: str
) -> None:
    path = _damage(tmp_path, file, line, change)
    with pytest.raises(InputError, match=message) as caught:
        read_choice_file(MCTEST, path)
    assert str(caught.value).startswith(str(tmp_path / where.split(",")[0]))
    assert where in str(caught.value)


def test_answers_and_stories_must_match_in_number(tmp_path: Path) -> None:
    write_mctest(tmp_path)
    answers = tmp_path / "mc500.dev.ans"
    answers.write_text(answers.read_text().splitlines()[0] + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="has no answers for line 2 of mc500.dev.tsv"):
        read_choice_file(MCTEST, tmp_path / "mc500.dev.tsv")
    answers.unlink()
    with pytest.raises(InputError, match=r"file not found \(the answers of mc500.dev.tsv\)"):
        read_choice_file(MCTEST, tmp_path / "mc500.dev.tsv")


@pytest.mark.parametrize(("split", "stories"), [("train", 300), ("dev", 50)])
def test_every_question_of_the_real_mc500_files(
    shared_data: Path, split: str, stories: int
) -> None:
    """Four questions per story line; the labels are the .ans letters counted independently
    (A is 0); the questions' types are the marks counted in the raw lines."""
    tsv = shared_data / "mctest" / f"mc500.{split}.tsv"
    lines = tsv.read_text(encoding="utf-8").splitlines()
    letters = Counter(
        letter
        for line in (shared_data / "mctest" / f"mc500.{split}.ans").read_text().splitlines()
        for letter in line.split("\t")
    )
    marks = Counter(line.split("\t")[3 + 5 * q].split(":")[0] for line in lines for q in range(4))
    examples = read_choice_file(MCTEST, tsv)
    assert len(lines) == stories and len(examples) == 4 * stories
    assert Counter(e["label"] for e in examples) == {
        index: letters[letter] for index, letter in enumerate("ABCD")
    }
    assert Counter(e["type"] for e in examples) == marks
    assert all("\\newline" not in e["story"] for e in examples)
    assert len({e["id"] for e in examples}) == len(examples)


def test_the_input_is_the_story_then_the_question_with_each_answer(tmp_path: Path) -> None:
    write_mctest(tmp_path)
    example = read_choice_file(MCTEST, tmp_path / "mc500.train.tsv")[1]
    firsts, seconds = choice_inputs(MCTEST, example)
    story, questions = MCTEST_STORIES[0]
    assert firsts == [story.replace("\\newline", "\n")] * 4
    assert seconds == [f"Where does Tom play? {answer}" for answer in questions[1][1]]


def test_mctest_is_files_only(tmp_path: Path) -> None:
    from mte.errors import ConfigError
    from mte.steps.data import hub_location

    with pytest.raises(ConfigError, match="MCTest is not on the Hugging Face hub") as caught:
        hub_location(MCTEST, "en", "train")
    assert caught.value.key == "tasks.mctest.source"
