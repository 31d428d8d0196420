"""Tagging readers on the real CoNLL, PAN-X and UD files, and on hand-made bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from mte.errors import InputError
from mte.families.tagging.metrics import entity_prf, tagging_metrics
from mte.families.tagging.readers import (
    count_empty_tokens,
    iob1_to_iob2,
    read_conll_columns,
    read_conllu,
    read_token_tag_tsv,
)
from mte.registry import TASKS

CONLL, PANX, UDPOS = TASKS["conll"], TASKS["panx"], TASKS["udpos"]

# sentences and tokens, counted from the files themselves (-DOCSTART- lines excluded); the
# CoNLL counts are the shared tasks' published ones (e.g. eng.train 14,041 / 203,621)
CONLL_COUNTS = {
    "eng.train": (14041, 203621),
    "eng.testa": (3250, 51362),
    "eng.testb": (3453, 46435),
    "esp.train": (8323, 264715),
    "esp.testa": (1915, 52923),
    "esp.testb": (1517, 51533),
    "ned.train": (15806, 202644),
    "ned.testa": (2895, 37687),
    "ned.testb": (5195, 68875),
    "deu.testa": (2867, 51444),
    "deu.testb": (3005, 51943),
}
PANX_COUNTS = {
    "dev-en.tsv": (10000, 80536),
    "dev-de.tsv": (10000, 97805),
    "dev-es.tsv": (10000, 64329),
    "dev-nl.tsv": (10000, 84146),
    "dev-zh.tsv": (10000, 213682),
    "dev-ar.tsv": (10000, 64291),
    "train-en.first1000.tsv": (1000, 8214),
}
UD_COUNTS = {
    "en_ewt-ud-dev.conllu": (2001, 25147),
    "en_ewt-ud-test.conllu": (2077, 25094),
    "de_gsd-ud-dev.conllu": (799, 12480),
    "de_gsd-ud-test.conllu": (977, 16499),
    "es_gsd-ud-dev.conllu": (1400, 37154),
    "es_gsd-ud-test.conllu": (427, 12002),
    "zh_gsd-ud-dev.conllu": (500, 12665),
    "zh_gsd-ud-test.conllu": (500, 12010),
}


def _counts(examples: list[dict]) -> tuple[int, int]:
    assert all(len(e["tokens"]) == len(e["tags"]) > 0 for e in examples)
    return len(examples), sum(len(e["tokens"]) for e in examples)


@pytest.mark.parametrize(("name", "counts"), CONLL_COUNTS.items())
def test_conll_counts(shared_data: Path, name: str, counts: tuple[int, int]) -> None:
    examples = read_conll_columns(shared_data / "conll" / name, CONLL)
    assert _counts(examples) == counts
    assert entity_prf(*[[e["tags"] for e in examples]] * 2)["f1"] == 1.0


@pytest.mark.parametrize(("name", "counts"), PANX_COUNTS.items())
def test_panx_counts(shared_data: Path, name: str, counts: tuple[int, int]) -> None:
    examples = read_token_tag_tsv(shared_data / "panx" / name, PANX)
    assert _counts(examples) == counts
    tags = [e["tags"] for e in examples]
    assert tagging_metrics(PANX, tags, tags) == {
        "precision": 1.0,
        "recall": 1.0,
        "f1": 1.0,
        "token_f1": 1.0,
    }


@pytest.mark.parametrize(("name", "counts"), UD_COUNTS.items())
def test_ud_counts(shared_data: Path, name: str, counts: tuple[int, int]) -> None:
    examples = read_conllu(shared_data / "ud" / name, UDPOS)
    assert _counts(examples) == counts
    tags = [e["tags"] for e in examples]
    assert tagging_metrics(UDPOS, tags, tags)["accuracy"] == 1.0


def test_exact_tokens_and_tags(shared_data: Path) -> None:
    eng = read_conll_columns(shared_data / "conll" / "eng.train", CONLL)
    # IOB1 in the file (I-ORG, I-MISC, I-PER) becomes IOB2
    assert list(zip(eng[0]["tokens"][:3], eng[0]["tags"][:3], strict=True)) == [
        ("EU", "B-ORG"),
        ("rejects", "O"),
        ("German", "B-MISC"),
    ]
    assert eng[1]["tokens"] == ["Peter", "Blackburn"] and eng[1]["tags"] == ["B-PER", "I-PER"]
    esp = read_conll_columns(shared_data / "conll" / "esp.train", CONLL)
    assert list(zip(esp[0]["tokens"][:3], esp[0]["tags"][:3], strict=True)) == [
        ("Melbourne", "B-LOC"),
        ("(", "O"),
        ("Australia", "B-LOC"),
    ]
    deu = read_conll_columns(shared_data / "conll" / "deu.testa", CONLL)
    # Latin-1: the byte 0xDF is ß
    assert deu[0]["tokens"][0] == "Großer"
    assert deu[0]["tags"][3] == "B-ORG"  # I-ORG after O opens an entity
    assert deu[0]["tags"][7] == "B-MISC"
    zh = read_token_tag_tsv(shared_data / "panx" / "dev-zh.tsv", PANX)
    assert zh[0]["tokens"][:2] == ["前", "鎮"] and zh[0]["tags"][:2] == ["B-LOC", "I-LOC"]
    de = read_conllu(shared_data / "ud" / "de_gsd-ud-dev.conllu", UDPOS)
    assert list(zip(de[0]["tokens"][:2], de[0]["tags"][:2], strict=True)) == [
        ("Manasse", "PROPN"),
        ("ist", "AUX"),
    ]
    es = read_conllu(shared_data / "ud" / "es_gsd-ud-dev.conllu", UDPOS)
    # the range line "18-19 del" is skipped; its words "de" and "el" are read
    assert "del" not in es[0]["tokens"]
    assert es[0]["tokens"][17:19] == ["de", "el"]


def test_iob1_to_iob2_hand_worked() -> None:
    assert iob1_to_iob2(["I-PER", "I-PER", "O", "I-LOC", "B-LOC", "I-LOC", "I-ORG"]) == [
        "B-PER",
        "I-PER",
        "O",
        "B-LOC",
        "B-LOC",
        "I-LOC",
        "B-ORG",
    ]
    iob2 = ["B-PER", "I-PER", "O", "B-LOC"]
    assert iob1_to_iob2(iob2) == iob2


def test_conllu_empty_nodes_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "x_t-ud-dev.conllu"
    rows = [
        "# sent_id = 1",
        "1-2\tdel\t_\t_\t_\t_\t_\t_\t_\t_",
        "1\tde\tde\tADP\t_\t_\t3\tcase\t_\t_",
        "2\tel\tel\tDET\t_\t_\t3\tdet\t_\t_",
        "2.1\tvio\tver\tVERB\t_\t_\t_\t_\t0:root\t_",
        "3\tsol\tsol\tNOUN\t_\t_\t0\troot\t_\t_",
        "",
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert read_conllu(path, UDPOS) == [
        {"id": "1", "tokens": ["de", "el", "sol"], "tags": ["ADP", "DET", "NOUN"]}
    ]


@pytest.mark.parametrize(
    ("reader", "task", "content", "line", "message"),
    [
        (read_conll_columns, CONLL, "EU NNP I-NP I-ORG\nrejects\n", 2, "a token with no tag"),
        (
            read_conll_columns,
            CONLL,
            "EU NNP I-NP I-ORG\nx NN I-NP I-FOO\n",
            2,
            "unknown tag 'I-FOO'",
        ),
        (read_token_tag_tsv, PANX, "Paris\tB-LOC\n\nBerlin\n", 3, "expected token TAB tag"),
        (read_token_tag_tsv, PANX, "Paris\tB-GPE\n", 1, "unknown tag 'B-GPE'"),
        (
            read_conllu,
            UDPOS,
            "1\tde\tde\tADP\t_\t_\t3\tcase\t_\n",
            1,
            "expected 10 CoNLL-U columns",
        ),
        (read_conllu, UDPOS, "1\tde\tde\tPREP\t_\t_\t3\tcase\t_\t_\n\n", 1, "unknown tag 'PREP'"),
        # UD v1's CONJ (UD v2: CCONJ): the message says so and how to read the file
        (
            read_conllu,
            UDPOS,
            "1\tand\tand\tCONJ\t_\t_\t0\troot\t_\t_\n\n",
            1,
            "tag 'CONJ' is Universal Dependencies v1's name of the tag UD POS reads as 'CCONJ' "
            "(Universal Dependencies v2.5 (v2.7 for lt, pl, uk, wo, ro)); rename 'CONJ' to 'CCONJ' "
            "in the file's tag column",
        ),
        (read_token_tag_tsv, UDPOS, "and\tCONJ\n", 1, "Universal Dependencies v1's name"),
        # CoNLL-U closes every sentence with a blank line: without it the file was cut short
        (
            read_conllu,
            UDPOS,
            "# sent_id = 1\n1\tde\tde\tADP\t_\t_\t0\troot\t_\t_\n",
            2,
            "cut short",
        ),
        (
            read_conllu,
            UDPOS,
            "1\tde\tde\tADP\t_\t_\t0\troot\t_\t_\n\n"
            "# sent_id = 2\n1\tel\tel\tDET\t_\t_\t0\troot\t_\t_",
            4,
            "cut short",
        ),
        (
            read_conllu,
            UDPOS,
            "1\tde\tde\tADP\t_\t_\t0\troot\t_\t_\n\n# sent_id = 2\n",
            3,
            "cut short",
        ),
    ],
)
def test_malformed_input_names_file_and_line(
    tmp_path: Path, reader, task, content: str, line: int, message: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        reader(path, task)
    assert caught.value.line == line
    assert message in str(caught.value) and str(path) in str(caught.value)


def test_an_empty_token_is_kept_with_its_tag_and_counted(tmp_path: Path) -> None:
    # `\tPROPN` is a word with no text, not the lone-TAB sentence separator: XTREME's reader
    # keeps it (split("\t")[0] == ""), so its tag stays in the gold sequence
    path = tmp_path / "test-xx.tsv"
    path.write_text("Ana\tPROPN\n\tPROPN\nvino\tVERB\n\t\nYa\tADV\n", encoding="utf-8")
    examples = read_token_tag_tsv(path, UDPOS)
    assert examples == [
        {"id": "1", "tokens": ["Ana", "", "vino"], "tags": ["PROPN", "PROPN", "VERB"]},
        {"id": "2", "tokens": ["Ya"], "tags": ["ADV"]},
    ]
    assert count_empty_tokens(examples) == 1


def test_an_empty_token_is_recorded_in_the_datas_provenance(tmp_path: Path) -> None:
    from mte.steps.data import materialize

    (tmp_path / "test-de.tsv").write_text("Ana\tB-PER\n\tI-PER\n\nx\tO\n\tO\n", encoding="utf-8")
    examples, origin = materialize(PANX, {"source": "files", "path": str(tmp_path)}, "de", "test")
    assert [e["tokens"] for e in examples] == [["Ana", ""], ["x", ""]]
    assert origin["empty_tokens"] == 2
    (tmp_path / "test-de.tsv").write_text("Ana\tB-PER\n", encoding="utf-8")
    assert (
        "empty_tokens"
        not in materialize(PANX, {"source": "files", "path": str(tmp_path)}, "de", "test")[1]
    )


def _conllu(rows: list[str]) -> str:
    """Sentences of ``id form upos head deps`` rows (blank between sentences) as CoNLL-U."""
    lines = []
    for row in rows:
        if not row:
            lines.append("")
            continue
        index, form, upos, head, deps = row.split(" ")
        lines.append("\t".join([index, form.replace("+", " "), "_", upos, "_", "_", head, "x",
                                deps, "_"]))  # fmt: skip
    return "\n".join(lines) + "\n\n"


def test_fused_forms_as_xtreme_converts_a_release(tmp_path: Path) -> None:
    """conllu_to_conll.py --replace_subtokens_with_fused_forms by hand: the span's word with
    fewest ancestors takes the fused form and keeps its UPOS; a tie goes to the language's
    UPOS precedence (Spanish: AUX before PRON; the default list: PRON before AUX); an enhanced
    dependency is an edge too; udpos_preprocess drops a sentence of all-but-one '_' forms and
    takes zero-width non-joiners and spaces out of forms."""
    rows = [
        # x and y both hang from z (ancestors {3, 0}): a tie, settled by the precedence
        "1-2 xy _ _ _", "1 x AUX 3 _", "2 y PRON 3 _", "3 z VERB 0 _", "",
        # the enhanced 1:obj makes 1 an ancestor of 2: 1 is the single highest
        "1-2 ab _ _ _", "1 a NOUN 3 _", "2 b DET 3 1:obj", "3 c VERB 0 _", "",
        # two of three forms '_': left out; one of three: kept
        "1 _ X 0 _", "2 _ X 1 _", "3 w NOUN 1 _", "",
        "1 _ X 0 _", "2 v NOUN 1 _", "3 a\u200cb+c NOUN 1 _",
    ]  # fmt: skip
    text = _conllu(rows)
    spanish, other = tmp_path / "es_t-ud-test.conllu", tmp_path / "xx_t-ud-test.conllu"
    for path in (spanish, other):
        path.write_text(text, encoding="utf-8")
    read = [
        [list(zip(e["tokens"], e["tags"], strict=True)) for e in read_conllu(p, UDPOS, "", True)]
        for p in (spanish, other)
    ]
    assert read[0] == [
        [("xy", "AUX"), ("z", "VERB")],
        [("ab", "NOUN"), ("c", "VERB")],
        [("_", "X"), ("v", "NOUN"), ("abc", "NOUN")],
    ]
    assert read[1][0] == [("xy", "PRON"), ("z", "VERB")] and read[1][1:] == read[0][1:]
    # without fused forms: UD's syntactic words, every sentence
    assert len(read_conllu(spanish, UDPOS)) == 4
