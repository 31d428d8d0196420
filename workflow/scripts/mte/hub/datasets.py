"""Loading one split of a Hugging Face hub dataset, as the pinned ``datasets`` can.

Loading goes through ``datasets.load_dataset`` with the real ids, configs and revisions; each
family maps the hub's columns into its examples in a separate function (its readers), so that
the mapping is tested on local files of the hub's own schema (our machines cannot reach the
hub). A repository is read as its record (mte.hub.repos.HubRepo) says the pinned datasets takes
it: as its configs, as parquet files by path, or, where only a loading script is there (which
datasets 5 refuses), from the hub's parquet export of it.

``MTE_HUB_DIR=<folder>`` reads a repository from ``<folder>/<owner>/<name>`` instead of the hub
(``<owner>/<name>@<revision>`` first, the revision's ``/`` written ``%2F``): a copy of the
repository (``git clone`` of the hub repo, or files laid out as it lays them out), for a
machine without the network and for the tests.
"""

from __future__ import annotations

import logging
import os
import re
import urllib.parse
from pathlib import Path
from typing import Any

from mte.errors import MteError
from mte.hub.network import HubUnavailableError, hub_caller, offline_requested
from mte.hub.repos import PARQUET_EXPORT, HubRepo

log = logging.getLogger(__name__)

HUB_DIR_VARIABLE = "MTE_HUB_DIR"


def offline_hint(key: str = "") -> str:
    """What to do without network access; ``key`` names the task's config key (tasks.panx)."""
    where = (
        f"set {key}.source to files and {key}.path to"
        if key
        else "give the task (source: files, path:)"
    )
    return (
        f"Without network access, {where} a local copy in the benchmark's released format "
        f"(docs/running.md, 'Running on local files'), or {HUB_DIR_VARIABLE} to a folder of hub "
        "repository copies (docs/data-sources.md)."
    )


HINT = offline_hint()
# what datasets 5 raises for a repository that keeps a loading script
SCRIPT_REFUSAL = re.compile(r"Dataset scripts are no longer supported, but found (\S+)")
# split names a release may use for the same split (SIB-200's "dev")
SPLIT_ALIASES = {"validation": ("dev",), "dev": ("validation",)}


class MissingSplitError(HubUnavailableError):
    """The repository was read, but holds no such split (or no files for it)."""


class ScriptOnlyError(MteError):
    """The repository (at the revision read) holds a loading script, which the pinned datasets
    no longer runs."""


def datasets_version() -> str:
    import datasets

    return datasets.__version__


def local_copy(repo_id: str, revision: str | None) -> Path | None:
    """The folder of ``MTE_HUB_DIR`` that stands for ``repo_id`` at ``revision``, or None when
    the variable is unset. A set variable without the repository is an error naming both."""
    root = os.environ.get(HUB_DIR_VARIABLE, "").strip()
    if not root:
        return None
    names = [repo_id]
    if revision:
        names.insert(0, f"{repo_id}@{urllib.parse.quote(revision, safe='')}")
    for name in names:
        if (Path(root) / name).is_dir():
            return Path(root) / name
    tried = ", ".join(str(Path(root) / name) for name in names)
    raise HubUnavailableError(
        f"{repo_id}: {HUB_DIR_VARIABLE}={root} holds no copy of it (looked for {tried})"
    )


def script_only_message(repo_id: str, revision: str | None, found: str) -> str:
    at = f" at {revision}" if revision else ""
    return (
        f"{repo_id}{at} holds a loading script ({found}), which datasets {datasets_version()} "
        f"no longer runs: read the repository's parquet export instead (its spec's HubRepo "
        f"status 'script', revision {PARQUET_EXPORT}), or give the task source: release (the "
        "authors' files by URL) or source: files (docs/data-sources.md)"
    )


