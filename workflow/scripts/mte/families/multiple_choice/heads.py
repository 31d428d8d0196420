"""The multiple-choice head: one score per choice, the answer the best choice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import torch

from mte.modelling.batching import collate
from mte.modelling.heads import Head
from mte.stats.metrics import accuracy


class MultipleChoiceHead(Head):
    """One score per choice (AutoModelForMultipleChoice); the answer is the best choice."""

    auto_class: ClassVar[str] = "AutoModelForMultipleChoice"

    def collate(
        self, features: dict[str, Any], indices: Sequence[int], pad_id: int
    ) -> dict[str, torch.Tensor]:
        """Every choice of every example padded to one width: (examples, choices, width)."""
        choices = len(features["input_ids"][indices[0]])
        if any(len(features["input_ids"][i]) != choices for i in indices):
            raise ValueError(
                f"{features['task']}: the items of a batch differ in their number of choices"
            )
        flat = {
            name: [row for i in indices for row in features[name][i]]
            for name in ("input_ids", "token_type_ids")
            if name in features
        }
        batch = collate(flat, range(len(flat["input_ids"])), pad_id)
        return {name: tensor.view(len(indices), choices, -1) for name, tensor in batch.items()}

    def length(self, input_ids: Any) -> int:
        return max(map(len, input_ids))

    def dev_score(self, features: dict[str, Any], predicted: list[int]) -> float:
        return accuracy(self.gold(features), predicted)
