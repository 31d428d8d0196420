"""Paper tokenization (mte.hub.models.TOKENIZATIONS): the model's input as XTREME's scripts made it,
checked against the SentencePiece library itself and against transformers 2.x's rules worked
by hand. tools/parity compares the whole features with XTREME's own code."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mte.families.tagging.features import separators, tokenize_tagging
from mte.hub.models import load_tokenizer
from mte.modelling.features import encode_pairs, kept_lengths
from mte.registry import TASKS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "parity"))
from vocab_files import sentencepiece_model  # noqa: E402

# what differs between SentencePiece and a converted fast tokenizer: a trailing space (the
# issue's MLQA question), a zero-width space and a no-break space at a word's end, runs of
# spaces, leading spaces, tabs and newlines
TRICKY = [
    "ما هي أهمية ",
    "word\u200b",
    "\u200b",
    "a\u200b b",
    "x\u00a0",
    "abc\u3000",
    "  lead and  double  spaces ",
    "tab\tand\nnewline\n",
    "Hello, World! 1999年中国",
    # equal-score segmentations (the same pieces in another order), which SentencePiece's
    # 32-bit search and the tokenizers library's 64-bit one cut differently
    "xxxiii",
    "super bowl xxxiii",
    "XXXIII xxxiii Xxxiii",
]


def test_paper_tokenization_is_sentencepiece_on_e5(e5_model: Path, tmp_path: Path) -> None:
    """The SentencePiece library, on a model rebuilt from e5-small's tokenizer.json (its
    pieces, scores and charsmap), and the paper tokenizer give the same pieces for every demo
    text and every tricky string, whole and word by word; the fast one does not."""
    import sentencepiece

    from mte.hub.tiny_models import demo_texts

    processor = sentencepiece.SentencePieceProcessor(
        model_proto=sentencepiece_model(e5_model / "tokenizer.json")
    )
    paper = load_tokenizer(e5_model)
    fast = load_tokenizer(e5_model, tokenization="fast")
    texts = [*demo_texts(), *TRICKY]
    for text in texts:
        assert paper.tokenize(text) == processor.encode(text, out_type=str), text
    words = [word for text in TRICKY for word in text.split(" ")]
    encoded = paper(words, is_split_into_words=True, add_special_tokens=False)
    pieces = [[] for _ in words]
    for token, word in zip(encoded.tokens(), encoded.word_ids(), strict=True):
        pieces[word].append(token)
    assert pieces == [processor.encode(word, out_type=str) for word in words]
    assert pieces[words.index("word\u200b")] == ["\u2581word"]
    # lower-cased "XXXIII", a word alone (XTREME's QA and tagging tokenise word by word)
    assert pieces[words.index("xxxiii")] == ["\u2581xxx", "ii", "i"]
    assert fast.tokenize("xxxiii") == ["\u2581xxx", "i", "ii"]
    # the fast tokenizer's lone marker after a trailing space, as the issue measured it
    assert fast.tokenize("ما هي أهمية ")[-1] == "\u2581"
    assert paper.tokenize("ما هي أهمية ")[-1] != "\u2581"


# a character the charsmap maps, then a combining mark: one grapheme cluster under 6 bytes,
# which the tokenizers library's Precompiled step maps whole by its first character's mapping,
# dropping the mark (tokenizers issues 2116 and 2334); SentencePiece keeps it
CLUSTERS = ["\ufefb\u064e", "\uff21\u0301", "\u01c6\u0301", "\u2460\u0301"]


def test_clusters_are_normalised_as_sentencepiece_normalises_them(e5_model: Path) -> None:
    """The constructed inputs, alone, in a sentence and word by word: the paper tokenizer
    gives the SentencePiece library's pieces (the mark kept), the fast one drops the mark; each
    piece's offsets are the characters it came from."""
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor(
        model_proto=sentencepiece_model(e5_model / "tokenizer.json")
    )
    paper, fast = load_tokenizer(e5_model), load_tokenizer(e5_model, tokenization="fast")
    for cluster in CLUSTERS:
        for text in (cluster, f"vor {cluster}{cluster} nach", f"x{cluster}"):
            assert paper.tokenize(text) == processor.encode(text, out_type=str), text
        assert fast.tokenize(cluster) != processor.encode(cluster, out_type=str)
        encoded = paper(f"a {cluster}", add_special_tokens=False, return_offsets_mapping=True)
        # the mark is a piece of its own, at its own character (index 3)
        assert encoded["offset_mapping"][-1] == (3, 4), cluster
    words = paper([f"{c}" for c in CLUSTERS], is_split_into_words=True, add_special_tokens=False)
    assert words.tokens() == [p for c in CLUSTERS for p in processor.encode(c, out_type=str)]
    lower = load_tokenizer(e5_model, do_lower_case=True)
    for cluster in CLUSTERS:
        expected = processor.encode("".join(c.lower() for c in cluster), out_type=str)
        assert lower.tokenize(cluster) == expected


