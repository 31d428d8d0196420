"""What fine-tunes and predicts a task: a head. :class:`Head` holds what the families' heads
share (one labelled sequence per example, padded per batch, arg-max predictions written as
``{id, label}`` records); a family's head overrides what differs (tags per word, answer spans,
choices) and defines its dev score. A family's ``model_head(task)`` returns one."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import torch

from mte.hub.decoders import model_config
from mte.modelling.batching import collate, length_sorted_batches
from mte.modelling.decoder_heads import head_model_class
from mte.modelling.device import inference, model_device, to_device
from mte.modelling.first_token import first_token_last_layer
from mte.runtime.logs import progress_bar
from mte.tasks.spec import Task

log = logging.getLogger(__name__)


class Head:
    """One label per example (a sentence or sentence pair): the defaults every head starts from.

    ``task``: the task it fine-tunes and predicts (its dev metric selects the model)."""

    # the transformers Auto class of the model with this head
    auto_class: ClassVar[str] = "AutoModelForSequenceClassification"
    # the model outputs a prediction reads
    output_fields: ClassVar[tuple[str, ...]] = ("logits",)

    def __init__(self, task: Task) -> None:
        self.task = task

    def model_class(self, model_dir: str | Path) -> Any:
        """The class whose ``from_pretrained`` loads the model of ``model_dir`` under this head:
        transformers' ``auto_class``, or for a model type transformers gives no such head (a
        decoder's multiple choice) a stand-in of :mod:`mte.modelling.decoder_heads`."""
        return head_model_class(self.auto_class, model_dir)

    def label_config(self, labels: list[str]) -> dict[str, Any]:
        """The model config's label entries for ``labels`` (none by default)."""
        return {}

    def collate(
        self, features: dict[str, Any], indices: Sequence[int], pad_id: int
    ) -> dict[str, torch.Tensor]:
        """The model inputs of the examples at ``indices``, padded to the longest of them."""
        return collate(features, indices, pad_id)

    def length(self, input_ids: Any) -> int:
        """One example's length, which orders the inference batches."""
        return len(input_ids)

    def batch_targets(self, features: dict[str, Any], indices: Sequence[int]) -> dict:
        """The training targets of the examples at ``indices``."""
        return {"labels": torch.tensor([features["labels"][i] for i in indices])}

    def gold(self, features: dict[str, Any]) -> list:
        """The gold answers of the features, in their order."""
        return features["labels"]

    def outputs(
        self,
        model: Any,
        features: dict[str, Any],
        batch_size: int,
        pad_id: int,
        progress: bool = False,
        dtype: torch.dtype | None = None,
    ) -> Iterator[tuple[list[int], dict[str, torch.Tensor]]]:
        """Yield (indices, {field: fp32 CPU tensor}) over length-sorted batches, on the model's
        device, under inference mode (and autocast to ``dtype`` when given)."""
        model.eval()
        device = model_device(model)
        batches = length_sorted_batches(features, batch_size, self.length)
        with inference(device, dtype):
            bar = progress_bar(iterable=batches, desc="predict", unit="batch", disable=not progress)
            for indices in bar:
                batch = to_device(self.collate(features, indices, pad_id), device)
                outputs = model(**batch)
                yield (
                    indices,
                    {name: getattr(outputs, name).float().cpu() for name in self.output_fields},
                )

    def predict(
        self,
        model: Any,
        features: dict[str, Any],
        batch_size: int,
        pad_id: int,
        progress: bool = False,
        dtype: torch.dtype | None = None,
    ) -> list:
        """A prediction per example, in the features' order: each batch's outputs read into
        what :meth:`start` prepared, then :meth:`finish` gives the predictions."""
        collected = self.start(features)
        with first_token_last_layer(model):
            for indices, outputs in self.outputs(
                model, features, batch_size, pad_id, progress, dtype
            ):
                self.read(features, indices, outputs, collected)
        return self.finish(features, collected)

    def start(self, features: dict[str, Any]) -> list:
        """What a prediction collects batch by batch: a slot per input; and, per input, the
        model's probabilities, which the prediction file carries beside the answer."""
        self.probabilities: list = [None] * len(features["input_ids"])
        return [None] * len(features["input_ids"])

    def read(
        self,
        features: dict[str, Any],
        indices: list[int],
        outputs: dict[str, torch.Tensor],
        collected: list,
    ) -> None:
        """One batch's outputs into ``collected``: the arg-max of each input's logits (and
        their softmax into :attr:`probabilities`)."""
        for index, value in zip(indices, outputs["logits"].argmax(dim=-1).tolist(), strict=True):
            collected[index] = value
        for index, row in zip(indices, outputs["logits"].softmax(dim=-1).tolist(), strict=True):
            self.probabilities[index] = [round(p, PROBABILITY_DIGITS) for p in row]

    def finish(self, features: dict[str, Any], collected: list) -> list:
        """The predictions per example from what the batches collected (by default the same);
        and :attr:`confidence`, per example what the prediction file carries beside its
        prediction (here each input's probabilities; a family's head sets its own: each word's
        tag probability, a QA span's score)."""
        self.confidence: list = self.probabilities
        return collected

    def records(self, features: dict[str, Any], predicted: list) -> list[dict[str, Any]]:
        """The prediction file's records: per example its ``id``, the predicted ``label``, the
        model's ``probabilities`` (one per label or choice, in their order) and the ``gold``
        label where the features hold one (prediction files are read by people too; scoring
        reads the gold file, never this)."""
        gold = gold_labels(features, self.gold(features) if "labels" in features else None)
        return [
            {
                "id": example_id,
                "label": label,
                "probabilities": self.confidence[index],
                **({} if gold is None else {"gold": gold[index]}),
            }
            for index, (example_id, label) in enumerate(
                zip(features["ids"], predicted, strict=True)
            )
        ]

    def dev_score(self, features: dict[str, Any], predicted: list) -> float:
        """The task's selection metric of ``predicted`` on the dev features."""
        raise NotImplementedError(f"{type(self).__name__} defines no dev score")


