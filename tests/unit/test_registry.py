"""The task registry against the family contract: every task has what its family needs, and a
family or spec that breaks the contract fails at import, naming itself."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from mte.config.schema import load_schema
from mte.errors import ConfigError
from mte.families.base import (
    FineTuningFamily,
    PooledRetrievingFamily,
    RetrievingFamily,
    TaskFamily,
)
from mte.families.pairs import PairClassification
from mte.families.tagging import TaggingOptions
from mte.registry import (
    FAMILIES,
    TASKS,
    FamilyContractError,
    build_registry,
    check_tasks,
    discover_tasks,
    family_of,
    pools,
    retrieves,
)
from mte.steps.data import hub_location
from mte.tasks.spec import Task

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schema.yaml"


@pytest.mark.parametrize("name", sorted(TASKS))
def test_every_task_has_a_schema_entry_of_its_family(name: str) -> None:
    schema = load_schema(SCHEMA)
    entry = schema["properties"]["tasks"]["properties"][name]
    definition = entry["$ref"].removeprefix("#/$defs/")
    assert definition == family_of(TASKS[name]).schema_def
    assert definition in schema["$defs"]


def test_the_schema_lists_no_task_by_hand_and_refuses_unknown_ones() -> None:
    raw = yaml.safe_load(SCHEMA.read_text())
    assert "properties" not in raw["properties"]["tasks"]
    assert load_schema(SCHEMA)["properties"]["tasks"]["additionalProperties"] is False


@pytest.mark.parametrize("name", sorted(TASKS))
def test_every_language_has_a_file_layout_or_a_hub_location(name: str) -> None:
    task = TASKS[name]
    assert task.files, f"{name}: no released file layout"
    for templates in task.files.values():
        for template in templates:
            for language in task.languages:
                context, _, question = language.partition("-")
                template.format(
                    lang=language,
                    code=task.file_codes.get(language, language),
                    context=context,
                    question=question or context,
                )
    for language in task.languages:
        for split in task.hub_splits:
            try:
                hub_id, _ = hub_location(task, language, split)
            except ConfigError as err:  # a language the hub lacks says so, naming the key
                assert err.key == f"tasks.{name}.source"
                continue
            assert hub_id


@pytest.mark.parametrize("name", sorted(TASKS))
def test_the_primary_metric_has_per_example_statistics_unless_the_family_says_not(
    name: str,
) -> None:
    task = TASKS[name]
    compute = family_of(task).statistic(task, task.primary_metric)
    assert (compute is not None) == family_of(task).per_example_statistics
    assert task.primary_metric == task.metrics[0]


def test_tagging_tasks_say_whether_they_tag_entities_or_parts_of_speech() -> None:
    schemes = {t.name: t.options.scheme for t in TASKS.values() if t.family == "tagging"}
    assert schemes == {"conll": "entities", "panx": "entities", "udpos": "tags"}


class ReadsNothing(TaskFamily):
    """A family stub: the contract's reading and statistics hooks, each empty; the tests below
    leave out or add the rest."""

    name = "stub"
    schema_def = "classification_task"

    def read_files(self, task, paths, language, split):
        return []

    def read_hub(self, task, dataset, name, language):
        return []

    def sufficient_statistics(self, task):
        return None

    def segments(self, task, example):
        return []


def test_a_family_lacking_part_of_the_contract_fails_naming_it() -> None:
    class NoMeasure(ReadsNothing):
        name = "broken"

    with pytest.raises(FamilyContractError, match=r"NoMeasure .*lacks .*measure"):
        build_registry((NoMeasure,))

    class Unnamed(PairClassification):
        pass

    del_name = type("Unnamed", (TaskFamily,), {})  # no attributes, no methods
    with pytest.raises(FamilyContractError, match="name, schema_def"):
        build_registry((del_name,))
    with pytest.raises(FamilyContractError, match="two task families are named"):
        build_registry((PairClassification, Unnamed))


def test_every_family_either_fine_tunes_or_retrieves_and_refuses_nothing_it_inherits() -> None:
    """A fine-tuning family has no retrieval hooks and a retrieving family no tokenisation or
    head: none inherits a method it would have to refuse."""
    fine_tuning = {n for n, f in FAMILIES.items() if isinstance(f, FineTuningFamily)}
    retrieving = {n for n, f in FAMILIES.items() if isinstance(f, RetrievingFamily)}
    assert fine_tuning.isdisjoint(retrieving) and fine_tuning | retrieving == set(FAMILIES)
    assert retrieving == {"retrieval", "mining", "answer_retrieval", "entity_retrieval"}
    for name in fine_tuning:
        assert not hasattr(FAMILIES[name], "retrieve") and not hasattr(FAMILIES[name], "build_pool")
    for name in retrieving:
        assert not hasattr(FAMILIES[name], "tokenize") and not hasattr(FAMILIES[name], "model_head")
    pooled = {n for n, f in FAMILIES.items() if isinstance(f, PooledRetrievingFamily)}
    assert pooled == {"answer_retrieval", "entity_retrieval"}
    assert {t for t in TASKS if pools(TASKS[t])} == {"lareqa", "mewslix"}
    assert retrieves(TASKS["tatoeba"]) and not retrieves(TASKS["xnli"])


def test_a_family_that_neither_fine_tunes_nor_retrieves_fails_naming_the_bases() -> None:
    class Neither(ReadsNothing):
        name = "neither"

        def measure(self, task, pairs, paths):
            return {}

    with pytest.raises(FamilyContractError, match="Neither .*FineTuningFamily and Retrieving"):
        build_registry((Neither,))


def test_a_task_naming_an_unknown_family_fails_naming_both() -> None:
    task = Task(
        name="x", title="X", family="pairs", languages=("en",), labels=(), primary_metric="a",
        hub_id="",
    )  # fmt: skip
    with pytest.raises(FamilyContractError, match="task 'x' names task family 'pairs'"):
        check_tasks({"x": task}, FAMILIES)


def test_a_spec_naming_a_metric_it_does_not_report_fails() -> None:
    task = Task(
        name="p", title="P", family="tagging", languages=("en",), labels=("NOUN",),
        primary_metric="accuracy", metrics=("accuracy",), selection_metric="seqeval_f1",
        options=TaggingOptions(scheme="tags"), hub_id="",
    )  # fmt: skip
    with pytest.raises(FamilyContractError, match="task 'p' names metric.*seqeval_f1"):
        check_tasks({"p": task}, FAMILIES)


def test_ud_pos_models_are_selected_by_seqeval_f1_as_xtremes_run_tag_py_selects() -> None:
    """run_tag.py keeps the checkpoint of the best dev result["f1"], seqeval's f1_score over
    the UPOS tags; the dev score equals it, and here differs from token accuracy (5 of 6)."""
    from seqeval.metrics import f1_score

    from mte.families.tagging.heads import TaggingHead

    names = list(TASKS["udpos"].labels)
    gold = [["DET", "NOUN", "VERB"], ["PRON", "AUX", "ADJ"]]
    guess = [["DET", "NOUN", "NOUN"], ["PRON", "AUX", "ADJ"]]
    features = {
        "task": "udpos",
        "label_names": names,
        "word_labels": [[names.index(tag) for tag in tags] for tags in gold],
    }
    head = TaggingHead(TASKS["udpos"])
    score = head.dev_score(features, [[names.index(t) for t in tags] for tags in guess])
    assert TASKS["udpos"].dev_metric == "seqeval_f1"
    assert score == pytest.approx(f1_score(gold, guess))
    assert score != pytest.approx(5 / 6)


def test_a_tagging_spec_without_a_scheme_fails() -> None:
    task = Task(
        name="t", title="T", family="tagging", languages=("en",), labels=("O",),
        primary_metric="f1", hub_id="", options=TaggingOptions(),
    )  # fmt: skip
    with pytest.raises(ValueError, match="task 't': its tagging scheme must be"):
        check_tasks({"t": task}, FAMILIES)


def test_a_spec_carrying_another_familys_options_fails_naming_both() -> None:
    task = Task(
        name="t", title="T", family="pair_classification", languages=("en",), labels=("0",),
        primary_metric="accuracy", hub_id="", options=TaggingOptions(scheme="tags"),
    )  # fmt: skip
    with pytest.raises(
        FamilyContractError, match="task 't' carries TaggingOptions, not the PairOptions"
    ):
        check_tasks({"t": task}, FAMILIES)


def test_discovery_finds_every_spec_module_and_refuses_a_name_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "somespecs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    spec = textwrap.dedent(
        """
        from mte.tasks.spec import Task
        TASKS = (Task(name="{name}", title="T", family="pair_classification",
                      languages=("en",), labels=("0", "1"), primary_metric="accuracy",
                      hub_id=""),)
        """
    )
    (package / "one.py").write_text(spec.format(name="alpha"))
    (package / "_helper.py").write_text("raise RuntimeError('helpers are not specs')")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert list(discover_tasks("somespecs")) == ["alpha"]
    (package / "two.py").write_text(spec.format(name="alpha"))
    sys.modules.pop("somespecs", None)
    with pytest.raises(
        TypeError, match=r"'alpha' is defined twice: somespecs.one and somespecs.two"
    ):
        discover_tasks("somespecs")
