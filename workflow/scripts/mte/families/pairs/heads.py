"""The heads of sentence(-pair) tasks: a label per example (classification) or a real number
(regression, STS-B); the dev score is the task's selection metric."""

from __future__ import annotations

from typing import Any

from mte.families.pairs.metrics import sentence_metrics
from mte.modelling.heads import Head, named_labels
from mte.stats.metrics import Confusion, Moments


class ClassificationHead(Head):
    """One label per example (sentence or sentence pair)."""

    def records(self, features: dict[str, Any], predicted: list[int]) -> list[dict[str, Any]]:
        """``{id, label, probabilities, gold}``, the probabilities by label name."""
        names = features["label_names"]
        records = super().records(features, [names[label] for label in predicted])
        for record in records:
            record["probabilities"] = dict(zip(names, record["probabilities"], strict=True))
        return records

    def label_config(self, labels: list[str]) -> dict[str, Any]:
        return named_labels(labels)

    def dev_score(self, features: dict[str, Any], predicted: list[int]) -> float:
        """The task's selection metric (accuracy; CoLA's MCC; MRPC's and QQP's F1)."""
        names = features["label_names"]
        gold = [names[i] for i in self.gold(features)]
        statistics = Confusion(self.task.labels)
        guess = [names[i] for i in predicted]
        return sentence_metrics(self.task, statistics, gold, guess)[self.task.dev_metric]


class RegressionHead(Head):
    """One real number per sentence pair (STS-B), trained with mean squared error."""

    def label_config(self, labels: list[str]) -> dict[str, Any]:
        return {"num_labels": 1, "problem_type": "regression"}

    def read(self, features, indices, outputs, collected: list) -> None:
        for index, value in zip(indices, outputs["logits"][:, 0].tolist(), strict=True):
            collected[index] = value

    def records(self, features: dict[str, Any], predicted: list[float]) -> list[dict[str, Any]]:
        """``{id, score, gold}``: the predicted and the gold similarity."""
        gold = self.gold(features) if "labels" in features else None
        return [
            {"id": example_id, "score": value, **({} if gold is None else {"gold": gold[i]})}
            for i, (example_id, value) in enumerate(zip(features["ids"], predicted, strict=True))
        ]

    def dev_score(self, features: dict[str, Any], predicted: list[float]) -> float:
        metrics = sentence_metrics(self.task, Moments(), self.gold(features), predicted)
        return metrics[self.task.dev_metric]
