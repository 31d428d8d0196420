"""What produced a number: package versions, hardware, model and data checksums."""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = (
    "mte",
    "torch",
    "transformers",
    "tokenizers",
    "datasets",
    "snakemake",
    "pandas",
    "numpy",
    "scipy",
)


def package_versions() -> dict[str, str | None]:
    """Installed versions of the packages that shape a result."""
    versions: dict[str, str | None] = {"python": sys.version.split()[0]}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def hardware() -> dict[str, Any]:
    """The machine a step ran on: with the CPU's model and its bf16 units, which decide what
    ``bf16`` precision costs and changes on a CPU; and torch's threads and whether it sees a
    CUDA GPU, where the step loaded torch (a fine-tune, a prediction). A step that never loads
    it (a score) records none of torch's view: importing torch for two facts the step does not
    use would cost seconds a job, and a run has hundreds of scores."""
    from mte.runtime.machine import cpu_bf16_units, cpu_model

    record: dict[str, Any] = {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "cpu_model": cpu_model(),
        "cpu_bf16_units": cpu_bf16_units(),
    }
    torch = sys.modules.get("torch")
    if torch is None:
        return record
    record["torch_threads"] = torch.get_num_threads()
    record["cuda"] = torch.cuda.is_available()
    if record["cuda"]:
        record["gpu"] = torch.cuda.get_device_name(0)
    return record


def prediction_machine(device: str, precision: str) -> dict[str, Any]:
    """The machine a predict, retrieve or prompt job ran on (:func:`hardware`) and the
    precision it ran in: the config's ``device`` and ``inference_precision`` resolved there
    (``fp32``, ``bf16`` or ``fp16``), which every score's provenance carries as
    ``predicted_on``."""
    from mte.modelling.device import placement, precision_label

    where, dtype = placement(device, precision)
    return {**hardware(), "device": where.type, "precision": precision_label(dtype)}


def environment() -> dict[str, Any]:
    """Package versions and hardware together."""
    return {"packages": package_versions(), "hardware": hardware()}


def code_record(digest: str | None) -> dict[str, Any]:
    """This package's version and the digest of the code a job ran (mte.runtime.code_digest)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("mte")
    except PackageNotFoundError:  # run from a checkout without installing it
        installed = None
    return {"package": "mte", "version": installed, "digest": digest}


def result_provenance(
    base_model_dir: str | Path,
    finetuned_dir: str | Path | None,
    data_meta: Iterable[str | Path],
    code: str | None = None,
    predicted_on: str | Path | None = None,
) -> dict[str, Any]:
    """Everything a score depends on: model source and checksum or revision, the fine-tune's
    hyper-parameters, seed and machine (None for the retrieval tasks, which do not fine-tune),
    the data sources with checksums (each with its hub commit or release checksums), this
    package's version and the digest of the scoring code (``code``), package versions, and the
    machines: ``hardware`` the scoring job's, ``predicted_on`` the predict or retrieve job's
    (read from the file ``predicted_on`` names; None where there is none)."""
    from mte.hub.models import MODEL_RECORD
    from mte.io import read_json

    training = None
    if finetuned_dir is not None:
        record = read_json(Path(finetuned_dir) / "training.json")
        training = {k: record[k] for k in ("hyperparameters", "seed", "selected")}
        # fine-tunes written before training_precision existed ran in fp32
        training["precision"] = record.get("precision", "fp32")
        # a fine-tune that started from another task's (XCOPA after Social IQa)
        if "start_from" in record:
            training["start_from"] = record["start_from"]
        # a LoRA fine-tune: its settings, the pretrained folder its adapter was merged into,
        # and the adapter's size
        for key in ("lora", "adapter_of", "adapter_bytes"):
            if key in record:
                training[key] = record[key]
        # the fine-tune's machine (fine-tunes written before it was recorded have none)
        training["hardware"] = record.get("hardware")
    return {
        "model": read_json(Path(base_model_dir) / MODEL_RECORD),
        "training": training,
        "data": [read_json(path) for path in data_meta],
        "code": code_record(code),
        "predicted_on": read_json(predicted_on) if predicted_on else None,
        **environment(),
    }
