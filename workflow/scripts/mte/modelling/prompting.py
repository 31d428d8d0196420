"""In-context transfer: a decoder reads k English demonstrations and a test item, and the
answer is the choice it finds likeliest. Nothing is trained.

A choice's score is the summed log-probability of its tokens after the context. The
length-normalised variant divides that by the choice's length in characters, as
lm-evaluation-harness's ``acc_norm`` does. Requests are tokenised as lm-evaluation-harness
tokenises them (``_encode_pair``):

- the context's trailing spaces move to the start of the continuation;
- the context and the context plus continuation are encoded whole, with the tokenizer's own
  special tokens (a ``<s>`` where it adds one);
- the continuation's tokens are those of the whole after the context's;
- an empty context is the tokenizer's ``<s>`` (else its end-of-sequence token).

So a word keeps the token boundary it has in running text. Parity with lm-evaluation-harness is
tested to 1e-5 per example (tests/unit/test_prompting.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from mte.modelling.batching import length_sorted_batches, pad_rows
from mte.modelling.device import model_device
from mte.runtime.logs import progress_bar
from mte.tasks.prompts import Prompt


def demonstrations(train: Sequence[dict[str, Any]], k: int, seed: int) -> list[dict[str, Any]]:
    """``k`` training examples drawn without replacement with the run's seed (0 allowed)."""
    if k > len(train):
        raise ValueError(f"{k} demonstrations asked for, the training set has {len(train)}")
    return random.Random(seed).sample(list(train), k)


def fewshot_context(prompt: Prompt, demos: Sequence[dict[str, Any]], example: dict) -> str:
    """The demonstrations, each with its right answer and the few-shot delimiter, then the
    example's text."""
    shots = "".join(
        prompt.text(demo)
        + prompt.target_delimiter
        + prompt.demonstration_answer(demo)
        + prompt.fewshot_delimiter
        for demo in demos
    )
    return shots + prompt.text(example)


def choice_requests(
    prompt: Prompt, demos: Sequence[dict[str, Any]], example: dict
) -> list[tuple[str, str]]:
    """One (context, continuation) request per choice of ``example``."""
    context = fewshot_context(prompt, demos, example)
    return [(context, prompt.target_delimiter + choice) for choice in prompt.choices(example)]


def _encode(tokenizer: Any, text: str) -> list[int]:
    """The tokenizer's own encoding, special tokens included, unless the text already opens
    with the ``<s>`` text."""
    bos = tokenizer.bos_token
    special = not (bos and text.startswith(bos))
    return tokenizer(text, add_special_tokens=special)["input_ids"]


def prefix_token_id(tokenizer: Any) -> int:
    """What an empty context is: ``<s>``, else the end-of-sequence token."""
    if tokenizer.bos_token_id is not None:
        return tokenizer.bos_token_id
    return tokenizer.eos_token_id


def encode_request(tokenizer: Any, context: str, continuation: str) -> tuple[list[int], list[int]]:
    """The context's and the continuation's token ids (see the module)."""
    if context == "":
        ids = tokenizer(continuation, add_special_tokens=False)["input_ids"]
        prefix = prefix_token_id(tokenizer)
        return ([prefix], ids) if ids[:1] != [prefix] else (ids[:1], ids[1:])
    spaces = len(context) - len(context.rstrip())
    if spaces:
        context, continuation = context[:-spaces], context[-spaces:] + continuation
    whole = _encode(tokenizer, context + continuation)
    context_ids = _encode(tokenizer, context)
    return context_ids, whole[len(context_ids) :]


def loglikelihoods(
    model: Any,
    tokenizer: Any,
    requests: Sequence[tuple[str, str]],
    batch_size: int,
    max_length: int | None = None,
    progress: bool = False,
) -> list[tuple[float, bool]]:
    """Per request, the continuation's summed log-probability and whether every one of its
    tokens is the model's greedy choice. A sequence longer than ``max_length`` + 1 keeps its
    last tokens (the context is cut on the left)."""
    max_length = max_length or getattr(model.config, "max_position_embeddings", 2048)
    encoded = [encode_request(tokenizer, *request) for request in requests]
    results: list[tuple[float, bool] | None] = [None] * len(encoded)
    whole = {"input_ids": [context + continuation for context, continuation in encoded]}
    batches = length_sorted_batches(whole, batch_size, longest_first=True)
    device = model_device(model)
    model.eval()
    with torch.inference_mode():
        bar = progress_bar(
            iterable=batches, desc="score choices", unit="batch", disable=not progress
        )
        for indices in bar:
            rows = [whole["input_ids"][i][-(max_length + 1) :][:-1] for i in indices]
            ids, mask = pad_rows(rows, 0)
            logits = model(input_ids=ids.to(device), attention_mask=mask.to(device)).logits
            logprobs = torch.log_softmax(logits.float(), dim=-1).cpu()
            for row, index in enumerate(indices):
                continuation = encoded[index][1]
                end = len(rows[row])
                scored = logprobs[row, end - len(continuation) : end]
                targets = torch.tensor(continuation)
                picked = scored.gather(1, targets[:, None]).squeeze(1)
                greedy = bool((scored.argmax(dim=-1) == targets).all())
                results[index] = (float(picked.sum()), greedy)
    return results  # type: ignore[return-value]


