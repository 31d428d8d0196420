"""Multiple choice between alternatives (COPA, XCOPA): a premise, a cause/effect question and two
choices; the model scores each (premise + question, choice) pair and the best one is the answer.
Accuracy, as XTREME's third_party/run_xcopa.py computes it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from mte.errors import InputError, IntegrityError
from mte.families.base import TaskFamily

FIELDS = ("premise", "choice1", "choice2", "question", "label")
QUESTIONS = ("cause", "effect")


def first_sentence(example: dict[str, Any]) -> str:
    """The premise and its question, as XTREME's run_xcopa.py joins them."""
    return f"{example['premise']} What was the {example['question']}?"


def _example(record: Any, where: str, line: int | None, path: str | Path) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise InputError(path, line, f"expected a JSON object, found {type(record).__name__}")
    missing = [name for name in FIELDS if name not in record]
    if missing:
        raise InputError(path, line, f"{where} lacks {', '.join(missing)}")
    if record["question"] not in QUESTIONS:
        raise InputError(path, line, f"question {record['question']!r} is not cause or effect")
    if record["label"] not in (0, 1) or isinstance(record["label"], bool):
        raise InputError(path, line, f"label {record['label']!r} is not 0 or 1")
    texts = [record[name] for name in ("premise", "choice1", "choice2")]
    if not all(isinstance(text, str) and text.strip() for text in texts):
        raise InputError(path, line, "premise and choices must be non-empty strings")
    return {
        "id": str(record.get("idx", line)),
        "premise": record["premise"],
        "question": record["question"],
        "choices": [record["choice1"], record["choice2"]],
        "label": record["label"],
    }


def read_copa_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """COPA/XCOPA JSON lines (premise, choice1, choice2, question, label, idx) into
    ``id, premise, question, choices, label``; ids from ``idx``, which the translated
    (data-gmt) files share with the originals."""
    from mte.readers.text import read_lines

    examples = []
    for number, line in read_lines(path):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(path, number, f"not JSON: {err.msg}") from None
        examples.append(_example(record, "the line", number, path))
    if not examples:
        raise InputError(path, None, "no examples")
    ids = [e["id"] for e in examples]
    if len(set(ids)) != len(ids):
        raise InputError(path, None, "repeated idx values")
    return examples


class MultipleChoiceHead:
    """One score per choice (AutoModelForMultipleChoice); the answer is the best choice."""

    auto_class = "AutoModelForMultipleChoice"

    def label_config(self, labels: list[str]) -> dict[str, Any]:
        return {}

    def collate(
        self, features: dict[str, Any], indices: Sequence[int], pad_id: int
    ) -> dict[str, torch.Tensor]:
        """Every choice of every example padded to one width: (examples, choices, width)."""
        from mte.batching import collate

        choices = len(features["input_ids"][indices[0]])
        flat = {
            name: [row for i in indices for row in features[name][i]]
            for name in ("input_ids", "token_type_ids")
            if name in features
        }
        batch = collate(flat, range(len(flat["input_ids"])), pad_id)
        return {name: tensor.view(len(indices), choices, -1) for name, tensor in batch.items()}

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
        """The best choice of every example, in the features' order."""
        from mte.heads import _outputs

        predictions = [0] * len(features["input_ids"])
        for indices, outputs in _outputs(
            model,
            features,
            batch_size,
            pad_id,
            progress,
            dtype,
            collate_batch=self.collate,
            length=lambda choices: max(map(len, choices)),
        ):
            for index, choice in zip(
                indices, outputs["logits"].argmax(dim=-1).tolist(), strict=True
            ):
                predictions[index] = choice
        return predictions

    def gold(self, features: dict[str, Any]) -> list[int]:
        return features["labels"]

    def records(self, features: dict[str, Any], predicted: list[int]) -> list[dict[str, Any]]:
        return [
            {"id": example_id, "label": choice}
            for example_id, choice in zip(features["ids"], predicted, strict=True)
        ]

    def dev_score(self, features: dict[str, Any], predicted: list[int]) -> float:
        from mte.metrics import accuracy

        return accuracy(self.gold(features), predicted)


class MultipleChoice(TaskFamily):
    name = "multiple_choice"
    schema_def = "classification_task"
    has_translations = True  # translate-test: the items translated into English (data-gmt)
    translation_extension = "jsonl"

    def read_files(self, task, paths: list[Path], language: str) -> list[dict[str, Any]]:
        return [example for path in paths for example in read_copa_jsonl(path)]

    def read_hub(self, task, dataset, name: str, language: str) -> list[dict[str, Any]]:
        # a damaged row is named by its 1-based position, as a file's line would be
        return [_example(dict(row), "the row", n, name) for n, row in enumerate(dataset, 1)]

    def tokenize(self, tokenizer, examples, task, options: dict) -> dict[str, Any]:
        from mte.features import encode_pairs, feature_header

        max_length = options["max_length"]
        features = feature_header(tokenizer, examples, task, max_length, ())
        features.update(input_ids=[], labels=[e["label"] for e in examples])
        keep_types = "token_type_ids" in tokenizer.model_input_names
        if keep_types:
            features["token_type_ids"] = []
        truncated = 0
        for example in examples:
            firsts = [first_sentence(example)] * len(example["choices"])
            encoded, cut = encode_pairs(tokenizer, firsts, example["choices"], max_length)
            truncated += any(cut)
            features["input_ids"].append(encoded["input_ids"])
            if keep_types:
                features["token_type_ids"].append(encoded["token_type_ids"])
        features["truncated"] = truncated
        return features

    def model_head(self) -> MultipleChoiceHead:
        return MultipleChoiceHead()

    def score(self, task, predictions, gold, paths: dict) -> dict[str, Any]:
        from mte.metrics import hit_rows
        from mte.scoring import align

        pairs = align(predictions, gold, paths["predictions"], paths["gold"])
        bad = sorted({repr(p["label"]) for _, p in pairs if p["label"] not in (0, 1)})
        if bad:
            raise IntegrityError(f"{paths['predictions']}: predicted choice(s) {bad} not 0 or 1")
        rows = hit_rows([g["label"] == p["label"] for g, p in pairs])
        return {
            "n": len(pairs),
            "metrics": self.sufficient_statistics(task).values(rows),
            "example_stats": rows,
        }

    def sufficient_statistics(self, task):
        from mte.metrics import Means

        return Means("accuracy")  # (correct, 1) per item

    def segments(self, example: dict[str, Any]) -> list[str]:
        return [example["premise"], *example["choices"]]


FAMILY_CLASSES = (MultipleChoice,)
