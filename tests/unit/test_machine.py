"""The machine as /proc/cpuinfo gives it (mte.runtime.machine), and the provenance record of a
step that never loads torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mte.runtime.machine import cpu_bf16_units, cpu_model

SCRIPTS = Path(__file__).resolve().parents[2] / "workflow" / "scripts"


def test_bf16_units_are_read_from_the_cpu_flags() -> None:
    sapphire = "processor\t: 0\nflags\t\t: fpu avx2 avx512f avx512_bf16 amx_tile amx_bf16\n"
    assert cpu_bf16_units(sapphire) == ["avx512_bf16", "amx_bf16"]
    assert cpu_bf16_units("processor\t: 0\nflags\t\t: fpu avx2 fma\n") == []
    assert cpu_bf16_units("") == []


def test_the_cpu_model_is_the_first_model_name() -> None:
    epyc = "processor\t: 0\nmodel name\t: AMD EPYC 9R14 96-Core Processor\nflags\t\t: fpu\n"
    assert cpu_model(epyc) == "AMD EPYC 9R14 96-Core Processor"
    assert cpu_model("processor\t: 0\n") is None


def test_a_step_without_torch_records_its_machine_without_importing_torch() -> None:
    """A score job's provenance (hardware, package versions) in a fresh process: the CPU's
    facts, none of torch's, and torch never imported."""
    code = (
        "import json, sys\n"
        "from mte.steps.provenance import environment\n"
        "record = environment()\n"
        "print(json.dumps({'record': record, 'torch': 'torch' in sys.modules}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SCRIPTS)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    answer = json.loads(done.stdout)
    assert answer["torch"] is False
    machine = answer["record"]["hardware"]
    assert machine["cpus"] == os.cpu_count()
    assert machine["cpu_model"] == cpu_model()
    assert machine["cpu_bf16_units"] == cpu_bf16_units()
    assert "torch_threads" not in machine and "cuda" not in machine
    # the versions are read from the installed packages' metadata, torch's too
    assert answer["record"]["packages"]["torch"].startswith("2.")
