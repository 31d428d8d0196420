"""Belebele through the multiple-choice family: the release's JSON lines of every variant in
../shared/data against an independent count, the hub's rows, damaged lines, its 122 variants,
the assembled English training set as pandas writes it, and the model's input."""

from __future__ import annotations

import datetime
import json
from collections import Counter
from pathlib import Path

import datasets
import pytest

from mte.errors import ConfigError, InputError, MteError
from mte.families.multiple_choice.features import choice_inputs
from mte.families.multiple_choice.readers import choice_examples_from_hub, read_choice_file
from mte.registry import TASKS
from tests.workflow.tiny_data import write_belebele_train

BELEBELE, TRAINING_SET = TASKS["belebele"], TASKS["belebele_train"]
ITEM = {
    "link": "https://en.wikibooks.org/wiki/Accordion/Right_hand",
    "question_number": 1,
    "flores_passage": "Make sure your hand is as relaxed as possible.",
    "question": "What would not be an accurate tip?",
    "mc_answer1": "Hit the keys hard",
    "mc_answer2": "Keep movement to a minimum",
    "mc_answer3": "Stay relaxed",
    "mc_answer4": "Use the bellows",
    "correct_answer_num": "1",
    "dialect": "eng_Latn",
}


def _write(path: Path, records: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def test_a_record_is_its_passage_question_answers_and_the_right_ones_index(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "Belebele" / "eng_Latn.jsonl", [ITEM, {**ITEM, "question_number": 2}])
    first, second = read_choice_file(BELEBELE, path)
    assert first == {
        "id": "https://en.wikibooks.org/wiki/Accordion/Right_hand #1",
        "passage": "Make sure your hand is as relaxed as possible.",
        "question": "What would not be an accurate tip?",
        "choices": [
            "Hit the keys hard", "Keep movement to a minimum", "Stay relaxed", "Use the bellows"
        ],
        "label": 0,
    }  # fmt: skip
    assert second["id"].endswith(" #2")


@pytest.mark.parametrize(
    ("damaged", "message"),
    [
        ('{"link": "x"', "line 2: not JSON"),
        ({k: v for k, v in ITEM.items() if k != "mc_answer3"}, "line 2: lacks mc_answer3"),
        ({**ITEM, "correct_answer_num": "5"}, r"line 2: correct_answer_num '5' names no choice"),
        ({**ITEM, "correct_answer_num": 2}, "line 2: correct_answer_num 2 is not a choice number"),
        ({**ITEM, "question_number": 1.0}, "line 2: question_number 1.0 is not an integer"),
        ({**ITEM, "question_number": "1"}, "line 2: question_number '1' is not an integer"),
        ({**ITEM, "question_number": 2, "flores_passage": " "}, "line 2: passage must be"),
        ({**ITEM}, "repeated example ids"),
    ],
)
def test_a_damaged_line_names_file_and_line(tmp_path: Path, damaged, message: str) -> None:
    path = _write(tmp_path / "deu_Latn.jsonl", [ITEM, damaged])
    with pytest.raises(InputError, match=message) as caught:
        read_choice_file(BELEBELE, path)
    assert str(caught.value).startswith(str(path))


def test_every_question_of_the_real_variants(shared_data: Path) -> None:
    """eng_Latn and deu_Latn: 900 questions each, the labels the raw correct_answer_num counted
    independently, one id per (link, question number), the same ids in both (parallel)."""
    ids = {}
    for code in ("eng_Latn", "deu_Latn"):
        path = shared_data / "belebele" / "Belebele" / f"{code}.jsonl"
        raw = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        examples = read_choice_file(BELEBELE, path)
        assert len(examples) == len(raw) == 900
        assert Counter(e["label"] for e in examples) == Counter(
            int(r["correct_answer_num"]) - 1 for r in raw
        )
        assert [e["passage"] for e in examples] == [r["flores_passage"] for r in raw]
        ids[code] = [e["id"] for e in examples]
        assert len(set(ids[code])) == 900
        assert len({r["link"] for r in raw}) == 488  # passages, as the release says
    assert ids["eng_Latn"] == ids["deu_Latn"]


def test_hub_rows_of_facebook_belebele_have_the_release_ids() -> None:
    """The hub's ds is the date of its export (a timestamp), not the FLORES split: the id is
    the release's, link and question number."""
    columns = {name: [value] for name, value in ITEM.items()}
    columns["ds"] = [datetime.datetime(2023, 7, 21)]
    dataset = datasets.Dataset.from_dict(columns)
    (example,) = choice_examples_from_hub(BELEBELE, dataset, "facebook/belebele eng_Latn")
    assert example["id"] == f"{ITEM['link']} #1" and example["label"] == 0
    bad = datasets.Dataset.from_dict({**columns, "correct_answer_num": ["0"]})
    with pytest.raises(MteError, match="row 1: correct_answer_num '0' names no choice"):
        choice_examples_from_hub(BELEBELE, bad, "facebook/belebele eng_Latn")


def test_its_122_variants_and_english_training() -> None:
    assert len(BELEBELE.languages) == len(set(BELEBELE.languages)) == 122
    for code in ("eng_Latn", "hin_Latn", "ben_Latn", "npi_Latn", "sin_Latn", "urd_Latn"):
        assert code in BELEBELE.languages
    assert all(len(code) == 8 and code[3] == "_" for code in BELEBELE.languages)
    assert BELEBELE.train_language == "eng_Latn" and BELEBELE.parallel_test_sets
    assert BELEBELE.hub_configs["hin_Latn"] == ("facebook/belebele", "hin_Latn")


def test_the_input_is_the_passage_then_the_question_with_each_answer(tmp_path: Path) -> None:
    (example,) = read_choice_file(BELEBELE, _write(tmp_path / "eng_Latn.jsonl", [ITEM]))
    firsts, seconds = choice_inputs(BELEBELE, example)
    assert firsts == [ITEM["flores_passage"]] * 4
    assert seconds[1] == "What would not be an accurate tip? Keep movement to a minimum"


def test_the_assembled_training_set_is_read_split_by_split_as_pandas_wrote_it(
    tmp_path: Path,
) -> None:
    write_belebele_train(tmp_path)
    path = tmp_path / "belebele_training_set.tsv"
    train = read_choice_file(TRAINING_SET, path, "train")
    dev = read_choice_file(TRAINING_SET, path, "dev")
    assert len(train) == 4 and len(dev) == 2
    # the first passage spans two lines, quoted, its quotes doubled: the next row starts on 4
    assert train[0]["passage"] == 'The dog sleeps in the sun.\nIt is "warm".'
    assert [e["id"] for e in train] == ["2", "4", "5", "6"] and [e["id"] for e in dev] == ["7", "8"]
    assert [e["label"] for e in train + dev] == [0, 1, 2, 0, 1, 2]
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5].rsplit("\t", 1)[0]
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    with pytest.raises(InputError, match=f"{path}, line 6: 12 fields, but the header has 13"):
        read_choice_file(TRAINING_SET, path, "train")


def test_belebele_asks_for_the_task_whose_fine_tunes_it_evaluates(tmp_path: Path) -> None:
    from mte.config.checks import check_config

    _write(tmp_path / "Belebele" / "eng_Latn.jsonl", [ITEM])
    config = {
        "models": [{"name": "m", "source": "tiny"}],
        "tasks": {
            "belebele": {"source": "files", "path": str(tmp_path), "languages": ["eng_Latn"]}
        },
        "settings": ["zero-shot"],
        "seeds": [1],
    }
    with pytest.raises(ConfigError, match="releases no training set") as caught:
        check_config(config)
    assert caught.value.key == "tasks.belebele.models_of"
