"""Pair readers on the demo files, the real XNLI files and hand-made files of each layout."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mte.errors import InputError
from mte.families.pairs.readers import read_pair_jsonl, read_pair_table, read_pair_tsv, read_pairs
from mte.registry import TASKS
from mte.steps.data import demo_dir

XNLI = TASKS["xnli"]
XNLI_LANGUAGES = XNLI.languages


def test_demo_sizes_and_scripts() -> None:
    folder = demo_dir(XNLI)
    assert len(read_pair_tsv(folder / "train-en.tsv", XNLI)) >= 200
    assert len(read_pair_tsv(folder / "dev-en.tsv", XNLI)) == 36
    tests = {lang: read_pair_tsv(folder / f"test-{lang}.tsv", XNLI) for lang in XNLI.demo_languages}
    assert all(len(examples) >= 50 for examples in tests.values())
    assert len([lang for lang in tests if lang != "en"]) >= 4
    # parallel line by line: the same id carries the same label in every language
    for lang, examples in tests.items():
        assert [e["label"] for e in examples] == [e["label"] for e in tests["en"]], lang
    assert any("\u4e00" <= ch <= "\u9fff" for ch in tests["zh"][0]["text_a"])  # Han
    assert any("\u0600" <= ch <= "\u06ff" for ch in tests["ar"][0]["text_a"])  # Arabic
    assert any("\u0400" <= ch <= "\u04ff" for ch in tests["ru"][0]["text_a"])  # Cyrillic


def test_demo_test_premises_are_not_in_training() -> None:
    folder = demo_dir(XNLI)
    train = {e["text_a"] for e in read_pair_tsv(folder / "train-en.tsv", XNLI)}
    dev = {e["text_a"] for e in read_pair_tsv(folder / "dev-en.tsv", XNLI)}
    test = {e["text_a"] for e in read_pair_tsv(folder / "test-en.tsv", XNLI)}
    assert not (train | dev) & test


@pytest.mark.parametrize("lang", XNLI_LANGUAGES)
def test_real_xnli_dev_counts_and_labels(shared_data: Path, lang: str) -> None:
    examples = read_pairs(shared_data / "xnli" / f"dev-{lang}.tsv", XNLI, lang)
    assert len(examples) == 2490
    assert Counter(e["label"] for e in examples) == {
        "entailment": 830,
        "neutral": 830,
        "contradiction": 830,
    }
    assert len({e["id"] for e in examples}) == 2490


def test_real_xnli_exact_examples(shared_data: Path) -> None:
    en = read_pairs(shared_data / "xnli" / "dev-en.tsv", XNLI, "en")
    assert en[0] == {
        "id": "1",
        "text_a": "And he said, Mama, I'm home.",
        "text_b": "He called his mom as soon as the school bus dropped him off.",
        "label": "neutral",
    }
    assert en[1]["text_b"] == "He didn't say a word." and en[1]["label"] == "contradiction"
    zh = read_pairs(shared_data / "xnli" / "dev-zh.tsv", XNLI, "zh")
    assert zh[1]["text_a"] == "他说，妈妈，我回来了。"
    assert zh[1]["text_b"] == "他没说一句话。"
    assert zh[1]["label"] == "contradiction"


def test_original_xnli_layout_selects_language(tmp_path: Path) -> None:
    header = "language\tgold_label\tsentence1_binary_parse\tsentence1\tsentence2\tpromptID\tpairID"
    rows = [
        "en\tneutral\t( x )\tA man sleeps.\tHe is tired.\t1\t1",
        "de\tneutral\t( x )\tEin Mann schläft.\tEr ist müde.\t1\t1",
        'de\tcontradictory\t( x )\tSie sagt "ja.\tSie schweigt.\t2\t2',
    ]
    path = tmp_path / "xnli.dev.tsv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    german = read_pairs(path, XNLI, "de")
    assert [e["id"] for e in german] == ["1", "2"]
    # the unbalanced quote stays in the text and does not swallow the next line
    assert german[1] == {
        "id": "2",
        "text_a": 'Sie sagt "ja.',
        "text_b": "Sie schweigt.",
        "label": "contradiction",
    }
    assert read_pair_table(path, XNLI, "en")[0]["text_a"] == "A man sleeps."


def test_multinli_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "multinli_1.0_train.jsonl"
    path.write_text(
        '{"gold_label": "entailment", "sentence1": "A b.", "sentence2": "C d.", "pairID": "7e"}\n',
        encoding="utf-8",
    )
    assert read_pair_jsonl(path, XNLI) == [
        {"id": "7e", "text_a": "A b.", "text_b": "C d.", "label": "entailment"}
    ]


def test_bom_and_crlf_are_read(tmp_path: Path) -> None:
    path = tmp_path / "dev-en.tsv"
    path.write_bytes("\ufeffA.\tB.\tneutral\r\nC.\tD.\tentailment\r\n".encode())
    examples = read_pair_tsv(path, XNLI)
    assert [(e["text_a"], e["label"]) for e in examples] == [
        ("A.", "neutral"),
        ("C.", "entailment"),
    ]


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        (b"A.\tB.\tneutral\nC.\tD.\n", 2, "expected 3 tab-separated fields, found 2"),
        (b"A.\tB.\tneutral\nC.\tD.\tmaybe\n", 2, "unknown label 'maybe'"),
        (b"A.\tB.\tneutral\n\xff\xfe.\tD.\tneutral\n", 2, "not valid utf-8"),
        (b"A.\tB.\tneutral\n\nC.\tD.\tneutral\n", 2, "empty line"),
    ],
)
def test_malformed_lines_name_file_and_line(
    tmp_path: Path, content: bytes, line: int, message: str
) -> None:
    path = tmp_path / "test-de.tsv"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        read_pair_tsv(path, XNLI)
    assert caught.value.line == line
    assert str(path) in str(caught.value) and message in str(caught.value)


def test_empty_and_missing_files(tmp_path: Path) -> None:
    empty = tmp_path / "test-de.tsv"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match="no examples"):
        read_pair_tsv(empty, XNLI)
    with pytest.raises(InputError, match="file not found"):
        read_pairs(tmp_path / "missing.tsv", XNLI, "de")


def test_xtreme_translate_train_layout_reads_the_translated_pair(tmp_path: Path) -> None:
    """XTREME's released translate-train TSV: English premise, English hypothesis, their
    translations, then the label (``contradictory`` for contradiction, as in its train set)."""
    path = tmp_path / "en-de-translated.tsv"
    path.write_text(
        "The cat sleeps.\tAn animal rests.\tDie Katze schläft.\tEin Tier ruht.\tentailment\n"
        "It rains.\tThe sun shines.\tEs regnet.\tDie Sonne scheint.\tcontradictory\n"
    )
    examples = read_pairs(path, XNLI, "de")
    assert [(e["id"], e["text_a"], e["text_b"], e["label"]) for e in examples] == [
        ("1", "Die Katze schläft.", "Ein Tier ruht.", "entailment"),
        ("2", "Es regnet.", "Die Sonne scheint.", "contradiction"),
    ]
    path.write_text("A.\tB.\tA2.\tB2.\tneutral\nC.\tD.\tneutral\n")
    with pytest.raises(InputError, match="expected 5 tab-separated fields, found 3") as caught:
        read_pairs(path, XNLI, "de")
    assert caught.value.line == 2
