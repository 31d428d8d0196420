"""The parity harness finds XTREME's own download layout (scripts/download_data.sh and
utils_preprocess.py) as it finds ../shared/data's, and its --limit takes the first N lines of
each side of a Tatoeba pair."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def harness():
    sys.path.insert(0, str(ROOT / "tools" / "parity"))
    try:
        yield importlib.import_module("harness")
    finally:
        sys.path.remove(str(ROOT / "tools" / "parity"))


def _squad(answer: str) -> str:
    qa = {"id": "q", "question": "Wer?", "answers": [{"text": answer, "answer_start": 0}]}
    return json.dumps(
        {"version": "1.1", "data": [{"paragraphs": [{"context": "Bern.", "qas": [qa]}]}]}
    )


def _download(root: Path) -> Path:
    """XTREME's download/ folder as its scripts leave it (files of a line or two)."""
    files = {
        "xnli/dev-de.tsv": "a\tb\tentailment\n",
        "pawsx/test-fr.tsv": "a\tb\t1\n",
        "panx/train-en.tsv": "en:Bern\tB-LOC\n\n",
        "udpos/dev-de.tsv": "Bern\tPROPN\n\n",
        "udpos-tmp/ud-treebanks-v2.5/UD_German-GSD/de_gsd-ud-test.conllu": "",
        "mlqa/MLQA_V1/dev/dev-context-de-question-de.json": _squad("Bern"),
        # utils_preprocess.remove_qa_test_annotations: the test answers emptied
        "mlqa/MLQA_V1/test/test-context-de-question-de.json": _squad(""),
        "xquad/xquad.de.json": _squad(""),
        "tydiqa/tydiqa-goldp-v1.1-dev/tydiqa.goldp.fi.dev.json": _squad(""),
        "tatoeba/de-en.de": "".join(f"Satz {n}\n" for n in range(5)),
        "tatoeba/de-en.en": "".join(f"sentence {n}\n" for n in range(5)),
        "bucc2018/de-en.test.de": "de-1\tHallo\n",
        "bucc2018/de-en.test.en": "en-1\tHello\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_every_file_of_the_download_layout_is_found(harness, tmp_path: Path) -> None:
    data = _download(tmp_path / "download")
    found = {
        (task, lang, str(path.relative_to(data)), split)
        for _, task, lang, path, split in harness.data_files(data)
    }
    assert found == {
        ("xnli", "de", "xnli/dev-de.tsv", "dev"),
        ("pawsx", "fr", "pawsx/test-fr.tsv", "dev"),
        ("panx", "en", "panx/train-en.tsv", "dev"),
        ("udpos", "de", "udpos/dev-de.tsv", "dev"),
        ("udpos", "de", "udpos-tmp/ud-treebanks-v2.5/UD_German-GSD/de_gsd-ud-test.conllu", "dev"),
        ("mlqa", "de", "mlqa/MLQA_V1/dev/dev-context-de-question-de.json", "dev"),
        ("mlqa", "de", "mlqa/MLQA_V1/test/test-context-de-question-de.json", "dev"),
        ("xquad", "de", "xquad/xquad.de.json", "dev"),
        ("tydiqa", "fi", "tydiqa/tydiqa-goldp-v1.1-dev/tydiqa.goldp.fi.dev.json", "dev"),
        ("tatoeba", "de", "tatoeba/de-en.en", "dev"),
        ("bucc", "de", "bucc2018/de-en.test.de", "test"),
    }


def test_limit_takes_the_first_lines_of_each_tatoeba_side(harness, tmp_path: Path) -> None:
    data = _download(tmp_path / "download")
    examples = harness.read_examples("tatoeba", data / "tatoeba" / "de-en.en", "de", "dev", 2)
    assert [e["id"] for e in examples] == ["eng-0", "eng-1", "de-0", "de-1"]
    assert [e["text"] for e in examples] == ["sentence 0", "sentence 1", "Satz 0", "Satz 1"]


def test_bucc_without_its_test_gold_reads_both_sides(harness, tmp_path: Path) -> None:
    data = _download(tmp_path / "download")
    examples = harness.read_examples("bucc", data / "bucc2018" / "de-en.test.de", "de", "test")
    assert [(e["id"], e["text"]) for e in examples] == [("xx-de-1", "Hallo"), ("en-en-1", "Hello")]


def test_emptied_test_answers_have_prediction_windows_only(harness, tmp_path: Path) -> None:
    data = _download(tmp_path / "download")
    test = harness.read_examples("xquad", data / "xquad" / "xquad.de.json", "de", "dev")
    dev = harness.read_examples(
        "mlqa", data / "mlqa" / "MLQA_V1" / "dev" / "dev-context-de-question-de.json", "de", "dev"
    )
    assert harness.unannotated(test) and not harness.unannotated(dev)
