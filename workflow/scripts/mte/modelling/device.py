"""Where models run (a CUDA GPU when there is one) and in which precision they train and predict."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import torch

from mte.errors import MteError
from mte.runtime.machine import cpu_bf16_units

log = logging.getLogger(__name__)

DEVICES = ("auto", "cpu", "cuda")
PRECISIONS = ("auto", "fp32", "bf16", "fp16")
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}


def resolve_device(requested: str = "auto") -> torch.device:
    """``auto``: the first CUDA GPU when one is visible, else the CPU; ``cuda`` without a
    visible GPU is an error (config key ``device``) rather than a silent run on the CPU."""
    if requested not in DEVICES:
        raise MteError(f"config key 'device': {requested!r} is not one of {list(DEVICES)}")
    has_cuda = torch.cuda.is_available()
    if requested == "cuda" and not has_cuda:
        raise MteError("config key 'device' is 'cuda' but torch sees no CUDA GPU on this machine")
    if requested == "cpu" or not has_cuda:
        return torch.device("cpu")
    return torch.device("cuda")


def autocast_dtype(
    device: torch.device, precision: str = "auto", key: str = "inference_precision"
) -> torch.dtype | None:
    """The autocast type of a job's forward passes, None for full fp32; ``key`` names the
    config key the value came from (``inference_precision``, ``training_precision``).

    ``auto``: bf16 on a GPU that has it (fp16 on older ones), fp32 on a CPU. CPUs without
    bf16 units are slower in reduced precision, not faster. CPUs with them (``avx512_bf16``,
    AMX) are faster, but bf16 changes some predictions, so ``auto`` keeps fp32 there too and
    the log says that ``bf16`` can be chosen. Explicit ``bf16``/``fp16`` also apply on a CPU
    (autocast to bf16 there; fp16 where torch supports it)."""
    if precision not in PRECISIONS:
        raise MteError(f"config key '{key}': {precision!r} is not one of {list(PRECISIONS)}")
    if precision == "fp32":
        return None
    if precision == "auto":
        if device.type != "cuda":
            if units := cpu_bf16_units():
                log.info(
                    "this CPU has bf16 units (%s): '%s: bf16' runs faster, with predictions "
                    "that may differ from fp32's; auto keeps fp32",
                    ", ".join(units),
                    key,
                )
            return None
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    return DTYPES[precision]


def inference_dtype(device: torch.device, precision: str = "auto") -> torch.dtype | None:
    """The autocast type of inference (config key ``inference_precision``)."""
    return autocast_dtype(device, precision, "inference_precision")


def precision_label(dtype: torch.dtype | None) -> str:
    """``fp32``, ``bf16`` or ``fp16``: how logs and provenance name a precision."""
    return {None: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16"}[dtype]


@contextlib.contextmanager
def autocast(device: torch.device, dtype: torch.dtype | None) -> Iterator[None]:
    """Autocast to ``dtype`` on ``device``; nothing for fp32 (None)."""
    if dtype is None:
        yield
    else:
        with torch.autocast(device_type=device.type, dtype=dtype):
            yield


@contextlib.contextmanager
def inference(device: torch.device, dtype: torch.dtype | None) -> Iterator[None]:
    """``torch.inference_mode``, under autocast to ``dtype`` when one is given."""
    with torch.inference_mode(), autocast(device, dtype):
        yield


def model_device(model: Any) -> torch.device:
    """The device of a model's parameters (the CPU for a model without any)."""
    parameters = getattr(model, "parameters", None)
    first = next(iter(parameters()), None) if parameters is not None else None
    return torch.device("cpu") if first is None else first.device


def to_device(batch: dict[str, torch.Tensor], device: torch.device) -> dict[str, torch.Tensor]:
    """Every tensor of a batch on ``device`` (no copy when already there)."""
    return {name: tensor.to(device, non_blocking=True) for name, tensor in batch.items()}


def placement(
    device: str = "auto", precision: str = "auto"
) -> tuple[torch.device, torch.dtype | None]:
    """The config's ``device`` and ``inference_precision``, resolved on this machine."""
    resolved = resolve_device(device)
    return resolved, inference_dtype(resolved, precision)


def describe(device: torch.device, dtype: torch.dtype | None) -> str:
    """``cuda (NVIDIA H100, bf16)`` / ``cpu (fp32)``: for logs."""
    precision = precision_label(dtype)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else None
    return f"{device.type} ({name + ', ' if name else ''}{precision})"
