"""Config checks: each bad config stops with one message naming its key."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from mte.config.as_written import check_shared_finetunes
from mte.config.checks import check_config as _check_config
from mte.config.plan.resolve import needed_splits, task_languages
from mte.config.schema import check_schema, fill_schema_defaults
from mte.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schema.yaml"


def check_config(config: dict) -> list:
    """The checks as the workflow runs them: after the schema has filled the defaults (into
    ``config``, which the test then reads as the workflow would)."""
    fill_schema_defaults(config, SCHEMA)
    return _check_config(config)


BASE = {
    "models": [{"name": "m", "source": "tiny"}],
    "tasks": {"xnli": {"source": "demo", "eval_split": "test"}},
    "settings": ["zero-shot"],
    "seeds": [1],
}


def _with(**changes) -> dict:
    config = copy.deepcopy(BASE)
    for dotted, value in changes.items():
        node = config
        *parents, last = dotted.split("__")
        for key in parents:
            node = node[key]
        node[last] = copy.deepcopy(value)
    return config


def test_languages_default_to_the_source() -> None:
    assert task_languages("xnli", BASE) == ["en", "de", "es", "ru", "zh", "ar"]
    hub = _with(tasks__xnli__source="hub")
    assert len(task_languages("xnli", hub)) == 15
    assert needed_splits("xnli", _with(tasks__xnli__languages=["en", "de"])) == [
        ("en", "train"),
        ("en", "dev"),
        ("en", "test"),
        ("de", "test"),
    ]


@pytest.mark.parametrize(
    ("config", "key", "message"),
    [
        (
            _with(tasks={"xnlii": {"source": "demo"}}),
            "tasks.xnlii",
            "unknown task 'xnlii'; did you mean 'xnli'? (known tasks: ",
        ),
        (
            _with(tasks__xnli__languages=["en", "xx"]),
            "tasks.xnli.languages",
            "'xx' is not a language of XNLI",
        ),
        (
            _with(tasks__xnli__languages=["en", "fr"]),
            "tasks.xnli.languages",
            "the demo data of XNLI has no 'fr'",
        ),
        (
            _with(tasks__xnli={"source": "files", "path": "/nonexistent", "eval_split": "test"}),
            "tasks.xnli.path",
            "the folder /nonexistent does not exist (give the folder that holds the released "
            "files: docs/running.md, 'Running on local files')",
        ),
        (
            # the folder is there, the file is not
            _with(tasks__xnli={"source": "files", "path": "/", "eval_split": "test"}),
            "tasks.xnli.path",
            "no train file for XNLI language 'en'",
        ),
        (_with(settings=["translate-everything"]), "settings", "unknown setting"),
        (_with(models=[{"name": "m", "source": "hub"}]), "models.m.id", "needs 'id'"),
        (
            _with(models=[{"name": "m", "source": "tiny"}, {"name": "m", "source": "tiny"}]),
            "models",
            "used 2 times",
        ),
    ],
)
def test_semantic_errors(config: dict, key: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        from mte.registry import get_task

        for name in config["tasks"]:
            get_task(name)
        check_config(config)
    assert caught.value.key == key
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("config", "key"),
    [
        (_with(tasks__xnli__hyperparameters={"epochs": 0}), "tasks.xnli.hyperparameters.epochs"),
        (
            _with(tasks__xnli__hyperparameters={"learning_rate": -1.0}),
            "tasks.xnli.hyperparameters.learning_rate",
        ),
        (_with(models=[{"name": "m", "source": "ftp"}]), "models.m.source"),
        (_with(seeds=[1, 1]), "seeds"),
        (_with(tasks__xnli__eval_split="validation"), "tasks.xnli.eval_split"),
    ],
)
def test_schema_errors_name_the_key(config: dict, key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        check_schema(config, SCHEMA)
    assert caught.value.key == key


def test_settings_are_checked_per_task() -> None:
    conll = {"source": "hub", "eval_split": "test", "settings": ["zero-shot", "in-language"]}
    config = _with(tasks={"conll": conll})
    config["tasks"]["conll"]["languages"] = ["en", "es"]
    check_config(config)
    assert needed_splits("conll", config) == [
        ("en", "train"),
        ("en", "dev"),
        ("es", "train"),
        ("es", "dev"),
        ("en", "test"),
        ("es", "test"),
    ]
    with pytest.raises(ConfigError) as caught:
        check_config(_with(settings=["in-language"], tasks={"mrpc": {"source": "hub"}}))
    assert caught.value.key == "settings"
    assert "MRPC has no data for setting 'in-language'" in str(caught.value)
    # the demo XNLI has English training data only
    with pytest.raises(ConfigError, match="no train file for XNLI language 'de'"):
        check_config(_with(settings=["in-language"]))
    german = _with(tasks={"conll": {**conll, "languages": ["de"]}})
    with pytest.raises(ConfigError, match="'de' is not on the Hugging Face hub"):
        check_config(german)


def test_subsets_take_first_or_last() -> None:
    from mte.steps.data import take_subset

    rows = [{"id": str(i)} for i in range(5)]
    first, record = take_subset(rows, {"first": 2})
    assert [r["id"] for r in first] == ["0", "1"] and record == {"first": 2}
    last, record = take_subset(rows, {"last": 2})
    assert [r["id"] for r in last] == ["3", "4"] and record == {"last": 2}
    # a split with fewer examples than asked for keeps them all, and its record says how many
    # (a subset of PAN-X languages, yo having 100)
    every, record = take_subset(rows, {"first": 9})
    assert every == rows and record == {"first": 9, "kept": 5}
    assert take_subset(rows, {"last": 5}) == (rows, {"last": 5})


def test_qa_stride_must_leave_room_in_the_window() -> None:
    qa = {
        "source": "hub",
        "eval_split": "test",
        "doc_stride": 128,
        "hyperparameters": {"max_length": 128},
    }
    with pytest.raises(ConfigError) as caught:
        check_config(_with(tasks={"squad": qa, "xquad": {"source": "hub", "eval_split": "test"}}))
    assert caught.value.key == "tasks.squad.doc_stride"
    gxlt = _with(tasks={"mlqa_gxlt": {"source": "hub", "eval_split": "test"}})
    with pytest.raises(ConfigError, match="configure tasks.squad too"):
        check_config(gxlt)


def test_squad_is_one_fine_tune_for_the_tasks_that_evaluate_it() -> None:
    """XQuAD, MLQA and G-XLT evaluate one SQuAD fine-tune: SQuAD's splits are read once, the
    evaluating tasks read only their evaluation sets, and SQuAD alone is nothing to run."""
    hub = {"source": "hub", "eval_split": "test"}
    config = _with(tasks={"squad": hub, "xquad": hub, "mlqa": {**hub, "languages": ["de"]}})
    check_config(config)
    assert needed_splits("squad", config) == [("en", "train"), ("en", "dev")]
    assert needed_splits("mlqa", config) == [("de", "test")]
    with pytest.raises(ConfigError, match="training set only: configure a task") as caught:
        check_config(_with(tasks={"squad": hub}))
    assert caught.value.key == "tasks.squad"


@pytest.mark.parametrize("key", ["hyperparameters", "doc_stride"])
def test_a_task_evaluating_another_tasks_fine_tune_cannot_set_its_own(key: str) -> None:
    value = {"epochs": 1} if key == "hyperparameters" else 64
    config = {"tasks": {"squad": {}, "xquad": {key: value}}}
    with pytest.raises(ConfigError, match="set tasks.squad." + key) as caught:
        check_shared_finetunes(config)
    assert caught.value.key == f"tasks.xquad.{key}"
    check_shared_finetunes({"tasks": {"squad": {key: value}, "xquad": {}}})


def test_tydiqa_trains_on_its_own_english_set() -> None:
    config = _with(tasks={"tydiqa": {"source": "hub", "eval_split": "test", "languages": ["fi"]}})
    check_config(config)
    assert needed_splits("tydiqa", config) == [("en", "train"), ("en", "dev"), ("fi", "test")]


TRANSLATION_FILES = {"source": "files", "path": "/nowhere"}


@pytest.mark.parametrize(
    ("config", "key", "message"),
    [
        (
            _with(settings=["translate-train"]),
            "tasks.xnli.translations",
            "'translate-train' needs machine translations",
        ),
        (
            _with(tasks__xnli__pseudo_test=True),
            "tasks.xnli.translations",
            "'pseudo-test' needs machine translations",
        ),
        (
            _with(
                settings=["translate-test"],
                tasks__xnli__translations={"source": "model"},
            ),
            "tasks.xnli.translations.model",
            "source 'model' needs 'model'",
        ),
        (
            _with(settings=["translate-test"], tasks__xnli__translations=TRANSLATION_FILES),
            "tasks.xnli.translations.path",
            "no translate-test file for XNLI language 'de' (looked for: "
            "/nowhere/translate-test/test-de-en-translated.tsv)",
        ),
        (
            _with(
                settings=["translate-train"],
                tasks={
                    "panx": {
                        "source": "hub",
                        "translations": {"source": "model", "model": "facebook/nllb"},
                    }
                },
            ),
            "tasks.panx.translations.source",
            "tags or answer spans cannot be carried through a translation model",
        ),
        (
            _with(settings=["translate-train"], tasks={"mrpc": {"source": "hub"}}),
            "settings",
            "MRPC has no translated data for 'translate-train'",
        ),
        (
            _with(statistics={"baseline": {"model": "other", "setting": "zero-shot"}}),
            "statistics.baseline.model",
            "'other' is not a configured model",
        ),
    ],
)
def test_translation_settings_need_their_data(config: dict, key: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        check_config(config)
    assert caught.value.key == key
    assert message in str(caught.value)


def test_translated_splits_are_needed_where_the_settings_read_them() -> None:
    config = _with(
        settings=["zero-shot", "translate-train", "translate-test"],
        tasks__xnli__languages=["en", "de"],
        tasks__xnli__translations={"source": "model", "model": "facebook/nllb"},
        tasks__xnli__pseudo_test=True,
    )
    check_config(config)
    assert needed_splits("xnli", config) == [
        ("en", "train"),
        ("en", "dev"),
        ("de", "translate-train"),
        ("en", "test"),
        ("de", "test"),
        ("de", "translate-test"),
        ("de", "pseudo-test"),
    ]


def _checked(config: dict) -> dict:
    """``config`` (its tasks at least) as the workflow reads it: the schema's defaults filled,
    the demo's model, setting and seed where it names none."""
    from mte.config.schema import with_schema_defaults

    base = {key: value for key, value in BASE.items() if key != "tasks"}
    return with_schema_defaults({**base, **config}, SCHEMA)


