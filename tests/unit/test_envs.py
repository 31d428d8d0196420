"""The conda environment of the rules (--software-deployment-method conda) pins exactly what
pyproject.toml pins, so a cluster job runs the same packages as a local one."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def test_conda_environment_pins_agree_with_pyproject() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pinned = set(project["dependencies"])
    assert all("==" in requirement for requirement in pinned), "every dependency is pinned"
    environment = yaml.safe_load((REPO / "envs" / "mte.yaml").read_text(encoding="utf-8"))
    pip = next(d["pip"] for d in environment["dependencies"] if isinstance(d, dict))
    assert set(pip) == pinned
    python = next(d for d in environment["dependencies"] if str(d).startswith("python="))
    minimum = project["requires-python"].removeprefix(">=")
    assert tuple(map(int, python.split("=")[1].split("."))) >= tuple(map(int, minimum.split(".")))


def test_every_rule_declares_its_environment_threads_and_resources() -> None:
    """Each rule (a ``use rule ... with:`` inherits its parent's: the light rules take
    light_step's) runs in the conda environment and declares threads and the scheduler
    resources of its group. A light rule says it runs locally itself: a ``with:`` block always
    overwrites its parent's localrule (Snakemake's RuleInfo.localrule defaults to False, not
    None), as the SLURM test saw when the light rules first took light_step's."""
    rules, children, parents = {}, {}, {}
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        body = None
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("rule "):
                body = rules.setdefault(line.removeprefix("rule ").rstrip(":"), [])
            elif line.startswith("use rule "):
                parent, _, child = line.removeprefix("use rule ").partition(" as ")
                parents[child.split()[0]] = parent
                body = children.setdefault(child.split()[0], [])
            elif line and not line.startswith((" ", "#")):
                body = None
            elif body is not None:
                body.append(line.strip())
    # the parser found the rules (11 today) and the rules that inherit (18 today)
    assert len(rules) >= 11 and len(parents) >= 18
    assert sum(parent == "light_step" for parent in parents.values()) == 14
    light = 'localrule: runs_locally("light")'
    for child, parent in parents.items():
        while parent in parents:
            parent = parents[parent]
        assert parent in rules, (child, parent)
        assert (parent == "light_step") == (light in children[child]), child
    for name, body in rules.items():
        assert "conda:" in body and '"../../envs/mte.yaml"' in body, name
        assert any(line.startswith("threads:") for line in body), name
        assert any(line.startswith("**job_resources(") for line in body), name
