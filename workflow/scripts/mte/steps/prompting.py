"""The in-context setting: one language's test set answered by a pretrained decoder that reads
k English demonstrations before each item; nothing is trained.

Choice tasks (classification, pairs, multiple choice) choose the answer whose verbalisation the
model finds likeliest (summed log-likelihood; ``label_norm``: per character, lm-evaluation-
harness's ``acc_norm``). Extractive QA takes the greedy continuation up to the prompt's stop
string. The records have the fields a fine-tune's predictions have, so the task's own scorer
reads them (docs/outputs.md)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np

from mte.errors import InputError, MteError
from mte.hub.decoders import is_decoder_config
from mte.hub.models import load_tokenizer
from mte.io import read_jsonl
from mte.modelling.device import describe, inference, placement
from mte.modelling.prompting import demonstrations, generate_answers, score_examples
from mte.tasks.spec import Task

log = logging.getLogger("mte")


def load_causal_lm(model_dir: str | Path) -> Any:
    """The pretrained decoder with its language-modelling head; an encoder is an error (a
    masked language model gives no left-to-right log-likelihood)."""
    from transformers import AutoConfig, AutoModelForCausalLM

    config = AutoConfig.from_pretrained(model_dir)
    if not is_decoder_config(config):
        raise MteError(
            f"{model_dir}: the in-context setting needs a decoder language model, and this is "
            f"a {config.model_type}; leave in-context out of the model's 'settings' "
            "(docs/decoders.md)"
        )
    return AutoModelForCausalLM.from_pretrained(model_dir)


def _probabilities(loglikelihoods: list[float]) -> list[float]:
    """The choices' log-likelihoods as a distribution over the choices (softmax)."""
    values = np.asarray(loglikelihoods, float)
    weights = np.exp(values - values.max())
    return [round(float(p), 6) for p in weights / weights.sum()]


def choice_records(task: Task, scored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Prediction records of scored choices: a multiple-choice task's chosen index, a
    classification task's label name (the prompt's choices follow the task's labels)."""
    named = task.family != "multiple_choice"

    def answer(index: int) -> Any:
        return task.labels[index] if named else index

    records = []
    for record in scored:
        probabilities = _probabilities(record["loglikelihoods"])
        records.append(
            {
                "id": record["id"],
                "label": answer(record["label"]),
                "label_norm": answer(record["label_norm"]),
                "loglikelihoods": [round(v, 6) for v in record["loglikelihoods"]],
                "probabilities": (
                    dict(zip(task.labels, probabilities, strict=True)) if named else probabilities
                ),
                "gold": answer(record["gold"]),
            }
        )
    return records


def _read_examples(path: str | Path, what: str) -> list[dict[str, Any]]:
    examples = read_jsonl(path)
    if not examples:
        raise InputError(path, None, f"no examples ({what})")
    return examples


def prompted_records(
    task: Task,
    model_dir: str | Path,
    demonstrations_path: str | Path,
    test_path: str | Path,
    options: dict[str, Any],
    seed: int,
    device: str = "auto",
    precision: str = "auto",
) -> list[dict[str, Any]]:
    """Answer every example of ``test_path`` (a task's canonical JSON lines) in context.

    ``demonstrations_path``: the English training data the ``shots`` demonstrations are drawn
    from with ``seed`` (the run's); ``options``: the config's ``in_context`` (shots,
    max_new_tokens, batch_size); ``device`` and ``precision``: the config's ``device`` and
    ``inference_precision``."""
    prompt = task.prompt
    if prompt is None:
        raise MteError(f"{task.title} has no prompt for the in-context setting")
    shots = options["shots"]
    train = _read_examples(demonstrations_path, "demonstrations") if shots else []
    try:
        demos = demonstrations(train, shots, seed)
    except ValueError as error:
        raise InputError(demonstrations_path, None, str(error)) from None
    examples = _read_examples(test_path, "test set")
    where, dtype = placement(device, precision)
    tokenizer = load_tokenizer(model_dir)
    model = load_causal_lm(model_dir).to(where)
    log.info(
        "%d examples, %d demonstrations (seed %d), on %s", len(examples), shots, seed,
        describe(where, dtype),
    )  # fmt: skip
    batch_size = options["batch_size"]
    with inference(where, dtype):
        if prompt.choices is not None:
            scored = score_examples(
                model, tokenizer, prompt, examples, demos, batch_size, progress=True
            )
            return choice_records(task, scored)
        answers = generate_answers(
            model, tokenizer, prompt, examples, demos, options["max_new_tokens"], batch_size,
            progress=True,
        )  # fmt: skip
    return [
        {"id": example["id"], "answer": answer, "score": None}
        for example, answer in zip(examples, answers, strict=True)
    ]
