"""Rule tokenize's step: a task's examples into model features, by its family."""

from __future__ import annotations

from typing import Any

from mte.registry import family_of
from mte.tasks.spec import Task

# what a family's tokenisation reads besides ``max_length``, and its value when not given
TOKENIZE_DEFAULTS = {
    "label_subword": "first",
    "doc_stride": 128,
    "training": False,
    "windows": "run_qa",
    "max_query_length": 64,
    "do_lower_case": False,
    "tokenization": "paper",
}


def tokenize_examples(
    tokenizer: Any, examples: list[dict[str, Any]], task: Task, max_length: int, **options: Any
) -> dict[str, Any]:
    """Features of the task's family. ``options``: ``label_subword`` (tagging), ``doc_stride``,
    ``windows``, ``max_query_length`` and ``do_lower_case`` (QA windows and answer text),
    ``training`` (the split fine-tunes), ``tokenization`` (``paper``: the special tokens of
    XTREME's scripts too; see mte.hub.models.TOKENIZATIONS)."""
    chosen = {**TOKENIZE_DEFAULTS, **options, "max_length": max_length}
    return family_of(task).tokenize(tokenizer, examples, task, chosen)
