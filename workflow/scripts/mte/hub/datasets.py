"""Loading one split of a Hugging Face hub dataset, as the pinned ``datasets`` can.

Loading goes through ``datasets.load_dataset`` with the real ids, configs and revisions; each
family maps the hub's columns into its examples in a separate function (its readers), so that
the mapping is tested on local files of the hub's own schema (our machines cannot reach the
hub). A repository is read as its record (mte.hub.repos.HubRepo) says the pinned datasets takes
it: as its configs, as parquet files by path, or, where only a loading script is there (which
datasets 5 refuses), from the hub's parquet export of it.

``MTE_HUB_DIR=<folder>`` reads a repository from a copy in ``<folder>`` instead of the hub,
for a machine without the network and for the tests: ``<owner>/<name>@<revision>`` (the
revision's ``/`` written ``%2F``), files laid out as the hub lays them out at that revision; or
``<owner>/<name>``, a ``git clone`` of the hub repository with the pinned commit checked out
(a clone without it: the revision is not served), or a plain folder, which stands for a branch
but never for a pinned commit (:func:`local_copy`).
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
from mte.hub.repos import PARQUET_EXPORT, HubRepo, is_commit
from mte.io import sha256_file

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


class MissingSplitError(HubUnavailableError):
    """The repository was read, but holds no such split (or no files for it)."""


class ScriptOnlyError(MteError):
    """The repository (at the revision read) holds a loading script, which the pinned datasets
    no longer runs."""


def datasets_version() -> str:
    import datasets

    return datasets.__version__


class RevisionNotServedError(HubUnavailableError):
    """The revision a spec pins (or the config asks for) is not one the repository serves: read
    nothing rather than another revision."""


def revision_not_served(repo_id: str, revision: str, key: str, where: str) -> str:
    """The one line for a pin the hub (or a local copy) does not serve: the repository, the
    revision, the task's key, and the two ways out; never a silent read of main."""
    task = f"{key}: " if key else ""
    keys = f"{key}.revision" if key else "the task's revision"
    source = f"{key}.source: release" if key else "source: release"
    return (
        f"{task}{repo_id} does not serve revision {revision} ({where}); the pin is not replaced "
        f"by main. Give {keys}: <a commit it serves> to read another revision on purpose (a new "
        f"data folder, and new lock entries), or {source} to read the authors' files by URL "
        "(docs/data-sources.md)"
    )


def _git(folder: Path, *args: str) -> str | None:
    """``git -C folder args`` standing for a read of a local clone; None when it fails."""
    import subprocess

    done = subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() if done.returncode == 0 else None


def local_copy(repo_id: str, revision: str | None, key: str = "") -> tuple[Path, str | None] | None:
    """The folder of ``MTE_HUB_DIR`` that stands for ``repo_id`` at ``revision``, and the commit
    it holds (None where a copy cannot say); None when the variable is unset.

    ``<owner>/<name>@<revision>`` is a copy at that revision (the revision's ``/`` written
    ``%2F``). ``<owner>/<name>`` is either a git clone of the hub repository, read only when it
    holds ``revision`` and has it checked out (a clone without it: the revision is not served),
    or a plain folder, which can stand for a branch (main, the parquet export) but never for a
    pinned commit: a pin is read from a copy known to be at it. Anything else is an error naming
    the folders looked for."""
    root = os.environ.get(HUB_DIR_VARIABLE, "").strip()
    if not root:
        return None
    exact = Path(root) / f"{repo_id}@{urllib.parse.quote(revision or 'main', safe='')}"
    if exact.is_dir():
        return exact, revision if is_commit(revision) else None
    folder = Path(root) / repo_id
    if folder.is_dir() and (folder / ".git").exists():
        commit = _git(
            folder, "rev-parse", "--verify", "--quiet", f"{revision or 'HEAD'}^{{commit}}"
        )
        if commit is None:
            where = f"the git clone {folder} has no such commit or branch"
            raise RevisionNotServedError(revision_not_served(repo_id, str(revision), key, where))
        head = _git(folder, "rev-parse", "HEAD")
        if head != commit:
            raise HubUnavailableError(
                f"{repo_id}: the git clone {folder} has {head} checked out, not {revision} "
                f"({commit}): `git -C {folder} checkout {commit}` to read it"
            )
        return folder, commit
    if folder.is_dir() and not is_commit(revision):
        return folder, None
    tried = ", ".join(str(p) for p in (exact, folder))
    plain = f"; {folder} is neither a copy at it nor a git clone" if folder.is_dir() else ""
    raise HubUnavailableError(
        f"{repo_id}: {HUB_DIR_VARIABLE}={root} holds no copy of it at {revision} (looked for "
        f"{tried}{plain})"
    )


def script_only_message(repo_id: str, revision: str | None, found: str) -> str:
    at = f" at {revision}" if revision else ""
    return (
        f"{repo_id}{at} holds a loading script ({found}), which datasets {datasets_version()} "
        f"no longer runs: read the repository's parquet export instead (its spec's HubRepo "
        f"status 'script', revision {PARQUET_EXPORT}), or give the task source: release (the "
        "authors' files by URL) or source: files (docs/data-sources.md)"
    )


