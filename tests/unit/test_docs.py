"""The docs point at things that exist: every relative link (file and heading), every config
key they name, every YAML config example, every task's citation; and the README stays short."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mte.config.schema import load_schema, schema_branches
from mte.registry import TASKS

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schema.yaml"
DOCS = sorted(
    [REPO / "README.md", REPO / "BENCHMARKS.md", REPO / "config" / "README.md"]
    + list((REPO / "docs").glob("*.md"))
)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.M | re.S)
# a config key as the docs write it: a top-level key, then `.key` or `.<placeholder>` parts
KEY_PATH = re.compile(r"`([a-z_]+(?:\.(?:<[a-z_]+>|[a-z_0-9]+))+)`")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, markup and punctuation dropped
    (hyphens and underscores kept), spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file (repeated headings get -1, -2, ...)."""
    seen: dict[str, int] = {}
    found = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        match = None if in_code else HEADING.match(line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            found.add(base if count == 0 else f"{base}-{count}")
            seen[base] = count + 1
    return found


def test_slug_follows_github() -> None:
    # worked out from GitHub's rendering of such headings
    assert slug("Intervals and significance") == "intervals-and-significance"
    assert slug("Smoke tier (CI)") == "smoke-tier-ci"
    assert slug("XTREME's QA protocol and Tatoeba") == "xtremes-qa-protocol-and-tatoeba"
    assert slug("Running on local files") == "running-on-local-files"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(doc: Path) -> None:
    broken = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        path = (doc.parent / file_part).resolve() if file_part else doc
        if not path.exists():
            broken.append(f"{target}: no file {path.relative_to(REPO)}")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: no heading #{anchor} in {path.relative_to(REPO)}")
    assert not broken, f"{doc.relative_to(REPO)}: " + "; ".join(broken)


def _children(schema: dict, node: dict, part: str) -> list[dict]:
    """The schema nodes a key path's ``part`` reaches from ``node`` (a ``<placeholder>`` reaches
    every named property and the additional ones)."""
    reached = []
    for branch in schema_branches(node, schema):
        if branch.get("type") == "array" and isinstance(branch.get("items"), dict):
            reached += _children(schema, branch["items"], part)
        properties = branch.get("properties") or {}
        if part.startswith("<"):
            reached += list(properties.values())
            if isinstance(branch.get("additionalProperties"), dict):
                reached.append(branch["additionalProperties"])
        elif part in properties:
            reached.append(properties[part])
    return reached


def key_exists(schema: dict, path: str) -> bool:
    nodes: list[Any] = [schema]
    for part in path.split("."):
        nodes = [child for node in nodes for child in _children(schema, node, part)]
        if not nodes:
            return False
    return True


def test_key_paths_resolve_in_the_schema() -> None:
    schema = load_schema(SCHEMA)
    assert key_exists(schema, "tasks.<task>.hyperparameters.keep_step")
    assert key_exists(schema, "tasks.xnli.hyperparameters.learning_rate")
    assert key_exists(schema, "statistics.baseline")
    assert not key_exists(schema, "tasks.<task>.hyperparameters.learning_rte")
    assert not key_exists(schema, "statistics.trails")
    assert not key_exists(schema, "tasks.xnli.max_query_length")  # a QA key, not XNLI's


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_config_key_the_docs_name_exists(doc: Path) -> None:
    schema = load_schema(SCHEMA)
    top_level = set(schema["properties"])
    # a file name that starts like a key (model.safetensors beside the key model) is not one
    files = (".json", ".yaml", ".safetensors", ".bin", ".csv", ".tsv", ".md", ".html", ".png")
    files += (".txt", ".zip")  # submission.txt beside the key submission
    named = {
        path
        for path in KEY_PATH.findall(doc.read_text(encoding="utf-8"))
        if path.split(".")[0] in top_level and not path.endswith(files)
    }
    missing = sorted(path for path in named if not key_exists(schema, path))
    assert not missing, f"{doc.relative_to(REPO)} names config keys the schema lacks: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_yaml_example_is_a_valid_config_fragment(doc: Path) -> None:
    """A YAML block in the docs is a config (or part of one): every key it uses exists and
    every value it gives is allowed; only keys it leaves out (required ones) are not asked. A
    block that is a list is a references file's entries, read by the loader that reads them."""
    import tempfile

    import yaml

    from mte.published import load_references

    schema = load_schema(SCHEMA)
    validator = jsonschema.Draft202012Validator(schema)
    for block in YAML_BLOCK.findall(doc.read_text(encoding="utf-8")):
        fragment = yaml.safe_load(block)
        if isinstance(fragment, list):
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "references.yaml"
                path.write_text(block, encoding="utf-8")
                assert load_references([path]), f"{doc.relative_to(REPO)}: an empty example"
            continue
        errors = [
            f"{'.'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
            for error in validator.iter_errors(fragment)
            if error.validator not in ("required", "minProperties")
        ]
        assert not errors, f"{doc.relative_to(REPO)}: a YAML example is not a config: {errors}"


def test_readme_is_short_and_starts_with_the_two_commands() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) < 10 * 1024
    first_screen = "\n".join(readme.splitlines()[:24])
    assert "make run" in first_screen and "make test" in first_screen