def _keys(task: str, config: dict) -> tuple[str, str, str]:
    from mte.config.plan.keys import data_key, tokens_key, variant_key

    checked = _checked(config)
    return data_key(task, checked), tokens_key(task, checked), variant_key(task, checked)


def test_results_folders_part_what_differs_and_share_what_agrees() -> None:
    """Runs of different configs write a task's data, features and fine-tunes to folders named
    by what decides them: the demo's XNLI and a folder's never share one, a new learning rate
    gets new fine-tunes but keeps the features, and languages, settings and seeds (folders of
    their own below) change nothing."""
    hp = {"max_length": 128, "learning_rate": 2e-5}
    demo = {"tasks": {"xnli": {"source": "demo", "hyperparameters": hp}}}
    data, tokens, variant = _keys("xnli", demo)
    assert data == "demo" and tokens.startswith("demo-") and variant.startswith("demo-")
    folder = {"tasks": {"xnli": {"source": "files", "path": "/data/xnli", "hyperparameters": hp}}}
    other_folder = copy.deepcopy(folder)
    other_folder["tasks"]["xnli"]["path"] = "/data/xnli-1.0"
    assert _keys("xnli", folder)[0].startswith("files-")
    assert len({_keys("xnli", c)[0] for c in (demo, folder, other_folder)}) == 3
    hub = _keys("xnli", {"tasks": {"xnli": {"source": "hub"}}})[0]
    assert hub.startswith("hub-")
    pinned = {"tasks": {"xnli": {"source": "hub", "revision": "abc"}}}
    assert _keys("xnli", pinned)[0].startswith("hub-") and _keys("xnli", pinned)[0] != hub

    faster = copy.deepcopy(demo)
    faster["tasks"]["xnli"]["hyperparameters"]["learning_rate"] = 5e-5
    assert _keys("xnli", faster)[:2] == (data, tokens) and _keys("xnli", faster)[2] != variant
    shorter = copy.deepcopy(demo)
    shorter["tasks"]["xnli"]["hyperparameters"]["max_length"] = 64
    assert _keys("xnli", shorter)[1] != tokens
    more = copy.deepcopy(demo)
    more["tasks"]["xnli"].update(languages=["en", "de"], settings=["zero-shot"], pseudo_test=True)
    more["seeds"] = [1, 2, 3]
    assert _keys("xnli", more) == (data, tokens, variant)


