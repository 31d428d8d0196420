"""The machine a job runs on as /proc/cpuinfo gives it, read without torch: every job's
provenance records it, and a job that never loads torch (a score) would pay seconds for the
import alone."""

from __future__ import annotations

# the CPU flags of bf16 matrix units (AVX-512's bf16 instructions, Intel AMX's tiles)
BF16_FLAGS = ("avx512_bf16", "amx_bf16")


def _cpuinfo() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            return handle.read()
    except OSError:  # not Linux: nothing known
        return ""


def cpu_model(cpuinfo: str | None = None) -> str | None:
    """The CPU's model name as /proc/cpuinfo gives it (None where it cannot be read)."""
    for line in (_cpuinfo() if cpuinfo is None else cpuinfo).splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "model name":
            return value.strip()
    return None


def cpu_bf16_units(cpuinfo: str | None = None) -> list[str]:
    """The bf16 unit flags this CPU reports (none where /proc/cpuinfo cannot be read)."""
    if cpuinfo is None:
        cpuinfo = _cpuinfo()
    flags: set[str] = set()
    for line in cpuinfo.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "flags":
            flags.update(value.split())
    return [flag for flag in BF16_FLAGS if flag in flags]
