"""Tatoeba and BUCC readers: the real Tatoeba files, constructed BUCC files, hub schemas."""

from __future__ import annotations

from pathlib import Path

import datasets
import pytest

from mte.errors import InputError
from mte.families.retrieval.readers import bucc_from_hub, read_bucc, read_tatoeba, tatoeba_from_hub
from mte.registry import TASKS
from mte.specs.tatoeba import TATOEBA_CODES
from mte.steps.data import materialize

# lines per language in ../shared/data/tatoeba (its PROVENANCE.tsv); the others have 1000
TATOEBA_SHORT = {
    "jv": 205,
    "ka": 746,
    "kk": 575,
    "ml": 687,
    "sw": 390,
    "ta": 307,
    "te": 234,
    "th": 548,
}


def test_every_real_tatoeba_language_reads_with_its_count(shared_data: Path) -> None:
    task = TASKS["tatoeba"]
    assert len(task.languages) == 36
    for language in task.languages:
        cfg = {"source": "files", "path": str(shared_data / "tatoeba")}
        examples, origin = materialize(task, cfg, language, "test")
        assert len(examples) == TATOEBA_SHORT.get(language, 1000), language
        assert origin["files"][0]["file"].endswith(
            f"tatoeba.{TATOEBA_CODES[language]}-eng.{TATOEBA_CODES[language]}"
        )
        assert all(e["src"].strip() and e["tgt"].strip() for e in examples)


def test_tatoeba_pairs_line_by_line(tmp_path: Path) -> None:
    (tmp_path / "tatoeba.deu-eng.deu").write_text("Hallo.\nDanke!\n", encoding="utf-8")
    (tmp_path / "tatoeba.deu-eng.eng").write_text("Hello.\r\nThanks!\r\n", encoding="utf-8")
    assert read_tatoeba(tmp_path / "tatoeba.deu-eng.deu") == [
        {"id": "1", "src": "Hallo.", "tgt": "Hello."},
        {"id": "2", "src": "Danke!", "tgt": "Thanks!"},
    ]


def test_tatoeba_sides_of_different_length_are_an_error(tmp_path: Path) -> None:
    (tmp_path / "tatoeba.deu-eng.deu").write_text("Hallo.\nDanke!\n", encoding="utf-8")
    (tmp_path / "tatoeba.deu-eng.eng").write_text("Hello.\n", encoding="utf-8")
    with pytest.raises(
        InputError, match=r"tatoeba.deu-eng.deu: 2 lines, but tatoeba.deu-eng.eng has 1"
    ):
        read_tatoeba(tmp_path / "tatoeba.deu-eng.deu")


def test_tatoeba_missing_english_side_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "tatoeba.deu-eng.deu").write_text("Hallo.\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"tatoeba.deu-eng.eng: file not found"):
        read_tatoeba(tmp_path / "tatoeba.deu-eng.deu")


def _bucc(
    folder: Path, split: str = "training", gold: str = "de-000000002\ten-000000001\n"
) -> Path:
    (folder / f"de-en.{split}.de").write_text(
        "de-000000001\tDer Hund schläft.\nde-000000002\tEs regnet.\n", encoding="utf-8"
    )
    (folder / f"de-en.{split}.en").write_text(
        "en-000000001\tIt is raining.\nen-000000002\tThe cat eats.\n", encoding="utf-8"
    )
    (folder / f"de-en.{split}.gold").write_text(gold, encoding="utf-8")
    return folder / f"de-en.{split}.de"


def test_bucc_reads_both_sides_and_the_gold(tmp_path: Path) -> None:
    records = read_bucc(_bucc(tmp_path))
    assert [r for r in records if r["side"] == "gold"] == [
        {"id": "gold-1", "side": "gold", "source": "de-000000002", "target": "en-000000001"}
    ]
    assert [r["id"] for r in records if r["side"] == "xx"] == ["de-000000001", "de-000000002"]
    assert records[2] == {"id": "en-000000001", "side": "en", "text": "It is raining."}


def test_bucc_release_names_are_found_for_dev_and_test(tmp_path: Path) -> None:
    _bucc(tmp_path, "sample")
    _bucc(tmp_path, "training")
    task, cfg = TASKS["bucc"], {"source": "files", "path": str(tmp_path)}
    dev, _ = materialize(task, cfg, "de", "dev")
    test, origin = materialize(task, cfg, "de", "test")
    assert len(dev) == len(test) == 5
    assert origin["files"][0]["file"].endswith("de-en.training.de")


def test_bucc_gold_naming_an_unknown_sentence_is_an_error(tmp_path: Path) -> None:
    path = _bucc(tmp_path, gold="de-000000002\ten-000000001\nde-000000009\ten-000000002\n")
    with pytest.raises(
        InputError, match=r"de-en.training.gold, line 2: 'de-000000009' is not an id"
    ):
        read_bucc(path)


def _hub_pairs(source_lang: str, target_lang: str) -> datasets.Dataset:
    return datasets.Dataset.from_dict(
        {
            "source_sentence": ["Hallo.", "Danke."],
            "target_sentence": ["Hello.", "Thanks."],
            "source_lang": [source_lang] * 2,
            "target_lang": [target_lang] * 2,
        }
    )


def test_tatoeba_hub_schema_takes_english_by_its_language_column() -> None:
    expected = [
        {"id": "1", "src": "Hallo.", "tgt": "Hello."},
        {"id": "2", "src": "Danke.", "tgt": "Thanks."},
    ]
    assert tatoeba_from_hub(_hub_pairs("de", "en"), "tatoeba.deu") == expected
    swapped = _hub_pairs("en", "de").rename_columns(
        {"source_sentence": "target_sentence", "target_sentence": "source_sentence"}
    )
    assert tatoeba_from_hub(swapped, "tatoeba.deu") == expected


def test_bucc_hub_schema_becomes_sides_and_gold() -> None:
    records = bucc_from_hub(_hub_pairs("de", "en"), "bucc18.de", "de")
    gold = [(r["source"], r["target"]) for r in records if r["side"] == "gold"]
    assert gold == [("de-000000001", "en-000000001"), ("de-000000002", "en-000000002")]
    assert {r["text"] for r in records if r["side"] == "en"} == {"Hello.", "Thanks."}
