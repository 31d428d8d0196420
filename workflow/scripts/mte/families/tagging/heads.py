"""The tagging head: one tag per word, read from the sub-token that carries the word's label;
the windows of a long sentence are joined back in order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import torch

from mte.families.tagging.metrics import tagging_metrics
from mte.modelling.heads import PROBABILITY_DIGITS, Head, named_labels


class TaggingHead(Head):
    auto_class: ClassVar[str] = "AutoModelForTokenClassification"

    def label_config(self, labels: list[str]) -> dict[str, Any]:
        return named_labels(labels)

    def batch_targets(self, features: dict[str, Any], indices: Sequence[int]) -> dict:
        rows = [features["labels"][i] for i in indices]
        labels = torch.full((len(rows), max(len(r) for r in rows)), -100, dtype=torch.long)
        for r, row in enumerate(rows):
            labels[r, : len(row)] = torch.tensor(row, dtype=torch.long)
        return {"labels": labels}

    def read(self, features, indices, outputs, collected: list) -> None:
        """Each window's tags at the sub-tokens that carry its words' labels."""
        best = outputs["logits"].argmax(dim=-1)
        # each word's probability of the tag it gets, which the prediction file carries
        confidence = outputs["logits"].softmax(dim=-1).max(dim=-1).values
        for row, index in enumerate(indices):
            positions = torch.tensor(features["window_positions"][index], dtype=torch.long)
            collected[index] = best[row, positions].tolist()
            self.probabilities[index] = [
                round(p, PROBABILITY_DIGITS) for p in confidence[row, positions].tolist()
            ]

    def finish(self, features: dict[str, Any], collected: list) -> list[list[int]]:
        """Tag indices per word of every example: its windows joined back in order."""
        tags: list[list[int]] = [[] for _ in features["ids"]]
        confidence: list[list[float]] = [[] for _ in features["ids"]]
        for index, example in enumerate(features["window_example"]):
            tags[example].extend(collected[index])
            confidence[example].extend(self.probabilities[index] or ())
        self.confidence = confidence
        return tags

    def gold(self, features: dict[str, Any]) -> list[list[int]]:
        return features["word_labels"]

    def records(self, features: dict[str, Any], predicted: list[list[int]]) -> list[dict]:
        """``{id, tags, tag_probabilities, gold}``: per word its tag, the model's probability
        of that tag, and the gold tag where the features hold them."""
        names = features["label_names"]
        gold = self.gold(features) if "word_labels" in features else None
        records = []
        for index, (example_id, tags) in enumerate(zip(features["ids"], predicted, strict=True)):
            record = {
                "id": example_id,
                "tags": [names[t] for t in tags],
                "tag_probabilities": self.confidence[index],
            }
            if gold is not None and all(0 <= t < len(names) for t in gold[index]):
                record["gold"] = [names[t] for t in gold[index]]
            records.append(record)
        return records

    def dev_score(self, features: dict[str, Any], predicted: list[list[int]]) -> float:
        names = features["label_names"]
        gold = [[names[t] for t in tags] for tags in self.gold(features)]
        guess = [[names[t] for t in tags] for tags in predicted]
        return tagging_metrics(self.task, gold, guess)[self.task.dev_metric]
