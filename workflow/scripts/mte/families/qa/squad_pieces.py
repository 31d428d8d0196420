"""Sub-tokens back to text, and words into sub-tokens, as XTREME's ``third_party/run_squad.py``
sees them (mte.families.qa.squad_windows, .squad_answers): how a tokenizer's pieces join into
text (its detokenizer: SentencePiece's metaspace, GPT-2's byte-level table, WordPiece's ``##``),
and each whitespace word of a context sub-tokenised on its own."""

from __future__ import annotations

import functools
from typing import Any

from mte.hub.decoders import is_decoder_tokenizer, running_text_pieces

METASPACE = "\u2581"


def detokenizer(tokenizer: Any) -> str:
    """How sub-tokens are joined back into text, as the legacy slow tokenizers'
    ``convert_tokens_to_string`` joins them: ``metaspace`` (SentencePiece: XLM-R, e5) or
    ``wordpiece`` (BERT); a decoder's: ``bytelevel`` (GPT-2's byte-level BPE: Qwen2, Llama 3)
    or ``metaspace_bytes`` (SentencePiece pieces with byte fallback: Llama 2, Gemma)."""
    if is_decoder_tokenizer(tokenizer):
        if tokenizer.convert_tokens_to_string(["\u0120a", "\u0120b", "c"]) == " a bc":
            return "bytelevel"
        joined = tokenizer.convert_tokens_to_string([f"{METASPACE}a", f"{METASPACE}b", "c"])
        if joined.strip() == "a bc":
            return "metaspace_bytes"
    if tokenizer.convert_tokens_to_string([f"{METASPACE}a", f"{METASPACE}b", "c"]) == "a bc":
        return "metaspace"
    if tokenizer.convert_tokens_to_string(["a", "##b", "c"]) == "ab c":
        return "wordpiece"
    raise ValueError(
        f"{type(tokenizer).__name__}: neither a SentencePiece nor a WordPiece tokenizer; the "
        "run_squad windows need one of them to map an answer's sub-tokens back to text"
    )


def detokenize(tokens: list[str], style: str) -> str:
    """XLMRobertaTokenizer's or BertTokenizer's ``convert_tokens_to_string`` (transformers 2.x);
    for a decoder's pieces, their bytes read as UTF-8 (a span may cut a character's bytes: the
    cut part becomes U+FFFD, as a decoder's own ``decode`` makes it)."""
    if style == "metaspace":
        return "".join(tokens).replace(METASPACE, " ").strip()
    if style == "bytelevel":
        table = _byte_level_table()
        raw = bytes(table[char] for token in tokens for char in token if char in table)
        return raw.decode("utf-8", errors="replace").strip()
    if style == "metaspace_bytes":
        raw = b"".join(
            bytes([int(token[3:5], 16)])
            if len(token) == 6 and token.startswith("<0x") and token.endswith(">")
            else token.replace(METASPACE, " ").encode("utf-8")
            for token in tokens
        )
        return raw.decode("utf-8", errors="replace").strip()
    return " ".join(tokens).replace(" ##", "").strip()


@functools.cache
def _byte_level_table() -> dict[str, int]:
    """GPT-2's byte-level alphabet read backwards: the byte each character stands for
    (transformers' own ``bytes_to_unicode``, inverted)."""
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    return {char: byte for byte, char in bytes_to_unicode().items()}


def word_pieces(tokenizer: Any, words: list[str]) -> list[tuple[list[str], list[int]]]:
    """Each word's sub-tokens and their ids, the word tokenised on its own as ``squad.py``
    tokenises it (a decoder's: as the running text cuts it, with its leading space,
    ``running_text_pieces``). The ids are the tokenizer's own, not looked up again from the
    sub-tokens' text: an unknown piece's text is its surface, which has no id of its own."""
    if not words:
        return []
    if is_decoder_tokenizer(tokenizer):
        ids = running_text_pieces(tokenizer, words)
        return [(tokenizer.convert_ids_to_tokens(piece_ids), piece_ids) for piece_ids in ids]
    if getattr(tokenizer, "is_fast", False):
        encoded = tokenizer(words, add_special_tokens=False)
        return [(encoded.tokens(i), encoded["input_ids"][i]) for i in range(len(words))]
    tokens = [tokenizer.tokenize(word) for word in words]
    return [(pieces, tokenizer.convert_tokens_to_ids(pieces)) for pieces in tokens]
