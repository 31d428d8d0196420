"""SentencePiece models rebuilt from a fast tokenizer's unigram vocabulary, and the
segmentation of the SentencePiece library inside a fast tokenizer.

Why: a converted fast tokenizer (the tokenizers library's Unigram) and the SentencePiece library
that XTREME's 2020 ``XLMRobertaTokenizer`` ran hold the same pieces and scores, but their Viterbi
searches add scores in different precisions: SentencePiece in 32-bit floats, the tokenizers
library in 64-bit. Where two segmentations of a word have the same score (the same pieces in
another order: lower-cased "XXXIII" as ``▁xxx i ii`` or ``▁xxx ii i``) the 64-bit sums tie and
the 32-bit sums do not, and the two libraries return different pieces. Only the SentencePiece
library's own search gives its answer, so :func:`install_sentencepiece_segmentation` lets it cut
each sequence into pieces and leaves the fast tokenizer its normaliser, offsets and ids.

The model is written as a ``ModelProto`` in protobuf's wire format (no protobuf package needed).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import Any

NORMAL, UNKNOWN, CONTROL = 1, 2, 3
UNIGRAM = 1


# the varints below 128, one byte each: nearly every length, tag and type a model holds (a
# 250,000-piece model is written at every paper tokenizer's load, so each call counts)
_ONE_BYTE = [bytes([value]) for value in range(0x80)]
_FLOAT32 = struct.Struct("<f")


def _varint(value: int) -> bytes:
    if 0 <= value < 0x80:
        return _ONE_BYTE[value]
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


def bytes_field(number: int, data: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _field(number, 2, _varint(len(data)) + data)


def varint_field(number: int, value: int) -> bytes:
    """A varint protobuf field (negative values as 64-bit two's complement, as protobuf's
    int32 writes them)."""
    return _field(number, 0, _varint(value))


def piece(text: str, score: float, kind: int) -> bytes:
    """One ``ModelProto.SentencePiece`` (field 1 of the model): its text, 32-bit score and
    type."""
    encoded = text.encode("utf-8")
    # the tags of fields 1 (length-delimited), 2 (32-bit) and 3 (varint), written inline
    body = (
        b"\x0a" + _varint(len(encoded)) + encoded + b"\x15" + _FLOAT32.pack(score)
        + b"\x18" + _varint(kind)
    )  # fmt: skip
    return b"\x0a" + _varint(len(body)) + body


def model_proto(pieces: bytes, trainer_spec: bytes, normalizer_spec: bytes) -> bytes:
    """A serialised ``ModelProto``: its pieces already serialised in id order (each by
    :func:`piece`), the ``TrainerSpec`` and the ``NormalizerSpec`` given as serialised
    messages."""
    return pieces + bytes_field(2, trainer_spec) + bytes_field(3, normalizer_spec)


def segmentation_model(
    tokenizer_json: dict[str, Any],
    specials: Iterable[str],
    serialised: tuple[bytes, bytes] | None = None,
) -> bytes:
    """A SentencePiece model that segments text already normalised and marked as a converted
    fast tokenizer does (spaces as U+2581, a leading one): its unigram pieces and scores, the
    tokenizer's special tokens as control pieces (never matched in text), its unknown piece,
    and an identity normaliser that adds no prefix and leaves whitespace as it is.
    ``serialised``: :func:`unigram_pieces` of the same JSON and specials, where already made."""
    pieces, trainer = serialised or unigram_pieces(tokenizer_json, specials)
    # NormalizerSpec: name (1) identity, add_dummy_prefix (3), remove_extra_whitespaces (4) and
    # escape_whitespaces (5) off: the fast tokenizer's normaliser and Metaspace have done them
    normalizer = (
        bytes_field(1, b"identity") + varint_field(3, 0) + varint_field(4, 0) + varint_field(5, 0)
    )
    return model_proto(pieces, trainer, normalizer)


def unigram_pieces(tokenizer_json: dict[str, Any], specials: Iterable[str]) -> tuple[bytes, bytes]:
    """A unigram tokenizer JSON's pieces (text, score, type) in id order, its special tokens
    as control pieces, serialised; and the ``TrainerSpec`` that goes with them. A quarter of a
    second for 250,000 pieces: a caller that builds several models of one tokenizer (a paper
    tokenizer's segmentation and native models) serialises them once and passes them on."""
    model = tokenizer_json["model"]
    if model["type"] != "Unigram":
        raise ValueError(f"a {model['type']} model, not SentencePiece's unigram")
    unk_id = model.get("unk_id")
    if unk_id is None:
        raise ValueError("a unigram model without an unknown piece")
    vocab, controls = model["vocab"], set(specials)
    kinds = [
        UNKNOWN if index == unk_id else CONTROL if text in controls else NORMAL
        for index, (text, _) in enumerate(vocab)
    ]
    pieces = b"".join(
        piece(text, float(score), kind) for (text, score), kind in zip(vocab, kinds, strict=True)
    )
    # TrainerSpec: model_type (3) UNIGRAM, vocab_size (4), unk_id (40); no bos, eos or pad
    # (41-43 set to -1), which would otherwise be checked against ids 1 and 2
    trainer = (
        varint_field(3, UNIGRAM)
        + varint_field(4, len(vocab))
        + varint_field(40, unk_id)
        + varint_field(41, -1)
        + varint_field(42, -1)
        + varint_field(43, -1)
    )
    return pieces, trainer


class SentencePieceSegmentation:
    """A custom pre-tokenizer step after Metaspace: it joins the sequence's words (each
    starting with U+2581) back into the string SentencePiece would search, lets the
    SentencePiece library segment it, and splits each word at the pieces' boundaries, so that
    the Unigram model after it sees one piece at a time and returns it."""

    def __init__(self, proto: bytes) -> None:
        import sentencepiece

        self.processor = sentencepiece.SentencePieceProcessor(model_proto=proto)
        # texts repeat (words above all, where input comes pre-split): their cuts are kept
        self.cache: dict[str, tuple[int, ...]] = {}

    def cuts(self, text: str) -> tuple[int, ...]:
        """Where SentencePiece's pieces of ``text`` end, in characters (its end included)."""
        found = self.cache.get(text)
        if found is None:
            pieces = self.processor.encode(text, out_type=str)
            # never seen: were the pieces not the text, the words stay whole, not cut wrong
            ends, at = [], 0
            for piece in pieces:
                at += len(piece)
                ends.append(at)
            found = tuple(ends) if "".join(pieces) == text else (len(text),)
            if len(self.cache) < 1_000_000:
                self.cache[text] = found
        return found

    def pre_tokenize(self, pretok: Any) -> None:
        words = [split for split, _, _ in pretok.get_splits()]
        ends = self.cuts("".join(words))
        start, next_end = 0, 0

        def cut(_: int, normalized: Any) -> list[Any]:
            # the words come in order and the ends ascend: one walk over both, not a scan of
            # every end per word (a whole text of words would be quadratic)
            nonlocal start, next_end
            length = len(str(normalized))
            while next_end < len(ends) and ends[next_end] <= start:
                next_end += 1
            inner = []
            while next_end < len(ends) and ends[next_end] < start + length:
                inner.append(ends[next_end] - start)
                next_end += 1
            bounds = [0, *inner, length]
            start += length
            return [normalized[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]

        pretok.split(cut)


def install_sentencepiece_segmentation(
    tokenizer: Any, spec: dict[str, Any], serialised: tuple[bytes, bytes] | None = None
) -> bool:
    """Make a SentencePiece-converted fast tokenizer (Unigram model, Metaspace pre-tokenizer)
    cut its text as the SentencePiece library does; returns False, changing nothing, for any
    other tokenizer. ``spec`` is the tokenizer's JSON (``backend_tokenizer.to_str()``, read
    once by the caller for every step it takes), ``serialised`` its :func:`unigram_pieces`
    where already made. The tokenizer keeps working as a fast one (offsets, word ids,
    batches); only its pre-tokenizer holds Python code, so it can no longer be saved or
    pickled."""
    from tokenizers import pre_tokenizers

    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None or "Metaspace(" not in repr(backend.pre_tokenizer):
        return False
    if spec["model"]["type"] != "Unigram":
        return False
    model = segmentation_model(spec, tokenizer.all_special_tokens, serialised)
    step = SentencePieceSegmentation(model)
    backend.pre_tokenizer = pre_tokenizers.Sequence(
        [backend.pre_tokenizer, pre_tokenizers.PreTokenizer.custom(step)]
    )
    return True


def normalizer_spec(charsmap: bytes, remove_extra_whitespaces: bool = False) -> bytes:
    """A ``NormalizerSpec`` that applies ``charsmap``: no dummy prefix, whitespace not escaped
    (Metaspace does those), and left as it is unless ``remove_extra_whitespaces`` (XLM-R's
    model's own setting, which the fast tokenizer's space steps stand for)."""
    return (
        bytes_field(1, b"nmt_nfkc")
        + bytes_field(2, charsmap)
        + varint_field(3, 0)
        + varint_field(4, int(remove_extra_whitespaces))
        + varint_field(5, 0)
    )


def precompiled_charsmap(spec: dict[str, Any]) -> bytes | None:
    """The ``precompiled_charsmap`` of a tokenizer JSON's normaliser (alone or in a
    Sequence), or None."""
    import base64

    node = spec.get("normalizer") or {}
    steps = node.get("normalizers", [node]) if node.get("type") == "Sequence" else [node]
    for step in steps:
        if step and step.get("type") == "Precompiled":
            return base64.b64decode(step["precompiled_charsmap"])
    return None


class SentencePieceClusters:
    """A custom normaliser step before a fast tokenizer's ``Precompiled`` one, so that the two
    normalise as the SentencePiece library does.

    Why: ``Precompiled`` (the tokenizers library) maps a short grapheme cluster (under 6
    bytes) whole: it looks up the cluster's longest mapped prefix and replaces the whole
    cluster by that prefix's mapping, dropping what follows it (U+FEFB U+064E, the lam-alef
    ligature with a fatha, becomes lam alef without it; huggingface/tokenizers issues 2116 and
    2334). SentencePiece maps the prefix and goes on with the rest. Each such cluster of a text
    is replaced here by SentencePiece's normalisation of it, which ``Precompiled`` then leaves
    as it is; the replacement keeps the fast tokenizer's alignments (its offsets)."""

    def __init__(self, charsmap: bytes) -> None:
        import regex
        import sentencepiece
        from tokenizers import normalizers

        self.clusters = regex.compile(r"\X")
        self.precompiled = normalizers.Precompiled(charsmap)
        self.sentencepiece = sentencepiece.SentencePieceNormalizer(
            normalizer_spec=normalizer_spec(charsmap)
        )
        self.cache: dict[str, tuple[Any, str] | None] = {}

    def repair(self, cluster: str) -> tuple[Any, str] | None:
        """Where ``Precompiled`` maps ``cluster`` otherwise than SentencePiece: a pattern of
        the cluster's longest mapped prefix (followed by the rest of the cluster) and
        SentencePiece's mapping of that prefix; the rest keeps its own characters and
        alignments, and ``Precompiled``, which then sees the mapped prefix, goes on with it."""
        if cluster in self.cache:
            return self.cache[cluster]
        from tokenizers import Regex

        found = None
        if self.precompiled.normalize_str(cluster) != self.sentencepiece.normalize(cluster):
            for cut in range(len(cluster) - 1, 0, -1):
                prefix, rest = cluster[:cut], cluster[cut:]
                mapped = self.sentencepiece.normalize(prefix)
                if mapped != prefix:
                    pattern = Regex(f"{regex_escape(prefix)}(?={regex_escape(rest)})")
                    found = (pattern, mapped)
                    break
            else:
                found = (cluster, self.sentencepiece.normalize(cluster))
        if len(self.cache) < 1_000_000:
            self.cache[cluster] = found
        return found

    def normalize(self, normalized: Any) -> None:
        text = normalized.normalized  # (str() of the tokenizers library's reference is not it)
        if text.isascii():
            return
        for cluster in dict.fromkeys(self.clusters.findall(text)):
            # the clusters Precompiled maps whole: more than one character, under 6 bytes
            if len(cluster) > 1 and len(cluster.encode("utf-8")) < 6:
                repair = self.repair(cluster)
                if repair is not None:
                    normalized.replace(*repair)


def regex_escape(text: str) -> str:
    """``text`` as a literal in an Oniguruma pattern (the tokenizers library's ``Regex``)."""
    return "".join(f"\\x{{{ord(c):x}}}" for c in text)


def install_sentencepiece_clusters(tokenizer: Any, spec: dict[str, Any]) -> bool:
    """Put :class:`SentencePieceClusters` before the normaliser of a fast tokenizer whose
    normaliser has a ``Precompiled`` charsmap; returns False, changing nothing, for any other.
    Like the segmentation step, it holds Python code: the tokenizer is no longer saved or
    pickled."""
    from tokenizers import normalizers

    backend = getattr(tokenizer, "backend_tokenizer", None)
    charsmap = precompiled_charsmap(spec)
    if backend is None or charsmap is None:
        return False
    step = normalizers.Normalizer.custom(SentencePieceClusters(charsmap))
    existing = [backend.normalizer] if backend.normalizer is not None else []
    backend.normalizer = normalizers.Sequence([step, *existing])
    return True


# how a paper tokenizer holds its native pieces (install_native_pieces, native_pieces)
NATIVE_ATTRIBUTE = "mte_native_pieces"
# tokenizer.json's normaliser step after the charsmap in a converted XLM-R tokenizer
COLLAPSE_SPACES = {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}


def native_model(
    spec: dict[str, Any],
    specials: Iterable[str],
    serialised: tuple[bytes, bytes] | None = None,
) -> bytes | None:
    """A whole SentencePiece model equal to paper tokenization of a converted XLM-R-style fast
    tokenizer (``spec``, its JSON): its unigram pieces and scores in the fast tokenizer's id
    order (so the library's ids are the tokenizer's), its special tokens as control pieces, and
    the normaliser the fast steps stand for: the charsmap (``nmt_nfkc``), a dummy prefix,
    extra whitespace removed, spaces escaped as U+2581. None for any other layout.
    ``serialised``: :func:`unigram_pieces` of the same JSON and specials, where already made."""
    normalizer = spec.get("normalizer") or {}
    steps = normalizer.get("normalizers", [normalizer])
    pre_tokenizer = spec.get("pre_tokenizer") or {}
    splits = pre_tokenizer.get("pretokenizers", [pre_tokenizer])
    charsmap = precompiled_charsmap(spec)
    # the two layouts of a converted XLM-R tokenizer: tokenizer.json's (the charsmap, then runs
    # of spaces collapsed; Metaspace) and the one transformers 5's XLMRobertaTokenizer builds
    # (the charsmap alone; whitespace split, then Metaspace)
    layout = (
        spec["model"]["type"] == "Unigram"
        and spec["model"].get("unk_id") is not None
        and charsmap is not None
        and (
            [step.get("type") for step in steps] == ["Precompiled"]
            or (
                [step.get("type") for step in steps] == ["Precompiled", "Replace"]
                and steps[1] == COLLAPSE_SPACES
            )
        )
        and [step.get("type") for step in splits[:-1]] in ([], ["WhitespaceSplit"])
        and splits[-1].get("type") == "Metaspace"
        and splits[-1].get("replacement") == "\u2581"
        and splits[-1].get("prepend_scheme") == "always"
    )
    if not layout:
        return None
    pieces, trainer = serialised or unigram_pieces(spec, specials)
    # the normaliser of the model XLM-R was trained with, which the fast steps stand for
    normalizer_message = (
        bytes_field(1, b"nmt_nfkc")
        + bytes_field(2, charsmap)
        + varint_field(3, 1)  # add_dummy_prefix
        + varint_field(4, 1)  # remove_extra_whitespaces
        + varint_field(5, 1)  # escape_whitespaces
    )
    return model_proto(pieces, trainer, normalizer_message)


class NativePieces:
    """Paper tokenization in one pass of the SentencePiece library (C++, on ``threads``
    threads for a batch): the ids of each text without special tokens, equal to the paper
    tokenizer's (its Python normaliser and segmentation steps exist to make the fast tokenizer
    do what this library does), at the fast tokenizer's speed or better.

    A text holding a special token's string (``<s>``, ``<unk>``, ``<mask>``...), which the
    tokenizer matches whole before normalising, goes through the tokenizer itself. A piece
    outside the vocabulary gets ``unknown_id`` (``<pad>``'s under fairseq's layout:
    :func:`mte.hub.models.fairseq_unknown_as_padding`)."""

    def __init__(
        self, proto: bytes, tokenizer: Any, unknown_id: int, threads: int | None = None
    ) -> None:
        import os

        import sentencepiece

        self.processor = sentencepiece.SentencePieceProcessor(model_proto=proto)
        self.tokenizer = tokenizer
        self.model_unknown = self.processor.unk_id()
        self.unknown_id = unknown_id
        self.specials = [token for token in tokenizer.all_special_tokens if token]
        self.threads = threads or min(os.cpu_count() or 1, 8)

    def encode(self, texts: list[str]) -> list[list[int]]:
        """Each text's ids, as ``tokenizer(text, add_special_tokens=False)`` gives them, and
        as ``tokenizer(texts, is_split_into_words=True, ...)`` gives each word's."""
        # many threads pay only for a batch; a tagged sentence's words come a sentence at a time
        threads = self.threads if len(texts) >= 256 else 1
        encoded = self.processor.encode(texts, out_type=int, num_threads=threads)
        if self.model_unknown != self.unknown_id:
            unknown = self.model_unknown
            encoded = [
                [self.unknown_id if i == unknown else i for i in ids] if unknown in ids else ids
                for ids in encoded
            ]
        special = [
            index
            for index, text in enumerate(texts)
            if "<" in text and any(token in text for token in self.specials)
        ]
        if special:
            own = self.tokenizer([texts[i] for i in special], add_special_tokens=False)
            for index, ids in zip(special, own["input_ids"], strict=True):
                encoded[index] = list(ids)
        return encoded


def install_native_pieces(
    tokenizer: Any,
    spec: dict[str, Any],
    unknown_id: int,
    serialised: tuple[bytes, bytes] | None = None,
) -> bool:
    """Give a paper tokenizer of XLM-R's layout its :class:`NativePieces` (read back with
    :func:`native_pieces`); returns False, changing nothing, for any other. ``spec``: the
    tokenizer's JSON as loaded, before any paper step; ``serialised`` its
    :func:`unigram_pieces`, where already made."""
    proto = native_model(spec, tokenizer.all_special_tokens, serialised)
    if proto is None:
        return False
    setattr(tokenizer, NATIVE_ATTRIBUTE, NativePieces(proto, tokenizer, unknown_id))
    return True


def native_pieces(tokenizer: Any) -> NativePieces | None:
    """The tokenizer's native pieces, where paper tokenization installed them."""
    return getattr(tokenizer, NATIVE_ATTRIBUTE, None)
