"""The cache keys that decide reruns: what names a task's data, token and result folders (a
digest of exactly the config values that change them), and a run's folder name."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from mte.config.plan.records import tokenization_of
from mte.config.plan.resolve import models_of, needed_splits, retrieval_encoder, start_from
from mte.registry import get_task, retrieves
from mte.tasks.spec import TRANSLATED_SPLITS

# What decides a task's downloaded content (the translated splits add their translations, which
# re-run only those splits when they change)
DATA_KEYS = ("source", "path", "files", "revision", "subset")


# What a folder of results is named by: runs of different configs that differ in one of these
# write to different folders, and runs that agree share (and so reuse) them
KEY_PATTERN = r"[a-z]+(-[0-9a-f]{8}){0,2}"


def _digest(payload: Any) -> str:
    """Eight hex digits of the SHA-256 of ``payload`` as canonical JSON."""
    import hashlib
    import json

    text = json.dumps(payload, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def data_params(task_name: str, config: dict[str, Any]) -> dict[str, Any]:
    """The config values that decide a task's downloaded examples."""
    task_cfg = config["tasks"][task_name]
    return {key: task_cfg.get(key) for key in DATA_KEYS}


def source_record(task_name: str, config: dict[str, Any]) -> dict[str, Any]:
    """What the task's source pins beyond the config: each hub repository's revision and the
    route it is read by, or every released file's URL and checksum; and the task's protocol
    version where it was raised. A change to any of them is new data (a new data folder)."""
    task = get_task(task_name)
    task_cfg = config["tasks"][task_name]
    record: dict[str, Any] = {}
    if task_cfg["source"] == "hub":
        record["hub"] = [
            [repo.id, task_cfg.get("revision") or repo.read_revision, repo.status, repo.files]
            for repo in task.hub_repos
        ]
    elif task_cfg["source"] == "release" and task.release is not None:
        record["release"] = [[f.url, f.name, f.sha256] for f in task.release.files]
    # named only when raised, so that the folders of every task at version 1 keep their names
    if task.version != 1:
        record["version"] = task.version
    return record


def data_lock_path(
    config: dict[str, Any], configfiles: list[str], default_config: str | Path
) -> str | None:
    """The run's data lock (mte.hub.lock), relative to the working directory as every other
    input is: the config's ``data_lock`` file; none where it is false; by default beside the
    run's config file, its suffix ``.lock`` (config/xtreme.lock for config/xtreme.yaml; the
    first file where an overlay follows; ``default_config``'s without one)."""
    import os

    chosen = config.get("data_lock")
    if chosen is False:
        return None
    if not chosen:
        chosen = Path(configfiles[0] if configfiles else default_config).with_suffix(".lock")
    return os.path.relpath(chosen)


def _lock_of(config: dict[str, Any]) -> dict[str, Any]:
    """The run's data lock as the config names it (``data_lock``, set to its path by the
    workflow), read once per version of the file."""
    from mte.hub.lock import empty_lock

    path = config.get("data_lock")
    if not path or not Path(path).is_file():
        return empty_lock()
    stat = Path(path).stat()
    return _read_lock(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=4)
