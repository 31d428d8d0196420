"""Readers under fuzzing: whatever the bytes, a reader returns examples or raises our own
error naming the file (and line); a valid file reads back exactly, whatever its line ends and
BOM; a file cut short mid-line is an error, never a silently shorter dataset.

The number of examples is bounded (the ``mte`` profile below) and derandomised, so CI runs
the same cases each time; ``HYPOTHESIS_PROFILE=deep`` runs many more, differently seeded.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mte.errors import InputError, MteError
from mte.families.pairs.readers import read_pair_jsonl, read_pair_table, read_pair_tsv, read_pairs
from mte.families.qa.readers import read_squad_json
from mte.families.retrieval.readers import read_bucc, read_tatoeba
from mte.families.tagging.readers import read_conll_columns, read_conllu, read_token_tag_tsv
from mte.registry import TASKS

settings.register_profile(
    "mte",
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("deep", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "mte"))

XNLI, PAWSX, MNLI = TASKS["xnli"], TASKS["pawsx"], TASKS["mnli"]
PANX, CONLL, UDPOS = TASKS["panx"], TASKS["conll"], TASKS["udpos"]

# each reader with the file name its layout expects; tatoeba and bucc read siblings too
READERS: dict[str, tuple[str, Callable[[Path], list[dict[str, Any]]]]] = {
    "pair_tsv": ("dev-de.tsv", lambda p: read_pair_tsv(p, XNLI)),
    "pair_table": ("dev_2k.tsv", lambda p: read_pair_table(p, PAWSX)),
    "pairs_by_layout": ("test-de.tsv", lambda p: read_pairs(p, XNLI, "de")),
    "pair_jsonl": ("multinli.jsonl", lambda p: read_pair_jsonl(p, MNLI)),
    "token_tag_tsv": ("dev-de.tsv", lambda p: read_token_tag_tsv(p, PANX)),
    "conll_columns": ("deu.testa", lambda p: read_conll_columns(p, CONLL)),
    "conllu": ("de_gsd-ud-test.conllu", lambda p: read_conllu(p, UDPOS)),
    "squad_json": ("dev-v1.1.json", read_squad_json),
    "tatoeba": ("tatoeba.deu-eng.deu", read_tatoeba),
    "bucc": ("de-en.test.de", read_bucc),
}
SIBLINGS = {"tatoeba": (".eng",), "bucc": (".en", ".gold")}

# bytes that make near-valid files: fields, tabs, both line ends, BOMs, labels and tags,
# JSON punctuation, UTF-8 multi-byte sequences and bytes that are never valid UTF-8
PIECES = [
    b"\t", b"\n", b"\r\n", b"\r", b"\xef\xbb\xbf", b" ", b"", b"#", b"1", b"2-3", b"4.1",
    b"entailment", b"neutral", b"contradiction", b"label", b"sentence1", b"sentence2",
    b"gold_label", b"B-PER", b"I-LOC", b"O", b"NOUN", b"_", b"-DOCSTART-", b"{", b"}", b"[",
    b"]", b'"', b":", b",", b"data", b"paragraphs", b"qas", b"answers", b"answer_start",
    b"text", b"context", b"id", b"question", b"Haus", b"\xc3\xa4", b"\xe4\xb8\xad", b"\xff",
    b"\xc3", b"\x00", b"x",
]  # fmt: skip
near_valid = st.lists(st.sampled_from(PIECES), max_size=80).map(b"".join)
any_bytes = st.one_of(st.binary(max_size=400), near_valid)


def _read(name: str, contents: list[bytes]) -> list[dict[str, Any]]:
    """Write the file (and its siblings) and read it with reader ``name``."""
    filename, reader = READERS[name]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / filename
        path.write_bytes(contents[0])
        for suffix, data in zip(SIBLINGS.get(name, ()), contents[1:], strict=False):
            path.with_suffix(suffix).write_bytes(data)
        return reader(path)


@pytest.mark.parametrize("name", READERS)
@given(data=st.data())
def test_any_bytes_read_or_raise_our_error_naming_the_file(name: str, data) -> None:
    contents = [data.draw(any_bytes) for _ in range(1 + len(SIBLINGS.get(name, ())))]
    try:
        examples = _read(name, contents)
    except MteError as err:
        # the file, and for a line-level fault its line, are in the message
        assert READERS[name][0].split(".")[0] in str(err) or "squad" in name
        if isinstance(err, InputError) and err.line is not None:
            assert f"line {err.line}:" in str(err)
        return
    assert isinstance(examples, list) and examples
    assert all(isinstance(example, dict) and "id" in example for example in examples)


# text that can sit in a TSV field: no tab or line end; no BOM character (at the start of a
# file it *is* the BOM); no lone surrogates, which UTF-8 cannot encode
field_text = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r\ufeff"), max_size=20
)
pair_examples = st.lists(
    st.tuples(field_text, field_text, st.sampled_from(XNLI.labels)), min_size=1, max_size=12
)
layouts = st.tuples(st.sampled_from(["\n", "\r\n"]), st.booleans(), st.booleans())


def _pair_file(examples: list[tuple[str, str, str]], layout: tuple[str, bool, bool]) -> bytes:
    end, bom, final_newline = layout
    text = end.join("\t".join(example) for example in examples) + (end if final_newline else "")
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")


@given(examples=pair_examples, layout=layouts)
def test_a_valid_pair_file_reads_back_exactly(examples, layout) -> None:
    read = _read("pair_tsv", [_pair_file(examples, layout)])
    assert read == [
        {"id": str(number), "text_a": a, "text_b": b, "label": label}
        for number, (a, b, label) in enumerate(examples, start=1)
    ]


@given(examples=pair_examples, layout=layouts, data=st.data())
def test_a_pair_file_cut_mid_line_is_an_error_never_a_shorter_dataset(
    examples, layout, data
) -> None:
    whole = _pair_file(examples, layout)
    cut = data.draw(st.integers(min_value=0, max_value=len(whole)), label="cut")
    end, bom = layout[0].encode(), layout[1]
    # where each line's content ends, in bytes: a cut at or after it keeps the line whole
    content_ends, position = [], 3 if bom else 0
    for example in examples:
        position += len("\t".join(example).encode("utf-8"))
        content_ends.append(position)
        position += len(end)
    whole_lines = sum(cut >= stop for stop in content_ends)
    starts = [3 if bom else 0] + [stop + len(end) for stop in content_ends[:-1]]
    mid_line = any(start < cut < stop for start, stop in zip(starts, content_ends, strict=True))
    try:
        read = _read("pair_tsv", [whole[:cut]])
    except InputError:
        return
    assert not mid_line, f"a file cut inside line {whole_lines + 1} was read without an error"
    assert len(read) == whole_lines
    assert [(e["text_a"], e["text_b"], e["label"]) for e in read] == examples[:whole_lines]


tokens = st.text(
    st.characters(blacklist_categories=("Cs", "Zs", "Cc"), blacklist_characters="\ufeff"),
    min_size=1,
    max_size=12,
)
tagged_sentences = st.lists(
    st.lists(st.tuples(tokens, st.sampled_from(PANX.labels)), min_size=1, max_size=8),
    min_size=1,
    max_size=6,
)


@given(sentences=tagged_sentences, layout=layouts)
def test_a_valid_tagging_file_reads_back_exactly(sentences, layout) -> None:
    end, bom, final_newline = layout
    blocks = [end.join(f"{token}\t{tag}" for token, tag in sentence) for sentence in sentences]
    text = (end + end).join(blocks) + (end if final_newline else "")
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    read = _read("token_tag_tsv", [data])
    assert read == [
        {"id": str(number), "tokens": [t for t, _ in sentence], "tags": [g for _, g in sentence]}
        for number, sentence in enumerate(sentences, start=1)
    ]


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("pair_tsv", b"", "no examples in file"),
        ("pair_tsv", b"a\tb\tmaybe\n", "line 1: unknown label 'maybe'"),
        ("pair_tsv", b"a\tb\tneutral\n\na\tb\tneutral\n", "line 2: empty line"),
        ("pair_tsv", "Stra\u00dfe\tb\tneutral\n".encode("latin-1"), "line 1: not valid utf-8"),
        ("pair_table", b"sentence1\tsentence2\n", "line 1: header lacks column(s) label"),
        ("token_tag_tsv", b"Haus\tB-PER\nBaum\n", "line 2: expected token TAB tag"),
        ("token_tag_tsv", b"Haus\tB-XYZ\n", "line 1: unknown tag 'B-XYZ'"),
        ("token_tag_tsv", b"\n\n\r\n", "no sentences in file"),
        ("pair_jsonl", b'{"sentence1": "a"}\n', "line 1: missing field 'sentence2'"),
        ("pair_jsonl", b'{"sentence1": "a", "sent', "line 1: not valid JSON"),
        ("squad_json", json.dumps({"data": 3}).encode(), "dev-v1.1.json"),
    ],
)
def test_each_fault_has_its_message(name: str, data: bytes, message: str) -> None:
    with pytest.raises(MteError) as caught:
        _read(name, [data, b"", b""])
    assert message in str(caught.value)