def test_a_new_pin_or_protocol_version_in_the_spec_is_new_data(monkeypatch) -> None:
    """The data folder holds what the source pins: the hub commit a spec reads, a release's
    checksums, the task's protocol version; a change to any of them is new data, and so new
    features and fine-tunes (their folders start with the data's)."""
    import dataclasses

    from mte.registry import TASKS

    hub = {"tasks": {"xnli": {"source": "hub"}}}
    before = _keys("xnli", hub)
    xnli = TASKS["xnli"]
    repinned = dataclasses.replace(xnli.hub_repos[0], revision="0" * 40)
    monkeypatch.setitem(TASKS, "xnli", dataclasses.replace(xnli, hub_repos=(repinned,)))
    after = _keys("xnli", hub)
    assert after[0] != before[0] and after[1].startswith(after[0]) and after[2] != before[2]
    monkeypatch.setitem(TASKS, "xnli", dataclasses.replace(xnli, version=2))
    assert _keys("xnli", hub)[0] not in (before[0], after[0])
    # a release: its checksums
    from mte.config.plan.keys import data_key

    release = _checked({"tasks": {"xquad": {"source": "release"}}})
    first = data_key("xquad", release)
    xquad = TASKS["xquad"]
    files = (dataclasses.replace(xquad.release.files[0], sha256="1" * 64), *xquad.release.files[1:])
    other = dataclasses.replace(xquad.release, files=files)
    monkeypatch.setitem(TASKS, "xquad", dataclasses.replace(xquad, release=other))
    assert first.startswith("release-") and data_key("xquad", release) != first


