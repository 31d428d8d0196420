"""Where a split's files are found: XTREME's unlabelled test files are never read as gold."""

from __future__ import annotations

from pathlib import Path

import pytest

from mte.errors import ConfigError
from mte.registry import TASKS
from mte.steps.data import resolve_files


def _folder(path: Path, files: dict[str, str]) -> dict:
    for name, text in files.items():
        (path / name).write_text(text, encoding="utf-8")
    return {"source": "files", "path": str(path)}


XNLI_HEADER = "language\tgold_label\tsentence1\tsentence2\n"


@pytest.mark.parametrize(
    ("task", "name", "text", "release"),
    [
        ("xnli", "test-de.tsv", "Ein Hund.\tEin Tier.\n", "XNLI 1.0's xnli.test.tsv"),
        ("pawsx", "test-de.tsv", "Satz eins.\tSatz zwei.\n", "x-final/de/test_2k.tsv"),
        ("panx", "test-de.tsv", "Berlin\nliegt\n\nJa\n", "google/xtreme PAN-X.de"),
        ("udpos", "test-de.tsv", "Berlin\nliegt\n", "de_*-ud-test.conllu"),
    ],
)
def test_an_unlabelled_xtreme_test_file_says_so_and_where_the_labels_are(
    tmp_path: Path, task: str, name: str, text: str, release: str
) -> None:
    config = _folder(tmp_path, {name: text})
    with pytest.raises(ConfigError) as caught:
        resolve_files(TASKS[task], config, "de", "test")
    message = str(caught.value)
    assert caught.value.key == f"tasks.{task}.path"
    assert f"{tmp_path / name} has no labels" in message and release in message


def test_the_labelled_release_beside_an_unlabelled_file_is_read(tmp_path: Path) -> None:
    labelled = XNLI_HEADER + "de\tentailment\tEin Hund.\tEin Tier.\n"
    config = _folder(tmp_path, {"test-de.tsv": "Ein Hund.\tEin Tier.\n", "xnli.test.tsv": labelled})
    assert resolve_files(TASKS["xnli"], config, "de", "test") == [tmp_path / "xnli.test.tsv"]


def test_labelled_xtreme_files_are_read_as_before(tmp_path: Path) -> None:
    config = _folder(tmp_path, {"test-de.tsv": "Ein Hund.\tEin Tier.\tentailment\n"})
    assert resolve_files(TASKS["xnli"], config, "de", "test") == [tmp_path / "test-de.tsv"]
    tagged = _folder(tmp_path, {"test-nl.tsv": "Berlin\tB-LOC\n\tPROPN\n"})
    assert resolve_files(TASKS["panx"], tagged, "nl", "test") == [tmp_path / "test-nl.tsv"]


def test_a_subset_larger_than_a_split_keeps_it_all_and_says_how_many(tmp_path: Path) -> None:
    """``subset: {first: N}`` over languages of different sizes (PAN-X yo has 100 sentences)
    keeps at most N: a smaller split is kept whole, and its record says how many."""
    from mte.steps.data import materialize

    config = _folder(tmp_path, {"test-yo.tsv": "Èkó\tB-LOC\n\nÌlú\tO\n\nỌjà\tO\n"})
    config["subset"] = {"test": {"first": 1000}}
    examples, origin = materialize(TASKS["panx"], config, "yo", "test")
    assert len(examples) == 3 and origin["subset"] == {"first": 1000, "kept": 3}
    config["subset"] = {"test": {"last": 2}}
    examples, origin = materialize(TASKS["panx"], config, "yo", "test")
    assert [e["tokens"] for e in examples] == [["Ìlú"], ["Ọjà"]]
    assert origin["subset"] == {"last": 2}


def test_files_beside_those_read_that_name_the_language_and_split_are_reported(
    tmp_path: Path,
) -> None:
    """A UD folder with a UD v1-named file (ar-ud-test.conllu) beside the v2-named one: the v2
    file is read, and the record and the job's notes say which file was left."""
    from mte.steps.data import materialize, read_notes

    sentence = "1\tكتاب\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n"
    config = _folder(
        tmp_path,
        {
            "ar_padt-ud-test.conllu": sentence,
            "ar-ud-test.conllu": sentence.replace("NOUN", "CONJ"),
            "ar_padt-ud-dev.conllu": sentence,
            "de_gsd-ud-test.conllu": sentence,
        },
    )
    examples, origin = materialize(TASKS["udpos"], config, "ar", "test")
    assert [f["file"] for f in origin["files"]] == [str(tmp_path / "ar_padt-ud-test.conllu")]
    assert origin["not_read"] == [str(tmp_path / "ar-ud-test.conllu")]
    line, warnings = read_notes(origin, "ar", "test")
    assert line == "files; not read beside it: ar-ud-test.conllu"
    assert "not read, though their names hold ar and test" in warnings[0]
    # nothing is said where nothing was left
    _, alone = materialize(TASKS["udpos"], config, "de", "test")
    assert "not_read" not in alone and read_notes(alone, "de", "test") == ("files", [])