def load_split_files(
    hub_id: str,
    config_name: str | None,
    split: str,
    revision: str | None = None,
    data_dir: str | None = None,
    data_files: str | None = None,
    hint: str = HINT,
    local: Path | None = None,
) -> tuple[Any, list[str]]:
    """One config and split through datasets' own builder (what ``load_dataset`` does), and
    the data files it read (hub URLs ``hf://datasets/<id>@<commit>/<path>``, or paths in the
    local copy ``local``).

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
    if local is None and os.environ.get(HUB_DIR_VARIABLE, "").strip():
        found = local_copy(hub_id, revision)
        local = found[0] if found else None
    if data_files is not None:
        base = str(local) if local else f"hf://datasets/{hub_id}@{_quoted(revision)}"
        path, name, kwargs = "parquet", None, {"data_files": {split: f"{base}/{data_files}"}}
    else:
        path, name, kwargs = str(local) if local else hub_id, config_name, {}
        if data_dir:
            kwargs["data_dir"] = data_dir
        if not local:
            kwargs["revision"] = revision

    # a local copy's files can change under the same path and revision, which datasets' cache
    # does not always see: prepared afresh, so that what is read is what the copy holds (a
    # hub read is cached by the commit it resolved, which cannot change)
    mode = datasets.DownloadMode.FORCE_REDOWNLOAD if local else None

    def load() -> tuple[Any, list[str]]:
        builder = datasets.load_dataset_builder(path, name, **kwargs)
        builder.download_and_prepare(verification_mode="all_checks", download_mode=mode)
        files = [str(f) for f in (builder.config.data_files or {}).get(split, [])]
        return builder.as_dataset(split=split), files

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


def resolved_commit(repo_id: str, revision: str, hint: str = HINT, key: str = "") -> str | None:
    """The commit ``revision`` names on the hub now (None offline). A revision the hub does not
    serve is :class:`RevisionNotServedError`, never a read of another revision."""
    if offline_requested():
        return None
    from huggingface_hub import HfApi
    from huggingface_hub.errors import RevisionNotFoundError

    call = hub_caller(f"could not resolve {repo_id} at {revision}", hint)
    try:
        return call(lambda: HfApi().dataset_info(repo_id, revision=revision).sha)
    except RevisionNotFoundError as err:
        where = "the hub answers: revision not found"
        raise RevisionNotServedError(revision_not_served(repo_id, revision, key, where)) from err


def hub_file_digests(repo_id: str, commit: str, paths: list[str]) -> dict[str, str]:
    """The content digest the hub gives for each file of ``repo_id`` at ``commit``: its LFS
    SHA-256 (``sha256:<hex>``), or for a file kept in git itself its blob id
    (``git-blob:<hex>``, git's SHA-1 of the content)."""
    from huggingface_hub import HfApi

    call = hub_caller(f"could not list {repo_id}'s files at {commit}", HINT)
    infos = call(
        lambda: HfApi().get_paths_info(repo_id, paths, repo_type="dataset", revision=commit)
    )
    digests = {}
    for info in infos:
        lfs = getattr(info, "lfs", None)
        sha = lfs.get("sha256") if isinstance(lfs, dict) else getattr(lfs, "sha256", None)
        digests[info.path] = f"sha256:{sha}" if sha else f"git-blob:{info.blob_id}"
    return digests


def files_read(repo_id: str, commit: str | None, files: list[str], local: Path | None) -> dict:
    """Each data file read, by its path in the repository, with its content digest: the
    SHA-256 of a local copy's file, or what the hub gives (:func:`hub_file_digests`)."""
    if local is not None:
        return {
            Path(f).relative_to(local).as_posix(): f"sha256:{sha256_file(f)}" for f in sorted(files)
        }
    prefix = re.compile(r"^hf://datasets/[^@]+@[^/]+/")
    paths = sorted(prefix.sub("", urllib.parse.unquote(f)) for f in files)
    if not paths or commit is None or offline_requested():
        return {path: "" for path in paths}
    return hub_file_digests(repo_id, commit, paths)


def load_from_repo(
    repo: HubRepo,
    config: str | None,
    split: str,
    revision: str | None = None,
    hint: str = HINT,
    key: str = "",
) -> tuple[Any, dict[str, Any]]:
    """One split of ``config`` of ``repo``, read as its record says the pinned datasets can
    (``revision``: the config's override of the pinned one). The revision is resolved to its
    commit first and that commit is read, so that what is recorded is what was read; a
    revision that is not served stops here (:class:`RevisionNotServedError`). Returns the
    dataset and its record: the repository, the revision asked for, the commit read, the route
    (its config, parquet files by path, its parquet export), the split read, and each data
    file read with its digest. ``hint``: what an unreachable hub's error says to do instead;
    ``key``: the task's config key (tasks.panx)."""
    asked = revision or repo.read_revision
    origin: dict[str, Any] = {"id": repo.id, "config": config, "revision": asked}
    found = local_copy(repo.id, asked, key)
    local, commit = found if found else (None, resolved_commit(repo.id, asked, hint, key))
    # offline, from the hub's cache: a pinned commit is what was read, a branch unknown
    origin["commit"] = commit or (asked if is_commit(asked) else None)
    read_at = origin["commit"] or asked
    if repo.status == "files":
        files = repo.files.format(config=config, split=split)
        dataset, read = load_split_files(
            repo.id, config, split, read_at, data_files=files, hint=hint, local=local
        )
        origin["route"] = "parquet files"
    elif repo.status == "script":
        dataset, read = load_split_files(
            repo.id, None, split, read_at, data_dir=config or "default", hint=hint, local=local
        )
        origin.update(route="parquet export", data_dir=config or "default")
    else:
        dataset, read = load_split_files(repo.id, config, split, read_at, hint=hint, local=local)
        origin["route"] = "config"
    origin["split"] = split
    origin["files_read"] = files_read(repo.id, origin["commit"], read, local)
    if local is not None:
        origin["local_copy"] = str(local)
    return dataset, origin