def test_a_task_evaluating_a_shared_fine_tune_follows_it() -> None:
    """XQuAD's folder names SQuAD's fine-tune: another SQuAD recipe, another XQuAD folder."""
    config = {
        "tasks": {
            "squad": {"source": "hub", "doc_stride": 128, "hyperparameters": {"max_length": 384}},
            "xquad": {"source": "hub"},
        }
    }
    before = _keys("xquad", config)
    config["tasks"]["squad"]["hyperparameters"]["epochs"] = 3
    after = _keys("xquad", config)
    assert before[:2] == after[:2] and before[2] != after[2]
    config["tasks"]["squad"]["doc_stride"] = 64
    assert _keys("xquad", config)[1] != after[1]


def test_lower_casing_names_the_features_of_the_fine_tune_and_its_evaluators() -> None:
    """XTREME's --do_lower_case is SQuAD's (the fine-tune's) setting: it gives SQuAD's and
    XQuAD's features a folder of their own; left false it names no folder anew."""
    config = {
        "tasks": {
            "squad": {"source": "hub", "doc_stride": 128, "hyperparameters": {"max_length": 384}},
            "xquad": {"source": "hub"},
        }
    }
    cased = {task: _keys(task, config) for task in ("squad", "xquad")}
    config["tasks"]["squad"]["do_lower_case"] = False
    assert {task: _keys(task, config) for task in ("squad", "xquad")} == cased
    config["tasks"]["squad"]["do_lower_case"] = True
    for task in ("squad", "xquad"):
        assert _keys(task, config)[0] == cased[task][0]
        assert _keys(task, config)[1] != cased[task][1]
        assert _keys(task, config)[2] != cased[task][2]


def test_a_spec_selection_metric_names_its_fine_tunes_folder() -> None:
    """UD-POS models are selected on seqeval F1, not on the accuracy they once were: their
    folder says so, where PAN-X's (selected on its primary metric) is named as before."""
    from mte.config.plan.keys import _digest, data_key, tokens_params

    config = _checked({"tasks": {t: {"source": "hub", "hyperparameters": {"epochs": 1}} for t in
                                 ("udpos", "panx")}})  # fmt: skip
    for task, extra in (("udpos", {"selection_metric": "seqeval_f1"}), ("panx", {})):
        hp = config["tasks"][task]["hyperparameters"]
        assert hp["epochs"] == 1
        decided_by = {"tokens": tokens_params(task, config), "hyperparameters": hp}
        expected = f"{data_key(task, config)}-{_digest({**decided_by, **extra})}"
        assert _keys(task, config)[2] == expected


def test_lower_casing_is_set_on_the_fine_tune_not_on_its_evaluators() -> None:
    from mte.config.as_written import check_shared_finetunes

    with pytest.raises(ConfigError, match=r"tasks\.xquad\.do_lower_case.*tasks\.squad"):
        check_shared_finetunes({"tasks": {"squad": {}, "xquad": {"do_lower_case": True}}})