def test_named_files_and_the_tasks_other_languages_are_not_reported_as_left(
    tmp_path: Path,
) -> None:
    """MLQA's folder holds every language pair: beside test-context-en-question-en.json the
    pairs with another MLQA language are its own, not left; a split whose file the config names
    (files:) was chosen, and nothing is said beside it."""
    import json

    from mte.steps.data import materialize

    squad = {
        "data": [
            {
                "paragraphs": [
                    {
                        "context": "Paris is in France.",
                        "qas": [
                            {
                                "id": "q1",
                                "question": "Where is Paris?",
                                "answers": [{"text": "France", "answer_start": 12}],
                            }
                        ],
                    }
                ]
            }
        ]
    }
    text = json.dumps(squad)
    names = ("test-context-en-question-en.json", "test-context-en-question-de.json", "test-en.txt")
    config = _folder(tmp_path, dict.fromkeys(names, text))
    _, origin = materialize(TASKS["mlqa"], config, "en", "test")
    assert origin["not_read"] == [str(tmp_path / "test-en.txt")]
    named = {**config, "files": {"test": "test-context-en-question-en.json"}}
    _, origin = materialize(TASKS["mlqa"], named, "en", "test")
    assert "not_read" not in origin


@pytest.mark.parametrize(
    ("task", "language", "split", "write", "read"),
    [
        ("bucc", "de", "test", "write_bucc", ["de-en.test.de", "de-en.test.en", "de-en.test.gold"]),
        ("tatoeba", "de", "test", "write_tatoeba", ["tatoeba.deu-eng.deu", "tatoeba.deu-eng.eng"]),
        ("mctest", "en", "dev", "write_mctest", ["mc500.dev.tsv", "mc500.dev.ans"]),
    ],
)
def test_the_files_a_reader_reads_together_are_all_checksummed_and_none_is_called_left(
    tmp_path: Path, task: str, language: str, split: str, write: str, read: list[str]
) -> None:
    """BUCC reads its .en and .gold files with de-en.test.de, Tatoeba the .eng side, MCTest the
    .ans answers: each is in the record with its SHA-256 (a changed gold file changes the
    record), none is reported as left beside it; a file no reader took still is."""
    import hashlib

    from mte.steps.data import materialize
    from tests.workflow import tiny_data

    folder = tmp_path / task
    if write == "write_mctest":
        folder.mkdir()
    getattr(tiny_data, write)(folder)
    stray = folder / f"{language}-{split}.txt"
    stray.write_text("a file whose name holds the language and the split\n", encoding="utf-8")
    _, origin = materialize(TASKS[task], {"source": "files", "path": str(folder)}, language, split)
    assert [Path(f["file"]).name for f in origin["files"]] == read
    for record in origin["files"]:
        assert record["sha256"] == hashlib.sha256(Path(record["file"]).read_bytes()).hexdigest()
    assert origin["not_read"] == [str(stray)]


def test_every_treebank_of_a_language_in_a_ud_release_is_read_as_one_split(
    tmp_path: Path,
) -> None:
    # a UD release: one folder per treebank; XTREME merges a language's treebanks per split,
    # ordered by file name (utils_preprocess.udpos_preprocess: sorted(files))
    sentence = "1\t{word}\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n"
    layout = {
        "UD_Lithuanian-HSE/lt_hse-ud-test.conllu": sentence.format(word="b"),
        "UD_Lithuanian-ALKSNIS/lt_alksnis-ud-test.conllu": sentence.format(word="a") * 2,
        "UD_Lithuanian-ALKSNIS/lt_alksnis-ud-dev.conllu": sentence.format(word="dev"),
        "UD_Latvian-LVTB/lv_lvtb-ud-test.conllu": sentence.format(word="lv"),
    }
    for name, text in layout.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    task = TASKS["udpos"]
    paths = resolve_files(task, {"source": "files", "path": str(tmp_path)}, "lt", "test")
    assert [path.name for path in paths] == ["lt_alksnis-ud-test.conllu", "lt_hse-ud-test.conllu"]
    from mte.steps.data import read_files

    examples = read_files(task, paths, "lt", "test")
    assert [example["tokens"] for example in examples] == [["a"], ["a"], ["b"]]
