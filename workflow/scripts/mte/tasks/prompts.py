"""A task's prompt for in-context transfer (mte.modelling.prompting): how an example becomes the
text a decoder reads, the text of each answer it scores, and which of them is right. A task's
spec holds its prompt, with the source it follows; the wording is this project's own.

The request layout is lm-evaluation-harness's for a multiple-choice task (its ``doc_to_text``,
``doc_to_choice``, ``target_delimiter`` and ``fewshot_delimiter``), so that a task YAML with the
same wording scores the same requests (tests/unit/test_prompting.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Prompt:
    """``text``: an example's prompt text (its context, after any demonstrations); ``choices``:
    the text of each answer, in the order ``answer`` indexes; ``answer``: the right one's index;
    ``target_delimiter`` goes between the text and an answer, ``fewshot_delimiter`` after each
    demonstration; ``source``: what the wording follows.

    A task answered by generation (extractive QA) has no choices: ``target`` gives a
    demonstration's answer text, and the model's greedy continuation is cut at the first of
    ``until``."""

    text: Callable[[dict[str, Any]], str]
    choices: Callable[[dict[str, Any]], list[str]] | None = None
    answer: Callable[[dict[str, Any]], int] | None = None
    target_delimiter: str = " "
    fewshot_delimiter: str = "\n\n"
    source: str = ""
    target: Callable[[dict[str, Any]], str] | None = None
    until: tuple[str, ...] = ("\n",)

    def demonstration_answer(self, example: dict[str, Any]) -> str:
        """The answer a demonstration shows: the right choice's text, or the target."""
        if self.target is not None:
            return self.target(example)
        if self.choices is None or self.answer is None:
            raise ValueError("a prompt needs choices and an answer, or a target")
        return self.choices(example)[self.answer(example)]