def test_run_name() -> None:
    from mte.config.plan.keys import run_name

    assert run_name({"run": "paper"}, ["config/xtreme.yaml"]) == "paper"
    assert run_name({}, ["config/xtreme.yaml"]) == "xtreme"
    assert run_name({}, []) == "default"
    # a paper config run on another model from the command line: a run of its own
    other = {"model": "FacebookAI/xlm-roberta-base@e73636d4"}
    assert run_name(other, ["config/xtreme.yaml"]) == "xtreme-xlm-roberta-base"
    assert run_name({**other, "run": "xtreme-r"}, []) == "xtreme-r-xlm-roberta-base"


def test_one_model_on_the_command_line_replaces_the_models(tmp_path: Path) -> None:
    from mte.config.schema import expand_model_shorthand, model_of_shorthand

    assert model_of_shorthand("FacebookAI/xlm-roberta-base@e73636d4") == {
        "name": "xlm-roberta-base",
        "source": "hub",
        "id": "FacebookAI/xlm-roberta-base",
        "revision": "e73636d4",
    }
    assert "revision" not in model_of_shorthand("google-bert/bert-base-multilingual-cased")
    folder = tmp_path / "my model"
    folder.mkdir()
    (folder / "config.json").write_text("{}", encoding="utf-8")
    assert model_of_shorthand(str(folder)) == {
        "name": "my-model",
        "source": "local",
        "path": str(folder),
    }
    config = {"models": [{"name": "a", "source": "tiny"}, {"name": "b", "source": "tiny"}]}
    config["model"] = "org/c"
    expand_model_shorthand(config)
    assert config["models"] == [{"name": "c", "source": "hub", "id": "org/c"}]


def test_the_xlmr_papers_single_model_selects_on_every_languages_dev_set() -> None:
    from mte.config.plan.resolve import training_splits

    config = _with(tasks={"xnli": {"source": "hub", "languages": ["en", "de", "sw"]}})
    assert training_splits("xnli", "zero-shot", None, config)["dev"] == [("en", "dev")]
    config["tasks"]["xnli"]["hyperparameters"] = {"dev_languages": "all"}
    assert training_splits("xnli", "zero-shot", None, config) == {
        "train": [("en", "train")],
        "dev": [("en", "dev"), ("de", "dev"), ("sw", "dev")],
    }
    assert ("sw", "dev") in needed_splits("xnli", config)


def test_every_config_key_is_documented_in_config_readme() -> None:
    """config/README.md names every top-level key and every key of a task and of its
    hyper-parameters, so that no option exists that a user cannot read about."""
    import yaml

    schema = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))
    reference = (REPO / "config" / "README.md").read_text(encoding="utf-8")
    keys = list(schema["properties"])
    for definition, entry in schema["$defs"].items():
        if definition == "job_resources_override":
            continue  # mem_mb, runtime, gpu: documented once under resources
        keys += list(entry.get("properties") or {})
    missing = sorted(
        {key for key in keys if f"`{key}" not in reference and f".{key}`" not in reference}
    )
    assert not missing, f"config/README.md does not document: {missing}"


def test_lists_given_on_the_command_line_are_typed_as_in_a_config_file() -> None:
    from mte.config.schema import type_command_line_values

    # Snakemake's reading of --config seeds=[1,2] tasks={xnli:{...}}: every nested scalar a string
    given = {
        "seeds": ["1", "2"],
        "tasks": {"xnli": {"languages": ["en", "no", "nan"], "hyperparameters": {
            "learning_rate": "1e-5", "epochs": "3", "freeze_word_embeddings": "true"}}},
    }  # fmt: skip
    config = copy.deepcopy(given)
    config["tasks"]["pawsx"] = {"languages": ["de"]}  # from the config file: left as it is
    config["run"] = "from-file"
    type_command_line_values(config, given)
    assert config["seeds"] == [1, 2]
    xnli = config["tasks"]["xnli"]
    # Norwegian and Min Nan stay language codes; YAML 1.1 would read "no" as false
    assert xnli["languages"] == ["en", "no", "nan"]
    assert xnli["hyperparameters"] == {
        "learning_rate": 1e-5,
        "epochs": 3,
        "freeze_word_embeddings": True,
    }
    assert config["tasks"]["pawsx"] == {"languages": ["de"]} and config["run"] == "from-file"