# a prediction file's probabilities: enough digits to rank and calibrate, files a person can read
PROBABILITY_DIGITS = 6


def gold_labels(features: dict[str, Any], gold: list | None) -> list | None:
    """The gold labels by name (or index, without label names) for a prediction file; None
    when the features hold none (an unlabelled test set: every label negative)."""
    if gold is None or not gold or all(isinstance(g, int) and g < 0 for g in gold):
        return None
    names = features.get("label_names")
    if not names:
        return list(gold)
    return [names[g] if isinstance(g, int) and 0 <= g < len(names) else None for g in gold]


def named_labels(labels: list[str]) -> dict[str, Any]:
    """The model config's entries for a head with one output per label name."""
    return {
        "num_labels": len(labels),
        "id2label": dict(enumerate(labels)),
        "label2id": {label: i for i, label in enumerate(labels)},
    }


def load_with_new_head(
    head: Head,
    model_dir: str | Path,
    pad_id: int | None = None,
    head_from: str = "",
    **kwargs: Any,
) -> Any:
    """The pretrained encoder under the task head of ``head``'s family, the head initialised
    at random. transformers' load report (a coloured table listing the head as "MISSING") is
    replaced by one line saying why; encoder weights missing from the checkpoint are a warning.
    ``pad_id``: the features' padding id, which a config without one (Llama's) takes, so that
    a decoder's classifier can find each row's last token that is not padding. ``head_from``:
    where the head's trained weights come from next (a LoRA adapter's folder), which the log
    line then names instead of a random start."""
    from transformers.utils import logging as hf_logging

    if model_config(model_dir).get("pad_token_id") is None and pad_id is not None:
        kwargs["pad_token_id"] = pad_id
    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    try:
        model, info = head.model_class(model_dir).from_pretrained(
            model_dir, output_loading_info=True, **kwargs
        )
    finally:
        hf_logging.set_verbosity(verbosity)
    prefix = f"{model.base_model_prefix}."
    missing = sorted(info.get("missing_keys") or [])
    # the pooler (a dense layer over [CLS]) feeds the classifier and trains with it; checkpoints
    # of embedding models (multilingual-e5: mean pooling) carry none
    new_head = [key for key in missing if not key.startswith(prefix) or ".pooler." in key]
    absent = [key for key in missing if key not in new_head]
    if new_head and head_from:
        log.info("task head %s: its weights come from %s", type(model).__name__, head_from)
    elif new_head:
        log.info(
            "task head %s starts from random weights, as in every fine-tune (%s)",
            type(model).__name__,
            ", ".join(new_head),
        )
    if absent:
        log.warning(
            "%d encoder weights are not in %s and start from random weights: %s",
            len(absent),
            model_dir,
            ", ".join(absent),
        )
    return model
