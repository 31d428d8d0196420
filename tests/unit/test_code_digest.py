"""Which package code each rule's jobs run (mte.runtime.code_digest), read from the imports:
a scoring module is score code, not fine-tune code; a reader is data code; a comment is no code."""

from __future__ import annotations

from pathlib import Path

from mte.registry import TASKS, family_package_of, spec_module_of
from mte.runtime.code_digest import (
    ALL_ROLES,
    _module_digest,
    closure,
    code_digest,
    imports,
    script_modules,
)
from tests.conftest import REPO

SCRIPTS = REPO / "workflow" / "scripts"
PAIRS, XNLI = "mte.families.pairs", "mte.specs.xnli"


def _run(script: str, *roles: str, family: str = PAIRS, spec: str = XNLI) -> set[str]:
    return set(closure(script_modules(SCRIPTS / script), frozenset(roles), family, spec))


def test_the_registry_stands_for_the_task_own_spec_and_family() -> None:
    assert spec_module_of("xnli") == XNLI and spec_module_of("mlqa_gxlt") == "mte.specs.mlqa"
    assert family_package_of(TASKS["xnli"]) == PAIRS
    assert family_package_of(TASKS["panx"]) == "mte.families.tagging"


def test_each_kind_of_job_runs_its_part_of_the_family() -> None:
    score = _run("score.py", "score")
    finetune = _run("finetune.py", "model")
    download = _run("download.py", "read")
    tokenize = _run("tokenize_examples.py", "features")
    assert "mte.families.pairs.scoring" in score
    assert "mte.families.pairs.scoring" not in finetune | download | tokenize
    # a head's dev score reads the family's metrics: they are fine-tune code too
    assert "mte.families.pairs.metrics" in finetune and "mte.families.pairs.heads" in finetune
    assert "mte.families.pairs.readers" in download
    assert "mte.families.pairs.readers" not in score | finetune | tokenize
    assert "mte.families.pairs.features" in tokenize and "mte.families.pairs.features" not in score
    # the spec the job reads, and none of the other tasks' specs
    assert XNLI in score and "mte.specs.panx" not in score
    # another family, imported by a helper spec module for its options, without its parts
    assert "mte.families.qa" in score and "mte.families.qa.scoring" not in score


def test_a_job_that_reads_curves_or_scores_runs_no_part_of_a_family() -> None:
    plots = _run("plot.py", "none")
    assert PAIRS in plots and not any(m.startswith(f"{PAIRS}.") for m in plots)


def test_a_job_without_a_task_runs_every_spec_and_family() -> None:
    everything = closure(script_modules(SCRIPTS / "aggregate.py"), ALL_ROLES)
    assert "mte.specs.panx" in everything and "mte.families.qa.scoring" in everything


def test_imports_inside_functions_are_found() -> None:
    top, inner = imports(PAIRS)
    assert "mte.families.base" in top
    assert {"mte.families.pairs.readers", "mte.families.pairs.scoring"} <= inner


def test_a_comment_or_formatting_is_not_code(tmp_path: Path) -> None:
    one, two, three = tmp_path / "a.py", tmp_path / "b.py", tmp_path / "c.py"
    one.write_text("def f(x):\n    return x + 1\n")
    two.write_text("# why it adds one\ndef f( x ):\n\n    return x+1  # one\n")
    three.write_text("def f(x):\n    return x + 2\n")
    assert _module_digest(one) == _module_digest(two) != _module_digest(three)


def test_the_digest_names_twelve_hex_digits_and_differs_by_role() -> None:
    score = code_digest(SCRIPTS / "score.py", frozenset({"score"}), PAIRS, XNLI)
    assert len(score) == 12 and int(score, 16) >= 0
    other = code_digest(SCRIPTS / "score.py", frozenset({"score"}), PAIRS, "mte.specs.pawsx")
    assert score != other  # another spec is other code


def test_a_family_class_module_narrows_its_parts_as_the_package_does() -> None:
    """The retrieval family's classes each live in a ``*_family`` module: a retrieve job of
    Tatoeba runs its search but not its readers, a download job its readers but not its
    scoring, as for a family whose classes sit in the package's ``__init__``."""
    retrieval, spec = "mte.families.retrieval", "mte.specs.tatoeba"
    retrieve = _run("retrieve.py", "model", family=retrieval, spec=spec)
    download = _run("download.py", "read", family=retrieval, spec=spec)
    assert "mte.families.retrieval.retrieval_family" in retrieve
    assert "mte.families.retrieval.search" in retrieve
    assert "mte.families.retrieval.readers" not in retrieve
    assert "mte.families.retrieval.readers" in download
    assert "mte.families.retrieval.scoring" not in download | retrieve
    # the convention the narrowing reads: every family class in __init__ or a *_family module
    from mte.registry import discover_families

    for family in discover_families():
        assert family.__module__.count(".") == 2 or family.__module__.endswith("_family")
