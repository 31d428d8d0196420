"""The hub mapping, on local files of the hub's own schema (the hub itself is unreachable)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import datasets
import pytest

from mte.families.pairs.readers import pair_examples_from_hub
from mte.registry import TASKS


def _xnli_like(tmp_path: Path, names: list[str]) -> datasets.Dataset:
    """A split with facebook/xnli's features: premise, hypothesis, label ClassLabel."""
    features = datasets.Features(
        {
            "premise": datasets.Value("string"),
            "hypothesis": datasets.Value("string"),
            "label": datasets.ClassLabel(names=names),
        }
    )
    table = datasets.Dataset.from_dict(
        {"premise": ["P1", "P2"], "hypothesis": ["H1", "H2"], "label": [0, 2]},
        features=features,
    )
    path = tmp_path / "validation.parquet"
    table.to_parquet(str(path))
    loaded = datasets.load_dataset("parquet", data_files=str(path), split="train")
    return loaded.cast(features)


def test_xnli_labels_follow_the_dataset_names(tmp_path: Path) -> None:
    dataset = _xnli_like(tmp_path, ["entailment", "neutral", "contradiction"])
    assert pair_examples_from_hub(dataset, TASKS["xnli"]) == [
        {"id": "1", "text_a": "P1", "text_b": "H1", "label": "entailment"},
        {"id": "2", "text_a": "P2", "text_b": "H2", "label": "contradiction"},
    ]
    # a dataset whose ClassLabel order differs maps by name, not by position
    reordered = _xnli_like(tmp_path, ["contradiction", "entailment", "neutral"])
    assert [e["label"] for e in pair_examples_from_hub(reordered, TASKS["xnli"])] == [
        "contradiction",
        "neutral",
    ]


def test_pawsx_schema_keeps_the_hub_ids(tmp_path: Path) -> None:
    features = datasets.Features(
        {
            "id": datasets.Value("int32"),
            "sentence1": datasets.Value("string"),
            "sentence2": datasets.Value("string"),
            "label": datasets.ClassLabel(names=["0", "1"]),
        }
    )
    dataset = datasets.Dataset.from_dict(
        {"id": [11, 12], "sentence1": ["a", "b"], "sentence2": ["c", "d"], "label": [1, 0]},
        features=features,
    )
    assert pair_examples_from_hub(dataset, TASKS["pawsx"]) == [
        {"id": "11", "text_a": "a", "text_b": "c", "label": "1"},
        {"id": "12", "text_a": "b", "text_b": "d", "label": "0"},
    ]


def test_unknown_label_name_is_an_error(tmp_path: Path) -> None:
    dataset = _xnli_like(tmp_path, ["entailment", "other", "contradiction"])
    features = dataset.features.copy()
    dataset = datasets.Dataset.from_dict(
        {"premise": ["P"], "hypothesis": ["H"], "label": [1]}, features=features
    )
    with pytest.raises(Exception, match="'other', not a label of XNLI"):
        pair_examples_from_hub(dataset, TASKS["xnli"])


def test_offline_hub_says_how_to_use_local_files() -> None:
    # datasets reads HF_DATASETS_OFFLINE when it is imported: a fresh process, as a rule job is
    code = (
        "from mte.hub.datasets import load_split_files\n"
        "load_split_files('facebook/xnli', 'de', 'validation')\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "HubUnavailableError" in done.stderr
    assert "give the task (source: files, path:) a local copy" in done.stderr


def test_an_offline_hub_task_names_its_config_key_once() -> None:
    """A download job of PAN-X from the hub, offline: one error naming tasks.panx first and
    saying which keys to set, with no doubled full stop."""
    code = (
        "from mte.registry import get_task\n"
        "from mte.steps.data import materialize\n"
        "materialize(get_task('panx'), {'source': 'hub'}, 'de', 'test')\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode != 0
    # the error the job reports: the last one raised
    line = [line for line in done.stderr.splitlines() if "HubUnavailableError:" in line][-1]
    assert line.startswith("mte.hub.network.HubUnavailableError: tasks.panx: could not load")
    assert "set tasks.panx.source to files and tasks.panx.path to a local copy" in line
    assert ".." not in line and "the task's" not in line


def _tagging_split(column: str, names: list[str], rows: list[tuple[list[str], list[int]]]):
    features = datasets.Features(
        {
            "tokens": datasets.Sequence(datasets.Value("string")),
            column: datasets.Sequence(datasets.ClassLabel(names=names)),
        }
    )
    return datasets.Dataset.from_dict(
        {"tokens": [r[0] for r in rows], column: [r[1] for r in rows]}, features=features
    )


def test_conll2003_schema_tags_by_name() -> None:
    # eriktks/conll2003's ner_tags names, in its own order
    names = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]
    dataset = _tagging_split("ner_tags", names, [(["EU", "rejects", "German"], [3, 0, 7])])
    from mte.families.tagging.readers import tagging_examples_from_hub

    assert tagging_examples_from_hub(dataset, TASKS["conll"]) == [
        {"id": "1", "tokens": ["EU", "rejects", "German"], "tags": ["B-ORG", "O", "B-MISC"]}
    ]


def test_xtreme_udpos_schema_and_foreign_tags() -> None:
    from mte.errors import MteError
    from mte.families.tagging.readers import tagging_examples_from_hub

    upos = list(TASKS["udpos"].labels)
    dataset = _tagging_split("pos_tags", upos, [(["Sie", "liest"], [10, 15])])
    assert tagging_examples_from_hub(dataset, TASKS["udpos"])[0]["tags"] == ["PRON", "VERB"]
    wrong = _tagging_split("ner_tags", ["O", "B-GPE"], [(["x"], [1])])
    with pytest.raises(MteError, match="B-GPE"):
        tagging_examples_from_hub(wrong, TASKS["panx"])


def test_glue_schemas_single_sentence_and_regression() -> None:
    """nyu-mll/glue: sst2 (sentence, ClassLabel negative/positive, idx) and stsb (a float)."""
    sst2 = datasets.Dataset.from_dict(
        {"sentence": ["good .", "bad ."], "label": [1, 0], "idx": [10, 11]},
        features=datasets.Features(
            {
                "sentence": datasets.Value("string"),
                "label": datasets.ClassLabel(names=["negative", "positive"]),
                "idx": datasets.Value("int32"),
            }
        ),
    )
    assert pair_examples_from_hub(sst2, TASKS["sst2"]) == [
        {"id": "10", "text_a": "good .", "text_b": None, "label": "1"},
        {"id": "11", "text_a": "bad .", "text_b": None, "label": "0"},
    ]
    stsb = datasets.Dataset.from_dict(
        {"sentence1": ["A."], "sentence2": ["B."], "label": [3.8], "idx": [0]}
    )
    [example] = pair_examples_from_hub(stsb, TASKS["stsb"])
    assert example["label"] == pytest.approx(3.8)
    assert example["text_b"] == "B."


def test_glue_hub_locations() -> None:
    from mte.steps.data import hub_location

    assert hub_location(TASKS["mnli_mm"], "en", "dev") == ("nyu-mll/glue", "mnli")
    assert TASKS["mnli_mm"].hub_splits["dev"] == "validation_mismatched"
    assert hub_location(TASKS["cola"], "en", "train") == ("nyu-mll/glue", "cola")
    assert hub_location(TASKS["tatoeba"], "zh", "test") == ("google/xtreme", "tatoeba.cmn")
    assert hub_location(TASKS["bucc"], "ru", "dev") == ("google/xtreme", "bucc18.ru")
