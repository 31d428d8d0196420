"""Decoder language models (Llama, Qwen2, Gemma, ...) under the encoders' protocol: what their
tokenizers lack and how their words are cut.

- A decoder is a model type that transformers knows as a causal language model and not as a
  masked one (BERT and XLM-R are both; Llama, Qwen2 and Gemma only the first). Its tokenizer has
  no ``[CLS]`` and no ``[SEP]``: a sequence is read at its last token, not its first.
- A pad token where the tokenizer has none (Llama's): the end-of-sequence token, else the
  unknown one. No new embedding row is trained: padded positions are masked out of attention,
  padding goes on the right, and transformers' decoder classifiers read the rightmost token that
  is not padding, which is the last real token because no input ends in the stand-in.
- A separator where the tokenizer's pair template puts nothing between two segments (Qwen2's):
  its end-of-sequence token, so that a question and a context, or a premise and a hypothesis,
  do not run into each other. Templates that already separate them (Llama's and Gemma's ``<s>``
  / ``<bos>`` before the second segment) are kept as their authors wrote them.
- Words are cut as running text cuts them (:func:`running_text_pieces`): a byte-level BPE
  (Qwen2, Llama 3) and SentencePiece without a dummy prefix (Gemma) attach the space before a
  word to the word's first sub-token (``Ġworld``, ``▁world``), which a word tokenised on its own
  would not have.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mte.io import read_json

log = logging.getLogger(__name__)


def is_decoder_model_type(model_type: str) -> bool:
    """Whether transformers knows ``model_type`` as a causal LM and not as a masked LM."""
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    return (
        model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
        and model_type not in MODEL_FOR_MASKED_LM_MAPPING_NAMES
    )


def model_config(model_dir: str | Path) -> dict[str, Any]:
    """A model folder's config.json, as a mapping (a malformed one is an error naming it)."""
    return read_json(Path(model_dir) / "config.json")


def model_type_of(model_dir: str | Path) -> str:
    """The model type its folder's config.json names."""
    return model_config(model_dir).get("model_type", "")


def is_decoder_config(config: Any) -> bool:
    """Whether a model config is a decoder language model's (see the module)."""
    return is_decoder_model_type(getattr(config, "model_type", ""))


def is_decoder_tokenizer(tokenizer: Any) -> bool:
    """A tokenizer with neither a classification nor a separator token: a decoder's."""
    return tokenizer.cls_token_id is None and tokenizer.sep_token_id is None


def complete_decoder_tokenizer(tokenizer: Any) -> Any:
    """Give a decoder's tokenizer a pad token and a pair separator where it has none (see the
    module); an encoder's tokenizer is returned unchanged."""
    if not is_decoder_tokenizer(tokenizer):
        return tokenizer
    if tokenizer.pad_token_id is None:
        stand_in = tokenizer.eos_token if tokenizer.eos_token is not None else tokenizer.unk_token
        if stand_in is None:
            raise ValueError(
                f"{type(tokenizer).__name__} has no pad, end-of-sequence or unknown token to pad "
                "with; set one in the model folder's tokenizer_config.json"
            )
        log.info("%s has no pad token: padding with %s", type(tokenizer).__name__, stand_in)
        tokenizer.pad_token = stand_in
    _separate_pairs(tokenizer)
    tokenizer.padding_side = "right"
    return tokenizer


def _separate_pairs(tokenizer: Any) -> None:
    """Put the end-of-sequence token between a pair's segments when the template puts nothing."""
    from tokenizers import processors

    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None or tokenizer.eos_token_id is None:
        return
    first = tokenizer("a", add_special_tokens=False)["input_ids"]
    pair = tokenizer("a", "b", add_special_tokens=True)["input_ids"]
    second = tokenizer("b", add_special_tokens=False)["input_ids"]
    at_first = next(i for i in range(len(pair)) if pair[i : i + len(first)] == first)
    after = at_first + len(first)
    if pair[after : after + len(second)] != second:
        return  # something separates them already
    single = tokenizer("a", add_special_tokens=True)["input_ids"]
    prefix = single[: single.index(first[0])] if first[0] in single else []
    specials = {tokenizer.convert_ids_to_tokens(i): i for i in [*prefix, tokenizer.eos_token_id]}
    opening = " ".join(tokenizer.convert_ids_to_tokens(prefix))
    eos = tokenizer.eos_token
    backend.post_processor = processors.TemplateProcessing(
        single=f"{opening} $A:0".strip(),
        pair=f"{opening} $A:0 {eos}:0 $B:1".strip(),
        special_tokens=list(specials.items()),
    )


def single_template(tokenizer: Any) -> tuple[list[int], list[int]]:
    """The special tokens a tokenizer puts before and after one sequence (a decoder's ``<s>``
    or nothing, and nothing after)."""
    first = tokenizer("a", add_special_tokens=False)["input_ids"]
    single = tokenizer("a")["input_ids"]
    at = next(i for i in range(len(single)) if single[i : i + len(first)] == first)
    return single[:at], single[at + len(first) :]


def running_text_pieces(tokenizer: Any, words: list[str]) -> list[list[int]]:
    """The sub-token ids of each word as the sentence ``" ".join(words)`` is cut: each sub-token
    belongs to the word of its first non-space character, a sub-token of spaces alone (a lone
    ``▁``) to the word after it. So each word keeps the leading-space convention of the
    tokenizer (``Ġword`` in byte-level BPE, ``▁word`` in SentencePiece). Where one sub-token
    spans two words (a vocabulary with pieces across spaces), those words are cut on their own
    instead, each after its space. A word that gets no sub-token gets the unknown token (or, with
    none, the end-of-sequence token), so that it has a position for its label."""
    if not words:
        return []
    text, word_of_char = "", []
    for index, word in enumerate(words):
        if index:
            text += " "
            word_of_char.append(None)
        text += word
        word_of_char += [index] * len(word)
    encoded = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
    pieces: list[list[int]] = [[] for _ in words]
    waiting: list[int] = []  # sub-tokens of spaces alone, for the next word
    for token_id, (start, end) in zip(encoded["input_ids"], encoded["offset_mapping"], strict=True):
        owners = {word_of_char[c] for c in range(start, end) if word_of_char[c] is not None}
        if not owners and start < len(text) and end <= start and word_of_char[start] is not None:
            owners = {word_of_char[start]}  # a zero-width piece (byte fallback's later bytes)
        if len(owners) > 1:
            return _word_by_word(tokenizer, words)
        if not owners:
            waiting.append(token_id)
            continue
        owner = owners.pop()
        pieces[owner] += [*waiting, token_id]
        waiting = []
    if waiting:
        pieces[-1] += waiting
    filler = _filler(tokenizer)
    return [word_pieces or [filler] for word_pieces in pieces]


def _word_by_word(tokenizer: Any, words: list[str]) -> list[list[int]]:
    """Each word cut on its own, after a space but the first."""
    texts = [word if index == 0 else f" {word}" for index, word in enumerate(words)]
    encoded = tokenizer(texts, add_special_tokens=False)["input_ids"]
    filler = _filler(tokenizer)
    return [ids or [filler] for ids in encoded]


def _filler(tokenizer: Any) -> int:
    """The id a word without sub-tokens gets: the unknown token's, else the end's."""
    return tokenizer.unk_token_id if tokenizer.unk_token_id is not None else tokenizer.eos_token_id
