"""Belebele (Bandarkar et al. 2024): multiple-choice reading comprehension of FLORES-200
passages, 900 questions with four answers in each of 122 language variants (romanised Hindi,
Bengali, Nepali, Sinhala and Urdu among them), parallel across variants. It has no training
set: a fine-tune on an English multiple-choice set predicts every variant (the paper's
"English finetune & multilingual evaluation"); the config names which set
(``tasks.belebele.models_of``): ``belebele_train``, the paper's assembled training set (RACE,
SciQ, MultiRC, MCTest, MCScript2.0 and ReClor, as its assemble_training_set.py writes them), or
another configured multiple-choice task such as ``mctest``."""

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mte.errors import InputError
from mte.families.multiple_choice import ChoiceOptions
from mte.families.multiple_choice.records import integer, numbered_choice, require
from mte.hub.release import Release
from mte.specs._hub import BELEBELE
from mte.specs._release import released
from mte.tasks.languages import BELEBELE_CODES
from mte.tasks.prompts import Prompt
from mte.tasks.spec import Task

ANSWER_FIELDS = ("mc_answer1", "mc_answer2", "mc_answer3", "mc_answer4")


def belebele_example(record: dict[str, Any]) -> dict[str, Any]:
    """A Belebele record (``Belebele/{code}.jsonl`` of the release, or a row of the hub's
    facebook/belebele: ``link``, ``question_number``, ``flores_passage``, ``question``,
    ``mc_answer1..4``, ``correct_answer_num`` a 1-based string) as ``id, passage, question,
    choices, label``. The id names the passage (its link) and the question's number, which
    every variant shares."""
    require(record, ("link", "question_number", "flores_passage", "question", *ANSWER_FIELDS))
    require(record, ("correct_answer_num",))
    number = integer(record, "question_number")
    # a passage's link and a question's number name it in every variant, in the release and
    # on the hub alike; the hub's ``ds`` is the date of its export (2023-07-21), not a split
    return {
        "id": f"{record['link']} #{number}",
        "passage": record["flores_passage"],
        "question": record["question"],
        "choices": [record[name] for name in ANSWER_FIELDS],
        "label": numbered_choice(record["correct_answer_num"], "correct_answer_num", 4),
    }


def assembled_records(path: Path, split: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The rows of ``split`` ("train" or "dev", its ``split`` column) of the assembled training
    set, ``belebele_training_set.tsv``: pandas' to_csv with TAB, its index column first, texts
    with line breaks or quotes quoted; each row named by the line it starts on."""
    with Path(path).open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t", strict=True)
        read = 0  # the lines read so far
        try:
            header = next(reader, None)
            if header is None or "split" not in header:
                raise InputError(path, 1, "no header with a split column")
            read = reader.line_num
            for fields in reader:
                number, read = read + 1, reader.line_num
                if len(fields) != len(header):
                    raise InputError(
                        path, number, f"{len(fields)} fields, but the header has {len(header)}"
                    )
                record = dict(zip(header, fields, strict=True))
                if record["split"] == split:
                    yield number, record
        except csv.Error as err:
            raise InputError(path, read + 1, f"not a CSV-quoted TSV record: {err}") from None


def assembled_example(record: dict[str, Any]) -> dict[str, Any]:
    """A row of the assembled training set (passage, question, answer1..4, correct_answer_num
    1-based) as ``passage, question, choices, label``; its id is its line."""
    answers = ("answer1", "answer2", "answer3", "answer4")
    require(record, ("passage", "question", *answers, "correct_answer_num"))
    return {
        "passage": record["passage"],
        "question": record["question"],
        "choices": [record[name] for name in answers],
        "label": numbered_choice(record["correct_answer_num"], "correct_answer_num", 4),
    }


# the passage, then the question with each answer: the paper fine-tunes its masked language
# models with a multiple-choice head on English sets of passage, question and four answers, and
# prints no input template; this is the passage | question + answer join of the
# reading-comprehension baselines its training set comes from (RACE)
TEMPLATES = {"first": "{passage}", "second": "{question} {choice}"}

LETTERS = ("A", "B", "C", "D")


def _belebele_text(example: dict[str, Any]) -> str:
    """The passage, the question and the four answers, lettered."""
    answers = "\n".join(
        f"{letter}. {choice}" for letter, choice in zip(LETTERS, example["choices"], strict=True)
    )
    return f"Passage: {example['passage']}\nQuestion: {example['question']}\n{answers}\nAnswer:"


# in-context transfer (docs/decoders.md): the passage, the question and the lettered answers;
# the model scores each letter. Our wording of the Belebele paper's five-shot prompt (Bandarkar
# et al. 2024, section 4: passage, question, four lettered answers, the letter of the right one)
BELEBELE_PROMPT = Prompt(
    text=_belebele_text,
    choices=lambda e: list(LETTERS),
    answer=lambda e: e["label"],
    source="this project's wording, after Bandarkar et al. 2024 (Belebele) section 4",
)

TASKS = (
    Task(
        name="belebele",
        title="Belebele",
        family="multiple_choice",
        options=ChoiceOptions(**TEMPLATES, text_fields=("passage", "question")),
        row_adapter=belebele_example,
        languages=BELEBELE_CODES,
        train_language="eng_Latn",
        labels=(),
        primary_metric="accuracy",
        # one hub config per variant, its 900 questions the test split
        hub_id="facebook/belebele",
        hub_repos=(BELEBELE,),
        hub_splits={"test": "test"},
        hub_configs={code: ("facebook/belebele", code) for code in BELEBELE_CODES},
        # every variant translates the same questions (their ids)
        parallel_test_sets=True,
        # Belebele.zip's layout, else the files in the folder itself
        files={"test": ("Belebele/{lang}.jsonl", "{lang}.jsonl")},
        # the authors' README (facebookresearch/belebele): one archive of every variant
        release=Release(
            files=(
                released(
                    "belebele",
                    "https://dl.fbaipublicfiles.com/belebele/Belebele.zip",
                    "Belebele.zip",
                ),
            ),
            checksums="recorded at the first download (no genuine copy could be reached to pin it)",
        ),
        reference="Bandarkar et al. 2024 (Belebele)",
        prompt=BELEBELE_PROMPT,
    ),
    Task(
        name="belebele_train",
        title="Belebele training set",
        family="multiple_choice",
        options=ChoiceOptions(
            **TEMPLATES, text_fields=("passage", "question"), records=assembled_records
        ),
        row_adapter=assembled_example,
        languages=("en",),
        labels=(),
        primary_metric="accuracy",
        # built by the repository's assemble_training_set.py: files only
        hub_id="",
        manual_step="build it with facebookresearch/belebele's assemble_training_set.py (it "
        "downloads RACE, SciQ, MultiRC, MCTest, MCScript2.0 and ReClor) and put its "
        "belebele_training_set.tsv in this folder (docs/data-sources.md)",
        files={split: ("belebele_training_set.tsv",) for split in ("train", "dev")},
        default_eval_split="dev",
        reference="Bandarkar et al. 2024 (Belebele), its assembled English training set",
    ),
)
