"""What differs between task families when training and predicting: the model class, the
shape of the labels, how predictions are read back, and the dev score. A head is an object with
``auto_class``, ``label_config``, ``batch_targets``, ``predict``, ``gold``, ``records`` and
``dev_score``, and may define ``collate(features, indices, pad_id)`` for its training batches
(default: :func:`mte.batching.collate`, one sequence per example); a task family's
``model_head`` returns it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import torch

from mte.batching import collate, length_sorted_batches
from mte.device import inference, model_device, to_device
from mte.first_token import first_token_last_layer
from mte.logs import progress_bar
from mte.tasks import get_task

log = logging.getLogger(__name__)


def _outputs(
    model: Any,
    features: dict[str, Any],
    batch_size: int,
    pad_id: int,
    progress: bool,
    dtype: torch.dtype | None = None,
    fields: tuple[str, ...] = ("logits",),
    collate_batch: Callable[[dict[str, Any], Sequence[int], int], dict] = collate,
    length: Callable[[Any], int] = len,
) -> Iterator[tuple[list[int], dict[str, torch.Tensor]]]:
    """Yield (indices, {field: fp32 CPU tensor}) over length-sorted batches, on the model's
    device, under inference mode (and autocast to ``dtype`` when given). A head whose examples
    are not one sequence each passes its own ``collate_batch`` and ``length``."""
    model.eval()
    device = model_device(model)
    batches = length_sorted_batches(features, batch_size, length)
    with inference(device, dtype):
        bar = progress_bar(iterable=batches, desc="predict", unit="batch", disable=not progress)
        for indices in bar:
            outputs = model(**to_device(collate_batch(features, indices, pad_id), device))
            yield indices, {name: getattr(outputs, name).float().cpu() for name in fields}


def _run(model: Any, features: dict[str, Any], batch_size: int, pad_id: int, progress, dtype):
    """Yield (indices, logits) over length-sorted batches."""
    for indices, outputs in _outputs(model, features, batch_size, pad_id, progress, dtype):
        yield indices, outputs["logits"]


def _dev_metric(features: dict[str, Any], gold: list, predicted: list) -> float:
    from mte.metrics import sentence_metrics

    task = get_task(features["task"])
    return sentence_metrics(task, gold, predicted)[task.dev_metric]


class ClassificationHead:
    """One label per example (sentence or sentence pair)."""

    auto_class = "AutoModelForSequenceClassification"

    def batch_targets(self, features: dict[str, Any], indices: Sequence[int]) -> dict:
        return {"labels": torch.tensor([features["labels"][i] for i in indices])}

    def predict(
        self,
        model: Any,
        features: dict[str, Any],
        batch_size: int,
        pad_id: int,
        progress: bool = False,
        dtype: torch.dtype | None = None,
    ) -> list[int]:
        """Arg-max label index per example, in the features' order."""
        predictions = [0] * len(features["input_ids"])
        with first_token_last_layer(model):
            for indices, logits in _run(model, features, batch_size, pad_id, progress, dtype):
                for index, label in zip(indices, logits.argmax(dim=-1).tolist(), strict=True):
                    predictions[index] = label
        return predictions

    def gold(self, features: dict[str, Any]) -> list[int]:
        return features["labels"]

    def records(self, features: dict[str, Any], predicted: list[int]) -> list[dict[str, Any]]:
        names = features["label_names"]
        return [
            {"id": example_id, "label": names[label]}
            for example_id, label in zip(features["ids"], predicted, strict=True)
        ]

    def label_config(self, labels: list[str]) -> dict[str, Any]:
        return {
            "num_labels": len(labels),
            "id2label": dict(enumerate(labels)),
            "label2id": {label: i for i, label in enumerate(labels)},
        }

    def dev_score(self, features: dict[str, Any], predicted: list[int]) -> float:
        """The task's selection metric (accuracy; CoLA's MCC; MRPC's and QQP's F1)."""
        names = features["label_names"]
        gold = [names[i] for i in self.gold(features)]
        return _dev_metric(features, gold, [names[i] for i in predicted])


class RegressionHead:
    """One real number per sentence pair (STS-B), trained with mean squared error."""

    auto_class = "AutoModelForSequenceClassification"

    def batch_targets(self, features: dict[str, Any], indices: Sequence[int]) -> dict:
        return {"labels": torch.tensor([features["labels"][i] for i in indices])}

    def label_config(self, labels: list[str]) -> dict[str, Any]:
        return {"num_labels": 1, "problem_type": "regression"}

    def predict(
        self,
        model: Any,
        features: dict[str, Any],
        batch_size: int,
        pad_id: int,
        progress: bool = False,
        dtype: torch.dtype | None = None,
    ) -> list[float]:
        predictions = [0.0] * len(features["input_ids"])
        with first_token_last_layer(model):
            for indices, logits in _run(model, features, batch_size, pad_id, progress, dtype):
                for index, value in zip(indices, logits[:, 0].tolist(), strict=True):
                    predictions[index] = value
        return predictions

    def gold(self, features: dict[str, Any]) -> list[float]:
        return features["labels"]

    def records(self, features: dict[str, Any], predicted: list[float]) -> list[dict[str, Any]]:
        return [
            {"id": example_id, "score": value}
            for example_id, value in zip(features["ids"], predicted, strict=True)
        ]

    def dev_score(self, features: dict[str, Any], predicted: list[float]) -> float:
        return _dev_metric(features, self.gold(features), predicted)


