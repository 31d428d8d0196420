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
    demonstration; ``source``: what the wording follows."""

    text: Callable[[dict[str, Any]], str]
    choices: Callable[[dict[str, Any]], list[str]]
    answer: Callable[[dict[str, Any]], int]
    target_delimiter: str = " "
    fewshot_delimiter: str = "\n\n"
    source: str = ""
