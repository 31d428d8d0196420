"""Hugging Face hub datasets into canonical examples.

Loading goes through ``datasets.load_dataset`` with the real ids and configs; the mapping from
the hub's columns into our schema is a separate function so that it is tested on local files
of the hub's own schema (our machines cannot reach the hub).
"""

from __future__ import annotations

from typing import Any

from mte.errors import MteError
from mte.families import family_of
from mte.network import HubUnavailableError, hub_caller
from mte.tasks import Task


def load_hub_split(
    hub_id: str, config_name: str | None, split: str, revision: str | None = None
) -> Any:
    """``datasets.load_dataset`` for one config and split, with an actionable error.

    Offline (``HF_HUB_OFFLINE``/``HF_DATASETS_OFFLINE``): the local cache only, one try.
    Otherwise the hub must answer within seconds, a flaky connection is retried with
    backoff, and ``datasets`` verifies the files and split sizes against the checksums and
    counts the dataset records (``verification_mode="all_checks"``).
    """
    import datasets

    what = f"could not load {hub_id} (config {config_name}, split {split})"
    hint = (
        "Without network access, set the task's 'source: files' and 'path:' to a local copy "
        "in the benchmark's released format (see README.md, 'Running on local files')."
    )
    call = hub_caller(what, hint)

    def load() -> Any:
        return datasets.load_dataset(
            hub_id, config_name, split=split, revision=revision, verification_mode="all_checks"
        )

    try:
        return call(load)
    except Exception as err:  # datasets raises many types for "cannot fetch"
        raise HubUnavailableError(
            f"{what} from the Hugging Face hub: {type(err).__name__}: {err}. {hint}"
        ) from err


def pair_examples_from_hub(dataset: Any, task: Task, id_prefix: str = "") -> list[dict[str, Any]]:
    """Map a hub sentence(-pair) split into ``id, text_a, text_b, label``.

    Label ids go through the dataset's own ``ClassLabel`` names, never through our label order;
    a regression task (STS-B) keeps its float score. Single-sentence tasks have no ``text_b``.
    Ids: the row's ``id`` or ``idx`` (GLUE), else the row number.
    """
    column_a, column_b = (*task.hub_text_columns, None)[:2]
    column = task.hub_label_column
    float_labels = family_of(task).float_labels
    # a ClassLabel column holds ids into its names; a string column holds the names
    names = None if float_labels else getattr(dataset.features[column], "names", None)
    examples = []
    for index, row in enumerate(dataset):
        if float_labels:
            label = float(row[column])
        elif names is None:
            label = task.canonical_label(str(row[column]).strip())
            if label is None:
                raise MteError(
                    f"{task.hub_id}: row {index} has label '{row[column]}', not a label of "
                    f"{task.title} ({', '.join(task.labels)})"
                )
        else:
            label_id = row[column]
            if not 0 <= label_id < len(names):
                raise MteError(
                    f"{task.hub_id}: row {index} has label id {label_id}, outside the dataset's "
                    f"label names {names} (a test split without public labels?)"
                )
            label = task.canonical_label(names[label_id])
            if label is None:
                raise MteError(
                    f"{task.hub_id}: row {index} has label '{names[label_id]}', not a label of "
                    f"{task.title} ({', '.join(task.labels)})"
                )
        id_column = next((c for c in (task.id_column, "id", "idx") if c and c in row), None)
        example_id = str(row[id_column]) if id_column else f"{id_prefix}{index + 1}"
        examples.append(
            {
                "id": example_id,
                "text_a": row[column_a],
                "text_b": row[column_b] if column_b else None,
                "label": label,
            }
        )
    return examples


def tagging_examples_from_hub(dataset: Any, task: Task) -> list[dict[str, Any]]:
    """Map a hub tagging split (``tokens`` and a sequence of ``ClassLabel`` tags) into
    ``id, tokens, tags``; tag ids go through the dataset's own label names."""
    names = dataset.features[task.hub_tag_column].feature.names
    unknown = sorted(set(names) - set(task.labels))
    if unknown:
        raise MteError(
            f"{task.hub_id}: tag names {unknown} are not tags of {task.title} "
            f"({', '.join(task.labels)})"
        )
    examples = []
    for index, row in enumerate(dataset):
        tags = [names[i] for i in row[task.hub_tag_column]]
        if len(tags) != len(row["tokens"]):
            raise MteError(
                f"{task.hub_id}: row {index} has {len(row['tokens'])} tokens but {len(tags)} tags"
            )
        example_id = str(row["id"]) if "id" in row else str(index + 1)
        examples.append({"id": example_id, "tokens": list(row["tokens"]), "tags": tags})
    return examples