def load_hub_split(
    hub_id: str,
    config_name: str | None,
    split: str,
    revision: str | None = None,
    data_dir: str | None = None,
    data_files: str | None = None,
    hint: str = HINT,
) -> Any:
    """``datasets.load_dataset`` for one config and split, with an actionable error.

    ``data_dir``: a folder of the repository to read (a parquet export's config folder);
    ``data_files``: a pattern of parquet files in the repository, read by datasets' parquet
    builder (so that a loading script beside them is never looked at). A repository that
    holds only a loading script raises :class:`ScriptOnlyError`; an unreachable hub
    :class:`HubUnavailableError`.

    Offline (``HF_HUB_OFFLINE``/``HF_DATASETS_OFFLINE``): the local cache only, one try.
    Otherwise the hub must answer within seconds, a flaky connection is retried with
    backoff, and ``datasets`` verifies what it can (``verification_mode="all_checks"``).
    """
    import datasets

    what = f"could not load {hub_id} (config {config_name}, split {split})"
    local = local_copy(hub_id, revision)
    if data_files is not None:
        base = str(local) if local else f"hf://datasets/{hub_id}@{_quoted(revision)}"
        path, name, kwargs = "parquet", None, {"data_files": {split: f"{base}/{data_files}"}}
    else:
        path, name, kwargs = str(local) if local else hub_id, config_name, {}
        if data_dir:
            kwargs["data_dir"] = data_dir
        if not local:
            kwargs["revision"] = revision

    def load() -> Any:
        return datasets.load_dataset(
            path, name, split=split, verification_mode="all_checks", **kwargs
        )

    call = (lambda run: run()) if local else hub_caller(what, hint)
    try:
        return call(load)
    except Exception as err:  # datasets raises many types for "cannot fetch"
        refused = SCRIPT_REFUSAL.search(str(err))
        if refused:
            raise ScriptOnlyError(script_only_message(hub_id, revision, refused.group(1))) from err
        if isinstance(err, HubUnavailableError):
            raise
        if re.search(r"Unknown split|Unable to find|doesn't contain any data files", str(err)):
            raise MissingSplitError(f"{what}: {type(err).__name__}: {err}") from err
        raise HubUnavailableError(
            f"{what} from {'the copy ' + str(local) if local else 'the Hugging Face hub'}: "
            f"{type(err).__name__}: {str(err).rstrip('. ')}. {hint}"
        ) from err


def _quoted(revision: str | None) -> str:
    return urllib.parse.quote(revision or "main", safe="")


def resolved_commit(repo_id: str, revision: str, hint: str = HINT) -> str | None:
    """The commit ``revision`` names on the hub now (None offline or from a local copy)."""
    if os.environ.get(HUB_DIR_VARIABLE) or offline_requested():
        return None
    from huggingface_hub import HfApi

    call = hub_caller(f"could not resolve {repo_id} at {revision}", hint)
    return call(lambda: HfApi().dataset_info(repo_id, revision=revision).sha)


def _with_split_aliases(load, split: str) -> tuple[Any, str]:
    """``load(split)``, else ``load(alias)`` for a split a release names otherwise (dev for
    validation); returns the dataset and the split name read."""
    try:
        return load(split), split
    except MissingSplitError:
        for alias in SPLIT_ALIASES.get(split, ()):
            try:
                return load(alias), alias
            except MissingSplitError:
                pass
        raise


def load_from_repo(
    repo: HubRepo,
    config: str | None,
    split: str,
    revision: str | None = None,
    hint: str = HINT,
) -> tuple[Any, dict[str, Any]]:
    """One split of ``config`` of ``repo``, read as its record says the pinned datasets can
    (``revision``: the config's override of the pinned one). The revision is resolved to its
    commit first and that commit is read, so that what is recorded is what was read. Returns
    the dataset and its record: the repository, the revision asked for, the commit read, the
    route (its config, parquet files by path, its parquet export), the split name read, and
    the line saying so where an unsettled repository fell back to its export. ``hint``: what
    an unreachable hub's error says to do instead (the task's keys)."""
    asked = revision or repo.revision
    origin: dict[str, Any] = {"id": repo.id, "config": config, "revision": asked}

    def export(split_name: str) -> Any:
        return load_hub_split(
            repo.id,
            None,
            split_name,
            revision=origin["commit"],
            data_dir=config or "default",
            hint=hint,
        )

    def pinned(revision_asked: str) -> str:
        origin["commit"] = resolved_commit(repo.id, revision_asked, hint) or revision_asked
        return origin["commit"]

    if repo.status == "files":
        pattern = repo.files.format(config=config, split="{split}")
        commit = pinned(asked)

        def read(split_name: str) -> Any:
            files = pattern.format(split=split_name)
            return load_hub_split(
                repo.id, config, split_name, revision=commit, data_files=files, hint=hint
            )

        dataset, read_split = _with_split_aliases(read, split)
        origin.update(route="parquet files", files=pattern.format(split=read_split))
    elif repo.status == "script":
        origin.update(route="parquet export", revision=repo.export_revision, data_dir=config)
        pinned(repo.export_revision)
        dataset, read_split = _with_split_aliases(export, split)
    else:
        commit = pinned(asked)
        try:
            dataset, read_split = _with_split_aliases(
                lambda name: load_hub_split(repo.id, config, name, revision=commit, hint=hint),
                split,
            )
            origin["route"] = "config"
        except ScriptOnlyError as err:
            if repo.status != "unsettled":
                raise
            line = (
                f"{err} -- reading its parquet export ({PARQUET_EXPORT}, data_dir "
                f"{config or 'default'}) instead"
            )
            log.warning("%s", line)
            origin.update(route="parquet export", revision=repo.export_revision, fallback=line)
            origin["data_dir"] = config
            pinned(repo.export_revision)
            dataset, read_split = _with_split_aliases(export, split)
    origin["split"] = read_split
    if os.environ.get(HUB_DIR_VARIABLE):
        origin["local_copy"] = str(local_copy(repo.id, origin["commit"]))
    return dataset, origin
