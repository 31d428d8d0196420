"""The typed records of the plan that the folder keys digest: a task's tokenisation."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from mte.config.plan.resolve import TaskConfig
from mte.registry import family_of, get_task


def _named_unless(*values: Any) -> dict[str, Any]:
    """A field's metadata: the values for which the features' folder key leaves it out. An
    option added later names only the values it did not have before, so the folders of every
    run that does not set it keep their names."""
    return {"named_unless": values}


@dataclass(frozen=True)
class Tokenization:
    """What decides a task's features besides its data, as the tokenize job receives it (its
    ``options`` param, every field): the window of the fine-tune it is evaluated with (the
    owner's ``max_length``; QA's ``windows``, ``doc_stride``, and ``max_query_length`` where
    run_squad windows or a dual encoder cut the question), its input's lower-casing, the
    sub-token that carries a word's label (tagging), and the run's ``tokenization``. Every value
    is the checked config's (the schema's default where the config says nothing); None where the
    task's family has no such option. A new option is a field here and a key of the schema; it
    enters the features' folder key by being a field."""

    max_length: int | None
    label_subword: str | None
    doc_stride: int | None
    do_lower_case: bool = field(metadata=_named_unless(False))
    tokenization: str = field(metadata=_named_unless("paper"))
    windows: str | None = field(metadata=_named_unless(None, "run_qa"))
    max_query_length: int | None = field(metadata=_named_unless(None))

    def options(self) -> dict[str, Any]:
        """The tokenize job's ``options`` param."""
        return dataclasses.asdict(self)

    def key_payload(self) -> dict[str, Any]:
        """What the features' folder key digests: every field, less those at a value their
        metadata leaves out."""
        return {
            option.name: getattr(self, option.name)
            for option in dataclasses.fields(self)
            if getattr(self, option.name) not in option.metadata.get("named_unless", ())
        }


def tokenization_of(task_name: str, config: dict[str, Any]) -> Tokenization:
    """A task's tokenisation in a checked config (:func:`tokenization_for`), by task name."""
    return tokenization_for(TaskConfig.of(task_name, config))


def tokenization_for(task: TaskConfig) -> Tokenization:
    """A task's tokenisation: the options of the task whose fine-tunes it uses (SQuAD's for
    XQuAD), its own ``label_subword``."""
    config = task.config
    owner_name = task.models_of() or task.name
    owner = config["tasks"][owner_name]
    owner_spec = task.spec if owner_name == task.name else get_task(owner_name)
    owner_family = family_of(owner_spec)
    # run_squad windows cut the question; a family may always do (the dual encoder's queries)
    cuts_question = (
        owner.get("windows") == "run_squad" or "max_query_length" in owner_family.tokens_keys
    )
    return Tokenization(
        # a retrieval task without a fine-tune has none: its encoder reads its own lengths
        max_length=owner["hyperparameters"]["max_length"] if "hyperparameters" in owner else None,
        label_subword=task.entry.get("label_subword"),
        doc_stride=owner.get("doc_stride"),
        do_lower_case=bool(owner.get("do_lower_case")),
        tokenization=config["tokenization"],
        windows=owner.get("windows"),
        max_query_length=owner["max_query_length"] if cuts_question else None,
    )
