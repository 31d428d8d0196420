"""MCTest (Richardson et al. 2013): reading comprehension of short children's stories, four
questions per story, four answers each. English only; one of the English multiple-choice sets
Belebele's assembled training set joins (Bandarkar et al. 2024), and what Belebele fine-tunes on
here when that set is not given."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mte.errors import InputError
from mte.families.multiple_choice import ChoiceOptions
from mte.families.multiple_choice.records import lettered_choice, require
from mte.tasks.spec import Task
from mte.text import read_lines, split_tsv

QUESTIONS, ANSWERS = 4, 4
LETTERS = ("A", "B", "C", "D")
# Id, properties, story, then per question: its text and answers A-D (the release's README)
FIELDS = 3 + QUESTIONS * (1 + ANSWERS)
# what a question's text starts with: the author's mark of how many sentences it needs
QUESTION_TYPES = ("one", "multiple")
# the release escapes newlines and tabs in stories (README: "\newline", "\tab")
ESCAPES = {"\\newline": "\n", "\\tab": "\t"}
# the answers of mc500.train.tsv are in mc500.train.ans
ANSWERS_SUFFIX = ".ans"


def _unescape(text: str) -> str:
    for escaped, character in ESCAPES.items():
        text = text.replace(escaped, character)
    return text


def mctest_records(path: Path, split: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The questions of an MCTest ``.tsv`` file (of one split: ``split`` is not needed) with
    their answers from its ``.ans`` sibling (a line per story, in the same order: the correct
    letter of each question), one record per question, numbered by its story's line. The two
    files must hold the same stories."""
    path = Path(path)
    answers_path = path.with_suffix(ANSWERS_SUFFIX)
    if not answers_path.is_file():
        raise InputError(answers_path, None, f"file not found (the answers of {path.name})")
    answers = [(number, line) for number, line in read_lines(answers_path) if line.strip()]
    stories = 0
    for number, line in read_lines(path):
        if not line.strip():
            continue
        fields = split_tsv(path, number, line, FIELDS)
        if stories >= len(answers):
            raise InputError(answers_path, None, f"has no answers for line {number} of {path.name}")
        answer_line, letters = answers[stories][0], answers[stories][1].split("\t")
        stories += 1
        if len(letters) != QUESTIONS or any(letter not in LETTERS for letter in letters):
            raise InputError(
                answers_path,
                answer_line,
                f"expected {QUESTIONS} answer letters ({', '.join(LETTERS)}), found {letters}",
            )
        for question in range(QUESTIONS):
            first = 3 + question * (1 + ANSWERS)
            record = {
                "story_id": fields[0],
                "number": question + 1,
                "story": _unescape(fields[2]),
                "question": fields[first],
                "answers": fields[first + 1 : first + 1 + ANSWERS],
                "correct": letters[question],
            }
            yield number, record
    if stories != len(answers):
        raise InputError(
            answers_path,
            None,
            f"{len(answers)} lines of answers for {stories} stories in {path.name}",
        )


def mctest_example(record: dict[str, Any]) -> dict[str, Any]:
    """One question of an MCTest story as ``id, story, question, type, choices, label``: the
    question's ``one:``/``multiple:`` mark becomes its ``type``; the id is the story's and the
    question's number (``mc500.dev.0.q1``)."""
    require(record, ("story_id", "number", "story", "question", "answers", "correct"))
    kind, colon, question = record["question"].partition(":")
    if not colon or kind.strip() not in QUESTION_TYPES:
        raise ValueError(
            f"question {record['question'][:40]!r} starts with neither one: nor multiple:"
        )
    return {
        "id": f"{record['story_id']}.q{record['number']}",
        "story": record["story"],
        "question": question.strip(),
        "type": kind.strip(),
        "choices": list(record["answers"]),
        "label": lettered_choice(record["correct"], "answer", ANSWERS),
    }


TASKS = (
    Task(
        name="mctest",
        title="MCTest",
        family="multiple_choice",
        # the story, then the question with each answer (the join of Belebele's fine-tuned
        # baselines, which take MCTest into their training set; see specs/belebele.py)
        options=ChoiceOptions(
            first="{story}",
            second="{question} {choice}",
            text_fields=("story", "question"),
            records=mctest_records,
            companion_suffixes=(ANSWERS_SUFFIX,),
        ),
        row_adapter=mctest_example,
        languages=("en",),
        labels=(),
        primary_metric="accuracy",
        # not on the Hugging Face hub in its release form: files only
        hub_id="",
        # MC500 (the larger set, the one Belebele's training set takes), else MC160
        files={
            split: (f"mc500.{split}.tsv", f"MCTest/mc500.{split}.tsv", f"mc160.{split}.tsv")
            for split in ("train", "dev", "test")
        },
        reference="Richardson et al. 2013 (MCTest)",
        no_release="no download URL of the release was found that could be checked; give "
        "MC500's files with source: files",
    ),
)