def _read_lock(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    from mte.hub.lock import read_lock

    return read_lock(path)


def data_key(task_name: str, config: dict[str, Any]) -> str:
    """The folder of a task's data under resources/data/{task}/: its :func:`source_key`, and,
    once an update of the run's data lock accepted other bytes for the task, a digest of the
    two (a first download only records, so it never renames what it made)."""
    from mte.hub.lock import accepted_digest

    source = source_key(task_name, config)
    accepted = accepted_digest(_lock_of(config), task_name, source)
    if not accepted:
        return source
    kind = config["tasks"][task_name]["source"]
    return f"{kind}-{_digest({'source': source, 'accepted': accepted})}"


def source_key(task_name: str, config: dict[str, Any]) -> str:
    """What the config names of a task's data: ``demo`` as shipped, else the source and a
    digest of what decides the content (``files-1a2b3c4d``, ``hub-...``: the config's keys and
    what the source pins, its commits or checksums), so that the demo's XNLI, the hub's and a
    folder's never share a file, and a new pin is new data. The data lock's records of the
    task are kept under it."""
    params = data_params(task_name, config)
    record = source_record(task_name, config)
    source = params["source"]
    if source == "demo" and not record and not any(v for k, v in params.items() if k != "source"):
        return source
    return f"{source}-{_digest({**params, **record} if record else params)}"


def release_languages(task_name: str, config: dict[str, Any]) -> list[str]:
    """The languages whose released files a run of the config reads (every split it needs)."""
    return sorted({language for language, split in needed_splits(task_name, config)
                   if split not in TRANSLATED_SPLITS})  # fmt: skip


def release_key(task_name: str, config: dict[str, Any]) -> str:
    """The name of a task's fetched-release record: a digest of the files its languages need
    (a language added fetches its files; the files fetched before stay)."""
    task = get_task(task_name)
    files = task.release.files_for(release_languages(task_name, config))
    return _digest([[f.url, f.name, f.sha256] for f in files])


def tokens_params(task_name: str, config: dict[str, Any]) -> dict[str, Any]:
    """What decides a task's features besides its data: its tokenisation record's key payload
    (mte.config.plan.records.Tokenization)."""
    return tokenization_of(task_name, config).key_payload()


def tokens_key(task_name: str, config: dict[str, Any]) -> str:
    """The folder of a task's features: its data key and a digest of the tokenisation."""
    return f"{data_key(task_name, config)}-{_digest(tokens_params(task_name, config))}"


def variant_key(task_name: str, config: dict[str, Any]) -> str:
    """The folder of a task's fine-tunes, predictions and scores under results/{model}/{task}/:
    its data key and a digest of everything else that decides them: the tokenisation, the
    fine-tune's hyper-parameters and training data (a task evaluating another task's fine-tunes
    names that task's folder), the retrieval layers. Evaluation languages, settings and seeds are
    folders of their own below it, so adding one reruns nothing else."""
    task = get_task(task_name)
    task_cfg = config["tasks"][task_name]
    decided_by: dict[str, Any] = {"tokens": tokens_params(task_name, config)}
    if retrieves(task):
        decided_by = {"layers": task_cfg.get("layers")}
        # named only when not the default, as in tokens_params
        if config["tokenization"] != "paper":
            decided_by["tokenization"] = config["tokenization"]
        # named only when set, so that the folders of every pretrained-encoder run keep theirs
        if encoder := retrieval_encoder(task_name, config):
            decided_by["encoder"] = [encoder, variant_key(encoder, config)]
    elif models_of(task_name, config):
        owner = models_of(task_name, config)
        decided_by["fine_tune"] = [owner, variant_key(owner, config)]
    else:
        decided_by["hyperparameters"] = task_cfg.get("hyperparameters")
        # named only when set, so that the folders of every fine-tune from the pretrained
        # encoder keep their names
        if start_from(task_name, config):
            first = start_from(task_name, config)
            decided_by["start_from"] = [first, variant_key(first, config)]
        # a spec's own selection metric (UD-POS: seqeval F1) picks other models than the
        # primary metric did: named so that models selected the earlier way are not reused
        if task.selection_metric:
            decided_by["selection_metric"] = task.selection_metric
    return f"{data_key(task_name, config)}-{_digest(decided_by)}"


def prompted_variant_key(task_name: str, config: dict[str, Any]) -> str:
    """The folder of a task's in-context runs, beside its fine-tunes' folder: its data key and
    a digest of what decides the prompts and answers - the demonstrations' data (the task whose
    English training data they come from) and the ``in_context`` options that change an answer
    (shots, max_new_tokens; not the batch size). Fine-tuning hyper-parameters are not in it, so
    changing them reruns no prompt; another k is another folder, the earlier one kept."""
    owner = models_of(task_name, config) or task_name
    options = config.get("in_context") or {}
    decided_by = {
        "demonstrations": [owner, data_key(owner, config)],
        "shots": options.get("shots"),
        "max_new_tokens": options.get("max_new_tokens"),
    }
    return f"{data_key(task_name, config)}-{_digest(decided_by)}"


def run_name(config: dict[str, Any], configfiles: list[str]) -> str:
    """The folder of a run's tables, plots and summaries, results/runs/{run}/: the config's
    ``run``, else the config file's name (xtreme for config/xtreme.yaml), else default; with
    the ``model`` shorthand, that name and the model's (xtreme-xlm-roberta-base), so that a
    paper config run for another model never rewrites the paper model's tables."""
    from mte.config.schema import model_of_shorthand

    if config.get("run"):
        name = str(config["run"])
    elif configfiles:
        name = Path(configfiles[-1]).stem
    else:
        name = "default"
    if config.get("model"):
        name += f"-{model_of_shorthand(str(config['model']))['name']}"
    return name