def test_lower_casing_is_transformers2s_per_character() -> None:
    """transformers 2.x lower-cased one character at a time (``lowercase_text``'s ``(.+?)``),
    so a word-final capital sigma becomes σ, not the ς of ``str.lower`` on the word."""
    from tokenizers import normalizers

    assert "ΟΔΟΣ".lower() == "οδος"
    assert "".join(c.lower() for c in "ΟΔΟΣ") == "οδοσ"
    assert normalizers.Lowercase().normalize_str("ΟΔΟΣ") == "οδοσ"


@pytest.mark.parametrize(
    ("first", "second", "remove", "kept"),
    [
        # one at a time from the longer side, from the second when they are equal
        (5, 5, 3, (4, 3)),  # 5,5 -> 5,4 -> 4,4 -> 4,3
        (9, 2, 4, (5, 2)),
        (6, 4, 4, (3, 3)),  # 6,4 -> 5,4 -> 4,4 -> 4,3 -> 3,3
        (7, None, 3, (4, None)),
        (3, 3, 0, (3, 3)),
    ],
)
def test_transformers2_longest_first(first, second, remove, kept) -> None:
    assert kept_lengths(first, second, remove) == kept


def test_pairs_cut_as_run_classify_cut(tiny_mbert: Path) -> None:
    """Two sides of equal length with an odd number of sub-tokens to cut: transformers 2.x took
    the extra one from the second side; the token types follow the kept sub-tokens."""
    tokenizer = load_tokenizer(tiny_mbert)
    a, b = "the the the the the", "the the the the the"
    assert len(tokenizer(a, add_special_tokens=False)["input_ids"]) == 5
    encoded, cut = encode_pairs(tokenizer, [a], [b], 3 + 7, "transformers2")
    cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
    the = tokenizer.convert_tokens_to_ids("the")
    assert encoded["input_ids"] == [[cls, the, the, the, the, sep, the, the, the, sep]]
    assert encoded["token_type_ids"] == [[0, 0, 0, 0, 0, 0, 1, 1, 1, 1]]
    assert cut == [True]
    whole, cut = encode_pairs(tokenizer, [a], [b], 64, "transformers2")
    assert len(whole["input_ids"][0]) == 13 and cut == [False]


def test_tagged_sentences_close_as_run_tag_closed_them(tiny_xlmr: Path, tiny_mbert: Path) -> None:
    """run_tag.py's sep_token_extra: </s></s> after an XLM-R-shaped sentence under paper, one
    </s> under fast; mBERT's [SEP] alone under both. The window's room shrinks by one."""
    xlmr_paper, xlmr_fast = (
        load_tokenizer(tiny_xlmr),
        load_tokenizer(tiny_xlmr, tokenization="fast"),
    )
    mbert = load_tokenizer(tiny_mbert)
    assert separators(xlmr_paper, "paper") == [2, 2]
    assert separators(xlmr_fast, "fast") == [2]
    assert separators(mbert, "paper") == [mbert.sep_token_id]
    sentence = {"id": "s", "tokens": ["a"] * 20, "tags": ["O"] * 20}
    features = tokenize_tagging(xlmr_paper, [sentence], TASKS["panx"], 12, "first", "paper")
    assert all(ids[-2:] == [2, 2] and len(ids) <= 12 for ids in features["input_ids"])
    assert sum(len(p) for p in features["window_positions"]) == 20