def test_a_fine_tune_can_start_from_another_tasks_and_is_named_by_it() -> None:
    """``start_from``: MRPC's fine-tunes start from QQP's (a task of the same family and labels);
    their folder names QQP's fine-tune, so another QQP recipe gives MRPC another folder, and
    without the key MRPC's folder is the one of a fine-tune from the pretrained encoder."""
    from mte.config.plan.keys import variant_key
    from mte.config.plan.resolve import start_from

    hub = {"source": "hub"}
    config = _with(tasks={"qqp": {**hub}, "mrpc": {**hub, "start_from": "qqp"}})
    check_schema(config, SCHEMA)
    check_config(config)
    assert start_from("mrpc", config) == "qqp" and start_from("qqp", config) == ""
    chained = variant_key("mrpc", config)
    config["tasks"]["qqp"]["hyperparameters"]["epochs"] = 3
    assert variant_key("mrpc", config) != chained
    alone = _checked(_with(tasks={"qqp": {**hub}, "mrpc": {**hub}}))
    assert variant_key("mrpc", alone) not in (chained, variant_key("mrpc", config))
    # both read their own training data
    assert ("en", "train") in needed_splits("mrpc", config)


@pytest.mark.parametrize(
    ("tasks", "key", "message"),
    [
        ({"mrpc": {"start_from": "qqp"}}, "tasks.mrpc.start_from", "'qqp' is not another"),
        ({"mrpc": {"start_from": "mrpc"}}, "tasks.mrpc.start_from", "'mrpc' is not another"),
        (
            {"mrpc": {"start_from": "xnli"}, "xnli": {}},
            "tasks.mrpc.start_from",
            "same family with the same labels",
        ),
        (
            {"mrpc": {"start_from": "qqp"}, "qqp": {"start_from": "mrpc"}},
            "tasks.mrpc.start_from",
            "start from each other in a circle",
        ),
        (
            {"mrpc": {"models_of": "stsb"}, "stsb": {}},
            "tasks.mrpc.models_of",
            "same family with the same labels",
        ),
        (
            {"mrpc": {"models_of": "qqp"}, "qqp": {"models_of": "rte"}, "rte": {}},
            "tasks.mrpc.models_of",
            "fine-tunes nothing of its own",
        ),
    ],
)
def test_another_tasks_fine_tune_must_be_one_this_task_can_use(
    tasks: dict, key: str, message: str
) -> None:
    config = _with(tasks={name: {"source": "hub", **cfg} for name, cfg in tasks.items()})
    with pytest.raises(ConfigError, match=message) as caught:
        check_config(config)
    assert caught.value.key == key


def test_a_task_can_evaluate_another_configured_tasks_fine_tunes() -> None:
    """``models_of`` in the config: MRPC predicted by QQP's fine-tunes reads no training data,
    follows QQP's folder, and may not set the fine-tune's own keys."""
    from mte.config.plan.keys import variant_key
    from mte.config.plan.resolve import models_of

    hub = {"source": "hub"}
    config = _with(tasks={"qqp": {**hub}, "mrpc": {**hub, "models_of": "qqp"}})
    check_config(config)
    assert models_of("mrpc", config) == "qqp" and models_of("xquad", config) == "squad"
    assert needed_splits("mrpc", config) == [("en", "dev")]
    before = variant_key("mrpc", config)
    config["tasks"]["qqp"]["hyperparameters"]["epochs"] = 3
    assert variant_key("mrpc", config) != before
    for own in ("hyperparameters", "start_from"):
        raw = {"tasks": {"qqp": {}, "mrpc": {"models_of": "qqp", own: {"epochs": 1}}}}
        with pytest.raises(ConfigError, match="set tasks.qqp." + own) as caught:
            check_shared_finetunes(raw)
        assert caught.value.key == f"tasks.mrpc.{own}"


def test_all_takes_every_language_of_the_release_and_the_default_stays_the_papers() -> None:
    tatoeba = {"tatoeba": {"source": "files", "path": "."}}
    default = _with(tasks=tatoeba)
    # XTREME's 36 when the config names none: XTREME's average keeps its languages
    assert len(task_languages("tatoeba", default)) == 36
    every = _with(tasks={"tatoeba": {**tatoeba["tatoeba"], "languages": "all"}})
    languages = task_languages("tatoeba", every)
    # LASER's data/tatoeba/v1: 112 languages, each once
    assert len(languages) == len(set(languages)) == 112
    assert languages[:36] == task_languages("tatoeba", default)
    assert {"az", "lt", "pl", "uk", "ro", "yue", "kab"} <= set(languages)