class TaggingHead:
    """One tag per word, read from the sub-token that carries the word's label."""

    auto_class = "AutoModelForTokenClassification"
    label_config = ClassificationHead.label_config

    def batch_targets(self, features: dict[str, Any], indices: Sequence[int]) -> dict:
        rows = [features["labels"][i] for i in indices]
        labels = torch.full((len(rows), max(len(r) for r in rows)), -100, dtype=torch.long)
        for r, row in enumerate(rows):
            labels[r, : len(row)] = torch.tensor(row, dtype=torch.long)
        return {"labels": labels}

    def predict(
        self,
        model: Any,
        features: dict[str, Any],
        batch_size: int,
        pad_id: int,
        progress: bool = False,
        dtype: torch.dtype | None = None,
    ) -> list[list[int]]:
        """Tag indices per word of every example; windows are joined back in order."""
        window_tags: list[list[int]] = [[] for _ in features["input_ids"]]
        for indices, logits in _run(model, features, batch_size, pad_id, progress, dtype):
            best = logits.argmax(dim=-1)
            for row, index in enumerate(indices):
                positions = torch.tensor(features["window_positions"][index], dtype=torch.long)
                window_tags[index] = best[row, positions].tolist()
        tags: list[list[int]] = [[] for _ in features["ids"]]
        for index, example in enumerate(features["window_example"]):
            tags[example].extend(window_tags[index])
        return tags

    def gold(self, features: dict[str, Any]) -> list[list[int]]:
        return features["word_labels"]

    def records(self, features: dict[str, Any], predicted: list[list[int]]) -> list[dict]:
        names = features["label_names"]
        return [
            {"id": example_id, "tags": [names[t] for t in tags]}
            for example_id, tags in zip(features["ids"], predicted, strict=True)
        ]

    def dev_score(self, features: dict[str, Any], predicted: list[list[int]]) -> float:
        from mte.metrics import tagging_metrics

        names = features["label_names"]
        task = get_task(features["task"])
        gold = [[names[t] for t in tags] for tags in self.gold(features)]
        guess = [[names[t] for t in tags] for tags in predicted]
        return tagging_metrics(task, gold, guess)[task.dev_metric]


class QuestionAnsweringHead:
    """An answer span per question: the best start/end over all windows of its context."""

    auto_class = "AutoModelForQuestionAnswering"
    n_best = 20
    max_answer_tokens = 30

    def label_config(self, labels: list[str]) -> dict[str, Any]:
        return {}  # spans, not labels

    def batch_targets(self, features: dict[str, Any], indices: Sequence[int]) -> dict:
        return {
            "start_positions": torch.tensor([features["start_positions"][i] for i in indices]),
            "end_positions": torch.tensor([features["end_positions"][i] for i in indices]),
        }

    def predict(
        self,
        model: Any,
        features: dict[str, Any],
        batch_size: int,
        pad_id: int,
        progress: bool = False,
        dtype: torch.dtype | None = None,
    ) -> list[str]:
        """One answer string per question (empty when no window offers a valid span)."""
        best: list[tuple[float, str]] = [(float("-inf"), "") for _ in features["ids"]]
        spans = ("start_logits", "end_logits")
        for indices, outputs in _outputs(
            model, features, batch_size, pad_id, progress, dtype, spans
        ):
            for row, window in enumerate(indices):
                example = features["window_example"][window]
                offsets = features["offsets"][window]
                starts = outputs["start_logits"][row, : len(offsets)]
                ends = outputs["end_logits"][row, : len(offsets)]
                span = self._best_span(starts, ends, offsets)
                if span is not None and span[0] > best[example][0]:
                    score, first, last = span
                    context = features["contexts"][example]
                    best[example] = (score, context[offsets[first][0] : offsets[last][1]].strip())
        return [answer for _, answer in best]

    def _best_span(self, starts: torch.Tensor, ends: torch.Tensor, offsets: list):
        """(score, first token, last token) of the best valid span among the n-best starts
        and ends of one window: both in the context, end not before start, at most
        ``max_answer_tokens`` long."""
        in_context = torch.tensor([o is not None for o in offsets])
        starts = starts.masked_fill(~in_context, float("-inf"))
        ends = ends.masked_fill(~in_context, float("-inf"))
        k = min(self.n_best, int(in_context.sum()))
        if k == 0:
            return None
        top_starts = torch.topk(starts, k).indices.tolist()
        top_ends = torch.topk(ends, k).indices.tolist()
        found = None
        for first in top_starts:
            for last in top_ends:
                if last < first or last - first + 1 > self.max_answer_tokens:
                    continue
                score = float(starts[first] + ends[last])
                if found is None or score > found[0]:
                    found = (score, first, last)
        return found

    def gold(self, features: dict[str, Any]) -> list[list[str]]:
        return features["answers"]

    def records(self, features: dict[str, Any], predicted: list[str]) -> list[dict[str, Any]]:
        return [
            {"id": example_id, "answer": answer}
            for example_id, answer in zip(features["ids"], predicted, strict=True)
        ]

    def dev_score(self, features: dict[str, Any], predicted: list[str]) -> float:
        from mte.qa_metrics import qa_normalizer, qa_scores

        task = get_task(features["task"])
        normalize = qa_normalizer(task, task.train_language)
        return qa_scores(predicted, self.gold(features), normalize)[task.dev_metric]


def head_for(features: dict[str, Any]) -> Any:
    """The head of the features' task family."""
    from mte.families import family_named

    return family_named(features["family"]).model_head()


def auto_model_class(head: Any) -> Any:
    import transformers

    return getattr(transformers, head.auto_class)


def load_with_new_head(head: Any, model_dir: str | Path, **kwargs: Any) -> Any:
    """The pretrained encoder under the task head of ``head``'s family, the head initialised
    at random. transformers' load report (a coloured table listing the head as "MISSING") is
    replaced by one line saying why; encoder weights missing from the checkpoint are a warning.
    """
    from transformers.utils import logging as hf_logging

    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    try:
        model, info = auto_model_class(head).from_pretrained(
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
    if new_head:
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