def test_equal_scores_tie_in_64_bits_and_not_in_32(e5_model: Path) -> None:
    """Why the libraries differ on "xxxiii": the two segmentations ``▁xxx i ii`` and ``▁xxx ii
    i`` add the same three scores, equal in 64-bit floats; SentencePiece adds 32-bit floats,
    in which the order of the additions decides and ``ii`` first scores higher."""
    import json

    import numpy as np

    vocab = dict(json.loads((e5_model / "tokenizer.json").read_text())["model"]["vocab"])
    xxx, i, ii = (vocab[p] for p in ("\u2581xxx", "i", "ii"))
    assert (xxx + i) + ii == (xxx + ii) + i
    xxx32, i32, ii32 = np.float32(xxx), np.float32(i), np.float32(ii)
    assert (xxx32 + ii32) + i32 > (xxx32 + i32) + ii32


def test_unknown_piece_is_padding_under_paper(tiny_xlmr: Path, tiny_mbert: Path) -> None:
    """XTREME's XLMRobertaTokenizer (transformers before 2.6.0) gave a piece outside the
    vocabulary SentencePiece's unknown id 0 plus fairseq's offset 1: ``<pad>``. The literal
    ``<unk>`` keeps its id; fast tokenization and WordPiece keep ``<unk>``/``[UNK]``."""
    from mte.families.qa.squad_pieces import word_pieces

    paper, fast = load_tokenizer(tiny_xlmr), load_tokenizer(tiny_xlmr, tokenization="fast")
    assert (paper.pad_token_id, paper.unk_token_id) == (1, 3)
    unknown = "\u679d"  # 枝: not among the tiny shape's 1,500 pieces
    assert fast("x " + unknown, add_special_tokens=False)["input_ids"][-1] == 3
    assert paper("x " + unknown, add_special_tokens=False)["input_ids"][-1] == 1
    assert paper(["<unk>"], is_split_into_words=True, add_special_tokens=False)["input_ids"] == [3]
    # QA windows take the tokenizer's ids, not the pieces' text looked up again
    [(pieces, ids)] = word_pieces(paper, [unknown])
    assert ids[-1] == 1 and len(pieces) == len(ids)
    mbert = load_tokenizer(tiny_mbert)
    assert mbert("\u679d", add_special_tokens=False)["input_ids"] == [mbert.unk_token_id]


def test_word_longer_than_a_window(tiny_mbert: Path) -> None:
    """utils_preprocess.py makes a word of more sub-tokens than a window holds the unknown
    token (paper); fast keeps the sub-tokens that fit."""
    tokenizer = load_tokenizer(tiny_mbert)
    long_word = "zqxjkvwbfyghmp" * 2
    assert len(tokenizer(long_word, add_special_tokens=False)["input_ids"]) > 10
    sentence = {"id": "s", "tokens": ["a", long_word, "b"], "tags": ["O", "B-PER", "O"]}
    paper = tokenize_tagging(tokenizer, [sentence], TASKS["panx"], 12, "first", "paper")
    a, b = (tokenizer.convert_tokens_to_ids(t) for t in "ab")
    cls, sep, unk = tokenizer.cls_token_id, tokenizer.sep_token_id, tokenizer.unk_token_id
    assert paper["input_ids"] == [[cls, a, unk, b, sep]]
    fast = tokenize_tagging(tokenizer, [sentence], TASKS["panx"], 12, "first", "fast")
    # room 10 a window: "a" in the first, the word's first 10 sub-tokens, then "b"
    assert [len(ids) for ids in fast["input_ids"]] == [3, 12, 3]


