"""The extractive-QA head: an answer span per question, the best start/end over all windows of
its context, mapped back to the context's characters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import torch

from mte.families.qa import squad_answers
from mte.families.qa.metrics import qa_normalizer, qa_scores
from mte.modelling.batching import collate
from mte.modelling.heads import Head


class QuestionAnsweringHead(Head):
    """An answer span per question: the best start/end over all windows of its context."""

    auto_class: ClassVar[str] = "AutoModelForQuestionAnswering"
    output_fields: ClassVar[tuple[str, ...]] = ("start_logits", "end_logits")
    n_best = 20
    max_answer_tokens = 30

    def batch_targets(self, features: dict[str, Any], indices: Sequence[int]) -> dict:
        return {
            "start_positions": torch.tensor([features["start_positions"][i] for i in indices]),
            "end_positions": torch.tensor([features["end_positions"][i] for i in indices]),
        }

    def collate(
        self, features: dict[str, Any], indices: Sequence[int], pad_id: int
    ) -> dict[str, torch.Tensor]:
        """Windows padded to the longest of the batch, or to ``pad_to`` (run_squad's windows
        are all ``max_length`` long: its n-best starts and ends include the padding)."""
        batch = collate(features, indices, pad_id)
        width = features.get("pad_to", 0) - batch["input_ids"].shape[1]
        if width > 0:
            batch = {
                name: torch.nn.functional.pad(
                    tensor, (0, width), value=pad_id if name == "input_ids" else 0
                )
                for name, tensor in batch.items()
            }
        return batch

    def start(self, features: dict[str, Any]) -> list:
        """The best (score, answer) per question so far: none yet (run_squad's windows: the
        best (score, window, start, end))."""
        if features.get("windows") == "run_squad":
            return [None for _ in features["ids"]]
        return [(float("-inf"), "") for _ in features["ids"]]

    def read(self, features, indices, outputs, collected: list) -> None:
        """Each window's best span, kept where it beats its question's best so far."""
        if features.get("windows") == "run_squad":
            self._read_run_squad(features, indices, outputs, collected)
            return
        for row, window in enumerate(indices):
            example = features["window_example"][window]
            offsets = features["offsets"][window]
            starts = outputs["start_logits"][row, : len(offsets)]
            ends = outputs["end_logits"][row, : len(offsets)]
            span = self._best_span(starts, ends, offsets)
            if span is not None and span[0] > collected[example][0]:
                score, first, last = span
                context = features["contexts"][example]
                collected[example] = (score, context[offsets[first][0] : offsets[last][1]].strip())

    def finish(self, features: dict[str, Any], collected: list) -> list[str]:
        """One answer string per question (empty when no window offers a valid span;
        run_squad's ``empty``)."""
        # each answer's score (its start and end logits summed; None where no span is valid),
        # which the prediction file carries
        if features.get("windows") == "run_squad":
            self.confidence = [None if best is None else best[0] for best in collected]
            return [
                squad_answers.NO_ANSWER
                if best is None
                else squad_answers.span_answer(features, *best[1:])
                for best in collected
            ]
        self.confidence = [None if score == float("-inf") else score for score, _ in collected]
        return [answer for _, answer in collected]

    def _read_run_squad(self, features, indices, outputs, collected: list) -> None:
        """Each window's best valid span as ``compute_predictions_logits`` finds it, kept where
        it beats its question's best so far (on a tie, the earlier window: that script sorts
        its candidates stably, window by window)."""
        for row, window in enumerate(indices):
            span = squad_answers.window_best_span(
                outputs["start_logits"][row].tolist(),
                outputs["end_logits"][row].tolist(),
                len(features["input_ids"][window]),
                features["context_offset"][window],
                features["window_length"][window],
                features["max_context"][window],
            )
            if span is None:
                continue
            example = features["window_example"][window]
            best = collected[example]
            if best is None or span[0] > best[0] or (span[0] == best[0] and window < best[1]):
                collected[example] = (span[0], window, span[1], span[2])

    def _best_span(self, starts: torch.Tensor, ends: torch.Tensor, offsets: list):
        """(score, first token, last token) of the best valid span among the n-best starts
        and ends of one window: both in the context, end not before start, at most
        ``max_answer_tokens`` long. The n-best are XTREME's (``_get_best_indexes``, a stable
        sort: the earlier token on equal logits, as :func:`squad_answers.best_indexes` picks
        them for run_squad's windows), and on equal scores the first pair in that order wins:
        equal logits are common under bf16, and ``torch.topk`` leaves their order undefined."""
        in_context = torch.tensor([o is not None for o in offsets])
        starts = starts.masked_fill(~in_context, float("-inf"))
        ends = ends.masked_fill(~in_context, float("-inf"))
        k = min(self.n_best, int(in_context.sum()))
        if k == 0:
            return None
        top_starts = squad_answers.best_indexes(starts.tolist(), k)
        top_ends = squad_answers.best_indexes(ends.tolist(), k)
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
        """``{id, answer, score, gold}``: the predicted span's text, its score (start and end
        logits summed; None where no span was valid) and the gold answers."""
        gold = self.gold(features) if "answers" in features else None
        return [
            {
                "id": example_id,
                "answer": answer,
                "score": None if score is None else round(score, 4),
                **({} if gold is None else {"gold": list(gold[index])}),
            }
            for index, (example_id, answer, score) in enumerate(
                zip(features["ids"], predicted, self.confidence, strict=True)
            )
        ]

    def dev_score(self, features: dict[str, Any], predicted: list[str]) -> float:
        normalize = qa_normalizer(self.task, self.task.train_language)
        return qa_scores(predicted, self.gold(features), normalize)[self.task.dev_metric]