def test_a_language_of_the_release_beyond_the_default_set_may_be_named() -> None:
    config = _with(tasks={"xquad": {"source": "files", "path": ".", "languages": ["en", "ro"]}})
    assert task_languages("xquad", config) == ["en", "ro"]


def test_a_languages_word_that_is_neither_all_nor_a_suite_of_the_task_is_refused() -> None:
    config = _with(tasks={"tatoeba": {"source": "files", "path": ".", "languages": "xtremer"}})
    with pytest.raises(ConfigError) as error:
        check_config(config)
    assert error.value.key == "tasks.tatoeba.languages"
    assert "'xtremer' is neither 'all' nor a suite with Tatoeba" in str(error.value)


def test_a_retrieval_encoder_is_another_tasks_zero_shot_fine_tune(tmp_path: Path) -> None:
    """``encoder``: Tatoeba embeds with SQuAD's fine-tunes (a training set only, used by it);
    LAReQA with the dual encoder's (squad_retrieval), its layers the pooler's; a task that is
    not configured, a pooled task with a model that is no dual encoder, a retrieval encoder,
    missing seeds and a dual encoder's layer other than the last are each one error naming
    the key; the encoder names the variant folder."""
    from mte.config.plan.keys import variant_key

    hub = {"source": "hub", "eval_split": "test"}
    tasks = {"squad": hub, "tatoeba": {**hub, "encoder": "squad"}}
    config = _with(tasks=tasks)
    check_config(config)
    pretrained = _with(tasks={"tatoeba": hub})
    check_config(pretrained)
    assert variant_key("tatoeba", config) != variant_key("tatoeba", pretrained)
    bad = {
        "mlqa": ({"tatoeba": {**hub, "encoder": "mlqa"}}, "neither 'pretrained' nor"),
        "pooled": (
            {"squad": hub, "lareqa": {**hub, "encoder": "squad"}},
            "the pretrained model or a dual encoder's fine-tune (mewslix_pairs, squad_retrieval)",
        ),
        "retrieval": ({"bucc": hub, "tatoeba": {**hub, "encoder": "bucc"}}, "no model of its own"),
        "seeds": (
            {"squad": {**hub, "seeds": [1]}, "tatoeba": {**hub, "encoder": "squad", "seeds": [2]}},
            "no model for seed(s) 2",
        ),
    }
    for name, (changed, message) in bad.items():
        with pytest.raises(ConfigError, match=re.escape(message)) as caught:
            check_config(_with(tasks=changed))
        assert caught.value.key.endswith(".encoder"), name
    from tests.workflow.tiny_data import write_xquad_r

    write_xquad_r(tmp_path / "lareqa")
    files = {"source": "files", "path": str(tmp_path / "lareqa"), "languages": ["en", "de"]}
    dual = {"squad_retrieval": hub, "lareqa": {**files, "encoder": "squad_retrieval"}}
    check_config(_with(tasks={**dual, "lareqa": {**dual["lareqa"], "layers": ["model"]}}))
    last_only = r"pooler over the last layer.*not \['model', 'xtreme'\]"
    with pytest.raises(ConfigError, match=last_only) as caught:
        check_config(_with(tasks=dual))
    assert caught.value.key == "tasks.lareqa.layers"


def test_fast_tokenization_names_new_features_and_retrievals() -> None:
    """tokenization: fast gives a task's features (and so its fine-tunes) and a retrieval's
    folder names of their own; paper, the default, names none anew."""
    config = {"tasks": {"xnli": {"source": "demo"}, "tatoeba": {"source": "demo"}}}
    default = {task: _keys(task, config) for task in ("xnli", "tatoeba")}
    assert {task: _keys(task, {**config, "tokenization": "paper"}) for task in default} == default
    fast = {**config, "tokenization": "fast"}
    assert _keys("xnli", fast)[0] == default["xnli"][0]
    assert _keys("xnli", fast)[1] != default["xnli"][1]
    assert _keys("xnli", fast)[2] != default["xnli"][2]
    assert _keys("tatoeba", fast)[2] != default["tatoeba"][2]


def test_xtreme_r_searches_lareqas_whole_pool() -> None:
    """config/xtreme-r.yaml's LAReQA pool is every one of XQuAD-R's 11 files, as XTREME-R's."""
    import yaml

    from mte.config.schema import with_schema_defaults

    paper = yaml.safe_load((REPO / "config" / "xtreme-r.yaml").read_text(encoding="utf-8"))
    config = with_schema_defaults(paper, SCHEMA)
    assert task_languages("lareqa", config) == sorted(
        ["ar", "de", "el", "en", "es", "hi", "ru", "th", "tr", "vi", "zh"]
    )


