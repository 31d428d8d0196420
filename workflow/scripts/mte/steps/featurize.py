"""Rule tokenize's step: a task's examples into model features, by its family."""

from __future__ import annotations

from typing import Any

from mte.registry import family_of
from mte.tasks.spec import Task


def tokenize_examples(
    tokenizer: Any, examples: list[dict[str, Any]], task: Task, *, training: bool, **options: Any
) -> dict[str, Any]:
    """Features of the task's family. ``training``: the split fine-tunes. ``options``: the
    task's tokenisation, every field of mte.config.plan.records.Tokenization (the checked
    config's values: ``max_length``, ``label_subword`` for tagging, ``doc_stride``, ``windows``,
    ``max_query_length`` and ``do_lower_case`` for QA windows and answer text,
    ``tokenization``: ``paper`` for the special tokens of XTREME's scripts too, see
    mte.hub.models.TOKENIZATIONS); none has a default here: the schema holds them."""
    return family_of(task).tokenize(tokenizer, examples, task, {**options, "training": training})