def test_every_task_has_a_citation() -> None:
    citing = (REPO / "docs" / "citing.md").read_text(encoding="utf-8")
    rows = [line for line in citing.splitlines() if line.startswith("| `")]
    cited = {name for row in rows for name in re.findall(r"`([a-z0-9_]+)`", row.split("|")[1])}
    assert sorted(set(TASKS) - cited) == []
    assert sorted(cited - set(TASKS) - {"config"}) == []


def test_the_readmes_make_run_time_is_the_one_a_measured_run_wrote() -> None:
    """The README states make run's time only as tools/measure_run.py wrote it (with its commit,
    machine and load) into docs/measured/make-run.json: never a hand-typed figure."""
    import importlib.util
    import json
    from datetime import datetime

    spec = importlib.util.spec_from_file_location("measure_run", REPO / "tools" / "measure_run.py")
    assert spec is not None and spec.loader is not None
    measure_run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(measure_run)
    record = json.loads((REPO / "docs" / "measured" / "make-run.json").read_text(encoding="utf-8"))
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert measure_run.readme_block(record) in readme
    assert re.fullmatch(r"[0-9a-f]{40}", record["commit"])
    assert datetime.fromisoformat(record["date"]).year >= 2026
    assert record["wall_seconds"] > 0 and record["machine"]["cpus"] >= 1
    assert {"before", "during_mean", "during_max"} <= set(record["load"])


def test_the_real_tier_tables_are_written_from_the_record() -> None:
    """docs/results.md's real-tier and SIB-200 tables are what tools/readme_section.py
    writes from the committed record of the runs (docs/measured/real-tier.json), with each
    experiment's commit and date: no figure there is typed by hand."""
    import json

    from tools.readme_section import RECORD, section, sib200_section

    record = json.loads(RECORD.read_text(encoding="utf-8"))
    results = (REPO / "docs" / "results.md").read_text(encoding="utf-8")
    assert section(record) in results
    assert sib200_section(record) in results
    for name, experiment in record["experiments"].items():
        assert re.fullmatch(r"[0-9a-f]{40}(\+changes)?", experiment["commit"]), name


def test_the_protocol_tables_are_written_from_their_record() -> None:
    """docs/results.md's LAReQA, QA-windows and Tatoeba-encoder tables are what
    tools/readme_section.py writes from docs/measured/protocols.json, the record of a run
    of the protocols tier (make test-protocols), with each experiment's commit and date."""
    import json

    from tools.readme_section import PROTOCOLS_RECORD, lareqa_section, squad_section

    record = json.loads(PROTOCOLS_RECORD.read_text(encoding="utf-8"))
    results = (REPO / "docs" / "results.md").read_text(encoding="utf-8")
    assert lareqa_section(record) in results
    assert squad_section(record) in results
    expected = {"lareqa-dual", "lareqa-pretrained", "qa-run-qa", "qa-run-squad"}
    assert expected | {"tatoeba-pretrained"} == set(record["experiments"])
    for name, experiment in record["experiments"].items():
        assert re.fullmatch(r"[0-9a-f]{40}(\+changes)?", experiment["commit"]), name


def test_data_sources_is_written_from_the_specs() -> None:
    from mte.steps.data_sources import document

    written = (REPO / "docs" / "data-sources.md").read_text(encoding="utf-8")
    assert written == document(REPO), "docs/data-sources.md is stale: run make data-sources"