def test_native_pieces_give_the_paper_tokenizers_ids(e5_model: Path, tiny_xlmr: Path) -> None:
    """Pairs, tagged words and sentences to embed from one pass of the SentencePiece library
    (NativePieces) equal the paper tokenizer's own steps on every demo text, every tricky
    string and cluster, special tokens written in the text, pieces outside the vocabulary,
    empty texts and words, and cuts at short and long lengths."""
    from mte.hub.sentencepiece import NATIVE_ATTRIBUTE, native_pieces
    from mte.hub.tiny_models import demo_texts
    from mte.modelling.embeddings import embedding_inputs

    texts = [
        *demo_texts(), *TRICKY, *CLUSTERS, *(f"vor {c}{c} nach" for c in CLUSTERS),
        "a <unk> b", "<s>x</s> y", "x <mask>", "\u679d\u679d", "", " ", "a  b",
    ]  # fmt: skip
    for folder in (e5_model, tiny_xlmr):
        native = load_tokenizer(folder)
        assert native_pieces(native) is not None
        own = load_tokenizer(folder)
        delattr(own, NATIVE_ATTRIBUTE)  # the tokenizer's own normaliser and segmentation steps
        seconds = texts[::-1]
        for max_length in (6, 24, 512):
            assert encode_pairs(native, texts, seconds, max_length, "transformers2") == (
                encode_pairs(own, texts, seconds, max_length, "transformers2")
            )
            assert encode_pairs(native, texts, None, max_length, "transformers2") == (
                encode_pairs(own, texts, None, max_length, "transformers2")
            )
            assert embedding_inputs(native, texts, "query: ", max_length, strip=True) == (
                embedding_inputs(own, texts, "query: ", max_length, strip=True)
            )
        sentences = [
            {"id": str(i), "tokens": text.split(" "), "tags": ["O"] * len(text.split(" "))}
            for i, text in enumerate(texts)
        ]
        for max_length in (8, 128):
            made = tokenize_tagging(native, sentences, TASKS["panx"], max_length, "first", "paper")
            assert made == tokenize_tagging(
                own, sentences, TASKS["panx"], max_length, "first", "paper"
            )
    # the e5 tokenizer's ids for a piece outside the vocabulary and a written <unk>: <pad>
    # (fairseq's offset), and the <unk> token itself
    e5 = load_tokenizer(e5_model)
    assert native_pieces(e5).encode(["a <unk>"])[0][-1] == e5.unk_token_id
    # fast tokenization and lower-cased input keep the tokenizer's own steps
    assert native_pieces(load_tokenizer(e5_model, tokenization="fast")) is None
    assert native_pieces(load_tokenizer(e5_model, do_lower_case=True)) is None


def test_pieces_in_protobufs_wire_format_worked_by_hand() -> None:
    """``ModelProto.SentencePiece`` bytes worked out from protobuf's encoding rules: a field's
    tag is ``number << 3 | wire type`` (1: length-delimited 2 -> 0x0a; 2: 32-bit 5 -> 0x15;
    3: varint 0 -> 0x18), a varint carries 7 bits a byte, low first, the high bit set on all
    but the last, and int32 -1 is written as the 64-bit two's complement (ten bytes)."""
    from mte.hub.sentencepiece import piece, varint_field

    # "▁a": U+2581 is e2 96 81 in UTF-8; -1.5 is 0xbfc00000 as a float32, little-endian;
    # type NORMAL is 1; the body is 2 + 4 + 1 + 4 + 1 + 1 = 13 (0x0d) bytes
    body = "0a 04 e2 96 81 61 15 00 00 c0 bf 18 01"
    assert piece("\u2581a", -1.5, 1) == bytes.fromhex("0a 0d " + body)
    # 200 bytes of text: length 200 = 0b1_1001000 -> c8 01; the body 1 + 2 + 200 + 1 + 4 +
    # 1 + 1 = 210 = 0b1_1010010 -> d2 01; score 0.0; type CONTROL is 3
    long_text = "x" * 200
    assert piece(long_text, 0.0, 3) == (
        bytes.fromhex("0a d2 01 0a c8 01") + long_text.encode() + bytes.fromhex("15 00000000 18 03")
    )
    # TrainerSpec's bos_id (field 41) set to -1: tag 41 << 3 = 328 -> c8 02
    assert varint_field(41, -1) == bytes.fromhex("c8 02 ff ff ff ff ff ff ff ff ff 01")
    assert varint_field(4, 250002) == bytes.fromhex("20 92 a1 0f")


def test_both_models_serialise_the_same_pieces_once(
    e5_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A paper tokenizer's two SentencePiece models (segmentation, native) are built from one
    serialisation of the pieces: each of e5-small's pieces is written once, not twice; and a
    model built from pieces passed in is the model built from the JSON itself."""
    import json

    from mte.hub import sentencepiece

    spec = json.loads((e5_model / "tokenizer.json").read_text())
    specials = ["<s>", "</s>", "<unk>", "<pad>", "<mask>"]
    serialised = sentencepiece.unigram_pieces(spec, specials)
    for build in (sentencepiece.segmentation_model, sentencepiece.native_model):
        assert build(spec, specials, serialised) == build(spec, specials)
    written = []
    original = sentencepiece.piece
    monkeypatch.setattr(
        sentencepiece, "piece", lambda *piece: written.append(piece) or original(*piece)
    )
    tokenizer = load_tokenizer(e5_model)
    assert sentencepiece.native_pieces(tokenizer) is not None
    assert len(written) == len(spec["model"]["vocab"])
