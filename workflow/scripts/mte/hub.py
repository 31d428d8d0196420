"""Loading one split of a Hugging Face hub dataset.

Loading goes through ``datasets.load_dataset`` with the real ids and configs; each family maps
the hub's columns into its examples in a separate function (its readers), so that the mapping is
tested on local files of the hub's own schema (our machines cannot reach the hub).
"""

from __future__ import annotations

from typing import Any

from mte.network import HubUnavailableError, hub_caller


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
        "in the benchmark's released format (see docs/running.md, 'Running on local files')."
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