def choose(scores: Sequence[float], choices: Sequence[str]) -> tuple[int, int]:
    """The chosen answer by summed log-likelihood, and by log-likelihood per character of the
    choice (the first on a tie, as ``np.argmax``)."""
    scores = np.asarray(scores, float)
    lengths = np.array([float(len(choice)) for choice in choices])
    return int(np.argmax(scores)), int(np.argmax(scores / lengths))


def score_examples(
    model: Any,
    tokenizer: Any,
    prompt: Prompt,
    examples: Sequence[dict[str, Any]],
    demos: Sequence[dict[str, Any]],
    batch_size: int,
    progress: bool = False,
) -> list[dict[str, Any]]:
    """Per example: its id, each choice's log-likelihood, the chosen answer (``label``), the
    chosen answer by length-normalised log-likelihood (``label_norm``) and the right one."""
    requests, spans = [], []
    for example in examples:
        asked = choice_requests(prompt, demos, example)
        spans.append((len(requests), len(asked)))
        requests += asked
    scored = loglikelihoods(model, tokenizer, requests, batch_size, progress=progress)
    records = []
    for example, (start, count) in zip(examples, spans, strict=True):
        values = [scored[start + i][0] for i in range(count)]
        label, label_norm = choose(values, prompt.choices(example))
        records.append(
            {
                "id": example.get("id"),
                "loglikelihoods": values,
                "label": label,
                "label_norm": label_norm,
                "gold": prompt.answer(example),
            }
        )
    return records


def cut_at_stop(text: str, until: Sequence[str]) -> str:
    """``text`` up to the first of the stop strings (all of it where none occurs)."""
    cut = len(text)
    for stop in until:
        if stop and (at := text.find(stop)) != -1:
            cut = min(cut, at)
    return text[:cut]


def generate_answers(
    model: Any,
    tokenizer: Any,
    prompt: Prompt,
    examples: Sequence[dict[str, Any]],
    demos: Sequence[dict[str, Any]],
    max_new_tokens: int,
    batch_size: int,
    progress: bool = False,
) -> list[str]:
    """Per example, the model's greedy continuation of its few-shot context, cut at the first
    of the prompt's stop strings and stripped (what the official SQuAD and MLQA scorers then
    read as the predicted answer). Batches are padded on the left, so that every row continues
    from its own last token."""
    contexts = [fewshot_context(prompt, demos, example) for example in examples]
    encoded = [_encode(tokenizer, context) for context in contexts]
    pad = (
        tokenizer.pad_token_id if tokenizer.pad_token_id is not None else prefix_token_id(tokenizer)
    )
    answers: list[str | None] = [None] * len(contexts)
    batches = length_sorted_batches({"input_ids": encoded}, batch_size, longest_first=True)
    device = model_device(model)
    model.eval()
    with torch.inference_mode():
        bar = progress_bar(iterable=batches, desc="generate", unit="batch", disable=not progress)
        for indices in bar:
            width = max(len(encoded[i]) for i in indices)
            ids = torch.full((len(indices), width), pad, dtype=torch.long)
            mask = torch.zeros((len(indices), width), dtype=torch.long)
            for row, index in enumerate(indices):
                tokens = encoded[index]
                ids[row, width - len(tokens) :] = torch.tensor(tokens)
                mask[row, width - len(tokens) :] = 1
            generated = model.generate(
                input_ids=ids.to(device),
                attention_mask=mask.to(device),
                max_new_tokens=max_new_tokens,
                do_sample=False,
                pad_token_id=pad,
            )
            for row, index in enumerate(indices):
                text = tokenizer.decode(generated[row, width:], skip_special_tokens=True)
                answers[index] = cut_at_stop(text, prompt.until).strip()
    return answers  # type: ignore[return-value]