def test_xtreme_r_reads_lareqa_and_mewslix_lower_cased() -> None:
    """XTREME-R's train_lareqa.sh and train_mewslix.sh pass --do_lower_case for XLM-R, and its
    run_eval_*.sh again: the dual encoders' features are lower-cased (their tokens folder says
    so) and LAReQA and Mewsli-X read their texts as their encoder did; Tatoeba, embedding with
    SQuAD's QA fine-tune, does not, nor does a dual encoder without the key."""
    import yaml

    from mte.config.plan.keys import tokens_params
    from mte.config.plan.resolve import retrieval_lower_case
    from mte.config.schema import with_schema_defaults

    paper = yaml.safe_load((REPO / "config" / "xtreme-r.yaml").read_text(encoding="utf-8"))
    config = with_schema_defaults(paper, SCHEMA)
    assert tokens_params("squad_retrieval", config)["do_lower_case"] is True
    assert tokens_params("mewslix_pairs", config)["do_lower_case"] is True
    assert retrieval_lower_case("lareqa", config) is True
    assert retrieval_lower_case("mewslix", config) is True
    assert retrieval_lower_case("tatoeba", config) is False
    plain = {"tasks": {"squad_retrieval": {"source": "demo"}, "lareqa": {"source": "demo"}}}
    plain["tasks"]["lareqa"]["encoder"] = "squad_retrieval"
    plain = _checked(plain)
    assert retrieval_lower_case("lareqa", plain) is False
    assert "do_lower_case" not in tokens_params("squad_retrieval", plain)


def _xtreme_r_like() -> dict:
    """Mewsli-X and its dual encoder's pairs in a folder that does not exist, beside SQuAD's
    fine-tune and the XQuAD that evaluates it."""
    folder = {"source": "files", "path": "/nowhere/download/mewslix"}
    return _with(
        tasks={
            "squad": {"source": "hub"},
            "xquad": {"source": "hub"},
            "mewslix": {**folder, "encoder": "mewslix_pairs", "layers": ["model"]},
            "mewslix_pairs": dict(folder),
        }
    )


def test_a_task_awaiting_a_manual_step_is_one_note_naming_the_skip() -> None:
    from mte.config.as_written import awaited_steps

    (step,) = awaited_steps(_xtreme_r_like())
    assert step.tasks == ("mewslix", "mewslix_pairs")
    # the evaluated task is the one to skip: its training pairs go with it
    assert step.skip == ("mewslix",)
    message = step.message()
    assert message.startswith("Mewsli-X, Mewsli-X Wikipedia mention-entity pairs: ")
    assert "/nowhere/download/mewslix does not exist yet: build them with" in message
    assert message.count("--config skip_tasks=[mewslix]") == 1


def test_skipping_a_task_drops_the_training_sets_only_it_used() -> None:
    from mte.config.as_written import skip_tasks

    config = _xtreme_r_like()
    config["skip_tasks"] = ["mewslix"]
    assert skip_tasks(config) == ["mewslix", "mewslix_pairs"]
    assert sorted(config["tasks"]) == ["squad", "xquad"]
    # SQuAD is XQuAD's fine-tune: skipping XQuAD alone leaves SQuAD, which nothing else
    # evaluates, so it goes too
    config = _xtreme_r_like()
    config["skip_tasks"] = ["xquad"]
    assert skip_tasks(config) == ["xquad", "squad"]


@pytest.mark.parametrize(
    ("skipped", "message"),
    [
        (["mlqa"], "'mlqa' is not a configured task (configured: mewslix, mewslix_pairs,"),
        (["squad"], "XQuAD needs the fine-tunes of skipped 'squad' (tasks.xquad.models_of)"),
        (
            ["mewslix_pairs"],
            "Mewsli-X needs the fine-tunes of skipped 'mewslix_pairs' (tasks.mewslix.encoder)",
        ),
        (["mewslix", "xquad"], "every configured task is skipped: nothing to run"),
    ],
)
def test_a_skip_that_cannot_be_done_names_skip_tasks(skipped: list[str], message: str) -> None:
    from mte.config.as_written import skip_tasks

    config = _xtreme_r_like()
    config["skip_tasks"] = skipped
    with pytest.raises(ConfigError, match=re.escape(f"config key 'skip_tasks': {message}")):
        skip_tasks(config)
