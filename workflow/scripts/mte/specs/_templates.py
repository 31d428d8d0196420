"""What the specs of one family repeat, written once: settings, label sets, metrics, file
layouts. A spec calls a template and passes what is its own."""

from __future__ import annotations

from typing import Any

from mte.families.pairs import PairOptions
from mte.families.qa import QAOptions
from mte.families.tagging import TaggingOptions
from mte.tasks.prompts import Prompt
from mte.tasks.spec import Task

# settings for tasks with training data in every language (XNLI's and PAWS-X's non-English
# training sets are the releases' machine translations of the English one)
NATIVE_TRAINING = ("zero-shot", "in-language", "multilingual")
NER_TAGS = ("O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC")
# XTREME's processed files of tagging tasks (one token TAB tag per line)
XTREME_TAGGING_FILES = {split: (f"{split}-{{lang}}.tsv",) for split in ("train", "dev", "test")}
HUB_SPLITS = {"train": "train", "dev": "validation", "test": "test"}


def pair_classification_task(options: PairOptions | None = None, **fields: Any) -> Task:
    """A sentence(-pair) classification task scored by accuracy; ``options`` say where its
    texts and labels are (default: XNLI's column names)."""
    defaults: dict[str, Any] = dict(
        family="pair_classification",
        primary_metric="accuracy",
        hub_splits=HUB_SPLITS,
        options=options or PairOptions(),
    )
    return Task(**{**defaults, **fields})


def tagging_task(options: TaggingOptions, **fields: Any) -> Task:
    """A tagging task of ``options.scheme``: "entities" (NER, seqeval entity F1 and its parts,
    and token F1) or "tags" (POS: token accuracy, and the seqeval F1 XTREME's script prints)."""
    scheme = options.scheme
    metrics = ("f1", "precision", "recall", "token_f1") if scheme == "entities" else None
    defaults: dict[str, Any] = dict(
        family="tagging",
        options=options,
        primary_metric="f1" if scheme == "entities" else "accuracy",
        metrics=metrics or ("accuracy", "seqeval_f1"),
        hub_splits=HUB_SPLITS,
        settings=NATIVE_TRAINING,
    )
    return Task(**{**defaults, **fields})


def qa_task(options: QAOptions, **fields: Any) -> Task:
    """An extractive QA task: F1 and exact match of SQuAD v1.1's script, answers normalised
    as ``options`` say."""
    defaults: dict[str, Any] = dict(
        family="qa",
        options=options,
        labels=(),
        primary_metric="f1",
        metrics=("f1", "exact_match"),
        hub_splits=HUB_SPLITS,
    )
    return Task(**{**defaults, **fields})


# in-context transfer for extractive QA (docs/decoders.md): the context and the question, the
# answer generated greedily to the end of its line and scored by the task's official scorer.
# Our wording of the reading-comprehension prompts of GPT-3 (Brown et al. 2020, appendix G:
# the passage, then "Q:" and "A:") and lm-evaluation-harness's squad tasks; demonstrations show
# their first gold answer.
QA_PROMPT = Prompt(
    text=lambda e: f"Context: {e['context']}\nQuestion: {e['question']}\nAnswer:",
    target=lambda e: e["answers"]["text"][0] if e["answers"]["text"] else "",
    until=("\n",),
    source="this project's wording, after Brown et al. 2020 (GPT-3) appendix G and "
    "lm-evaluation-harness's squad tasks",
)
