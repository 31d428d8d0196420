"""SIB-200's released files (data/annotated/{lang}/{split}.tsv: index_id TAB category TAB text)
and its hub schema (Davlan/sib200: index_id, text, and the topic as a string column)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import datasets
import pytest

from mte.errors import InputError
from mte.families.pairs.readers import pair_examples_from_hub, read_pairs
from mte.registry import TASKS
from mte.steps.data import materialize, resolve_files

SIB = TASKS["sib200"]
HEADER = "index_id\tcategory\ttext"


def _write(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def test_release_layout_ids_labels_and_single_sentences(tmp_path: Path) -> None:
    root = tmp_path / "sib-200"
    _write(
        root / "data/annotated/yor_Latn/test.tsv",
        [HEADER, "17\tsports\tỌ̀rọ̀ kan.", "4\tscience/technology\tỌ̀rọ̀ méjì."],
    )
    cfg = {"source": "files", "path": str(root)}
    (path,) = resolve_files(SIB, cfg, "yor_Latn", "test")
    assert path == root / "data/annotated/yor_Latn/test.tsv"
    assert read_pairs(path, SIB, "yor_Latn") == [
        {"id": "17", "text_a": "Ọ̀rọ̀ kan.", "text_b": None, "label": "sports"},
        {"id": "4", "text_a": "Ọ̀rọ̀ méjì.", "text_b": None, "label": "science/technology"},
    ]
    # the folders without data/annotated/ (as ../shared/data holds them) are found too
    _write(tmp_path / "flat/deu_Latn/dev.tsv", [HEADER, "1\ttravel\tEin Satz."])
    (flat,) = resolve_files(
        SIB, {"source": "files", "path": str(tmp_path / "flat")}, "deu_Latn", "dev"
    )
    assert flat == tmp_path / "flat/deu_Latn/dev.tsv"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("5\tweather\tA sentence.", "unknown label 'weather'"),
        ("5\tsports", "expected 3 tab-separated fields, found 2"),
    ],
)
def test_a_damaged_line_names_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    path = _write(tmp_path / "test.tsv", [HEADER, "1\ttravel\tFine.", line])
    with pytest.raises(InputError, match=message) as caught:
        read_pairs(path, SIB, "eng_Latn")
    assert str(caught.value).startswith(f"{path}, line 3: ")


def test_hub_schema_string_labels_and_index_ids() -> None:
    features = datasets.Features(
        {
            "index_id": datasets.Value("int64"),
            "category": datasets.Value("string"),
            "text": datasets.Value("string"),
        }
    )
    dataset = datasets.Dataset.from_dict(
        {"index_id": [431, 403], "category": ["geography", "health"], "text": ["a", "b"]},
        features=features,
    )
    assert pair_examples_from_hub(dataset, SIB) == [
        {"id": "431", "text_a": "a", "text_b": None, "label": "geography"},
        {"id": "403", "text_a": "b", "text_b": None, "label": "health"},
    ]
    bad = datasets.Dataset.from_dict(
        {"index_id": [1], "category": ["weather"], "text": ["c"]}, features=features
    )
    with pytest.raises(Exception, match="row 0 has label 'weather'"):
        pair_examples_from_hub(bad, SIB)


def test_every_language_is_a_flores_code_and_english_trains() -> None:
    assert len(SIB.languages) == len(set(SIB.languages)) == 205
    assert SIB.train_language == "eng_Latn" and SIB.train_language in SIB.languages
    for code in ("zho_Hans", "zho_Hant", "arb_Latn", "min_Arab", "nqo_Nkoo", "taq_Tfng"):
        assert code in SIB.languages


def _real_files(shared_data: Path) -> list[Path]:
    return sorted((shared_data / "sib200").glob("*/*.tsv"))


def test_real_files_every_line_read(shared_data: Path) -> None:
    """Every SIB-200 file in ../shared/data: one example per line after the header, ids the
    index_id column, the 7 topics only, and each language's test set the same items."""
    files = _real_files(shared_data)
    assert len(files) == 3 + 2 * 7
    test_ids = {}
    for path in files:
        language, split = path.parent.name, path.stem
        examples, origin = materialize(
            SIB, {"source": "files", "path": str(shared_data / "sib200")}, language, split
        )
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(examples) == len(lines) - 1, path
        assert [e["id"] for e in examples] == [line.split("\t")[0] for line in lines[1:]]
        assert set(Counter(e["label"] for e in examples)) <= set(SIB.labels)
        assert origin["files"][0]["file"] == str(path)
        if split == "test":
            test_ids[language] = [e["id"] for e in examples]
    sizes = {len(examples) for examples in test_ids.values()}
    assert sizes == {204}
    assert len({tuple(ids) for ids in test_ids.values()}) == 1


def test_real_english_counts(shared_data: Path) -> None:
    cfg = {"source": "files", "path": str(shared_data / "sib200")}
    sizes = {
        split: len(materialize(SIB, cfg, "eng_Latn", split)[0])
        for split in ("train", "dev", "test")
    }
    assert sizes == {"train": 701, "dev": 99, "test": 204}


def test_release_files_are_read_as_pandas_wrote_them(tmp_path: Path) -> None:
    """The release's TSV files were written by pandas' to_csv: a text holding a quote (or a
    TAB, or a line break) is quoted and its quotes doubled. Written here by pandas itself, read
    back exactly, ids and lines as written."""
    import pandas as pd

    texts = [
        'She said "hello" twice.',
        "A plain sentence.",
        "A TAB\tinside, and a line\nbreak.",
        '"Quoted" at the start',
    ]
    frame = pd.DataFrame(
        {
            "index_id": [7, 8, 9, 10],
            "category": ["travel", "health", "sports", "travel"],
            "text": texts,
        }
    )
    path = tmp_path / "sib200" / "eng_Latn" / "dev.tsv"
    path.parent.mkdir(parents=True)
    frame.to_csv(path, sep="\t", index=False)
    assert '"She said ""hello"" twice."' in path.read_text(encoding="utf-8")
    examples = read_pairs(path, SIB, "eng_Latn")
    assert [e["text_a"] for e in examples] == texts
    assert [e["id"] for e in examples] == ["7", "8", "9", "10"]
    assert [e["label"] for e in examples] == ["travel", "health", "sports", "travel"]


def test_a_damaged_quoted_record_names_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "test.tsv", [HEADER, "1\ttravel\tFine.", '2\ttravel\t"open "quote'])
    with pytest.raises(InputError, match="not a CSV-quoted TSV record") as caught:
        read_pairs(path, SIB, "eng_Latn")
    assert str(caught.value).startswith(f"{path}, line 3: ")


def test_real_files_read_as_pandas_reads_them(shared_data: Path) -> None:
    """Every SIB-200 file in ../shared/data gives the texts pandas reads from it (an
    independent reader of what pandas wrote); 89 of their 3125 rows, 41 of the 701 English
    training rows, hold a quote and were read with the release's quoting before."""
    import pandas as pd

    changed = rows = 0
    for path in _real_files(shared_data):
        examples = read_pairs(path, SIB, path.parent.name)
        frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
        assert [e["text_a"] for e in examples] == list(frame["text"]), path
        assert [e["id"] for e in examples] == list(frame["index_id"]), path
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
        raw = [line.split("\t")[2] for line in lines]
        changed += sum(text != e["text_a"] for text, e in zip(raw, examples, strict=True))
        rows += len(examples)
    assert (changed, rows) == (89, 3125)
