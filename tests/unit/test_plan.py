"""The plan of a run (mte.config.plan): its records hold the checked config's values, every
option's default is the schema's and written nowhere else, and the folder keys digest the
records as the workflow names its folders."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from mte.config.plan import Tokenization, build_plan
from mte.config.plan.files import RunFiles
from mte.config.plan.inputs import JobInputs
from mte.config.schema import load_schema, with_schema_defaults

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schema.yaml"


def _plan(tasks: dict, **more) -> object:
    config = {
        "models": [{"name": "m", "source": "tiny"}],
        "tasks": tasks,
        "settings": ["zero-shot"],
        "seeds": [1],
        **more,
    }
    return build_plan(with_schema_defaults(config, SCHEMA))


def _schema_default(task: str, option: str):
    """The default the schema gives ``option`` in ``task``'s entry (its family's $defs)."""
    schema = load_schema(SCHEMA)
    definition = schema["properties"]["tasks"]["properties"][task]["$ref"].rsplit("/", 1)[1]
    node = schema["$defs"][definition]
    found = _find_default(node, option, schema)
    assert found is not _MISSING, f"the schema gives {task}.{option} no default"
    return found


_MISSING = object()


def _find_default(node, option, schema):
    """``option``'s default in a $defs entry, its allOf parts and $refs included."""
    if isinstance(node, dict):
        if "$ref" in node:
            found = _find_default(schema["$defs"][node["$ref"].rsplit("/", 1)[1]], option, schema)
            if found is not _MISSING:
                return found
        properties = node.get("properties") or {}
        if option in properties and "default" in properties[option]:
            return properties[option]["default"]
        for part in node.get("allOf") or ():
            found = _find_default(part, option, schema)
            if found is not _MISSING:
                return found
    return _MISSING


@pytest.mark.parametrize(
    ("task", "option", "planned"),
    [
        ("squad", "doc_stride", lambda t: t.tokenization.doc_stride),
        ("squad", "windows", lambda t: t.tokenization.windows),
        ("squad", "do_lower_case", lambda t: t.tokenization.do_lower_case),
        ("panx", "label_subword", lambda t: t.tokenization.label_subword),
        ("tatoeba", "layers", lambda t: list(t.layers)),
        ("tatoeba", "batch_size", lambda t: t.batch_size),
        ("squad", "max_length", lambda t: t.tokenization.max_length),
    ],
)
def test_an_option_left_out_is_planned_at_the_schemas_default(task, option, planned) -> None:
    """Each option the tokenize and retrieve jobs read, left out of the config, reaches the
    plan as the schema's default (read from config/schema.yaml here, never written in code)."""
    tasks = {task: {"source": "hub"}}
    if task == "squad":
        tasks["xquad"] = {"source": "hub"}
    plan = _plan(tasks)
    if option == "max_length":
        hyperparameters = _find_default(
            load_schema(SCHEMA)["$defs"]["qa_hyperparameters"], "max_length", load_schema(SCHEMA)
        )
        assert planned(plan.task(task)) == hyperparameters
        return
    assert planned(plan.task(task)) == _schema_default(task, option)


def test_run_squad_windows_cut_the_question_at_the_schemas_default() -> None:
    tasks = {"squad": {"source": "hub", "windows": "run_squad"}, "xquad": {"source": "hub"}}
    plan = _plan(tasks)
    default = _schema_default("squad", "max_query_length")
    assert plan.task("squad").tokenization.max_query_length == default
    # XQuAD reads SQuAD's windows: its features are cut the same way
    assert plan.task("xquad").tokenization == plan.task("squad").tokenization
    # run_qa windows keep the whole question: the option does not apply, and names no folder
    run_qa = _plan({"squad": {"source": "hub"}, "xquad": {"source": "hub"}})
    assert run_qa.task("squad").tokenization.max_query_length is None


def test_the_encoder_default_is_the_pretrained_model_and_tokenization_the_papers() -> None:
    plan = _plan({"tatoeba": {"source": "hub"}})
    assert _schema_default("tatoeba", "encoder") == "pretrained"
    assert plan.task("tatoeba").encoder is None
    top = load_schema(SCHEMA)["properties"]["tokenization"]["default"]
    assert plan.tokenization == top
    assert plan.task("tatoeba").tokenization.tokenization == top


# the options whose defaults code once restated, and the route they took
RESTATED = ("doc_stride", "windows", "max_query_length", "label_subword", "layers", "encoder",
            "tokenization", "do_lower_case", "batch_size", "num_beams", "max_length")  # fmt: skip


def test_no_code_restates_a_default_of_the_schema() -> None:
    """``.get("<option>", <value>)`` in the workflow's code would be a second default: the
    schema fills every one of these before any job, so the code reads them as they are."""
    options = "|".join(RESTATED)
    # a look-up with a fallback, or a parameter with a default value (None aside)
    lookup = rf'\.get\(\s*"({options})"\s*,\s*(?!None\b)[^)]'
    # batch sizes and lengths other than the config's are parameters of their own too (an
    # embedding batch): the parameters are held to the options' own names
    named = "|".join(option for option in RESTATED if option not in ("batch_size", "max_length"))
    parameter = rf"^\s*({named}): [\w |.\[\]]+ = (?!None\b|field\()"
    pattern = re.compile(f"{lookup}|{parameter}")
    files = [REPO / "Snakefile", *sorted((REPO / "workflow").rglob("*.smk"))]
    # the hub's loaders keep a library's defaults (a tokenizer as it comes): they are called
    # outside a run too, and a run passes its plan's values
    files += [
        path
        for path in sorted((REPO / "workflow" / "scripts").rglob("*.py"))
        if "hub" not in path.relative_to(REPO / "workflow" / "scripts").parts
    ]
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert found == []


def test_a_tokenization_option_enters_the_folder_key_by_being_a_field() -> None:
    """Every field of the record is named in the features' key, less the values its metadata
    leaves out (so that folders made before an option existed keep their names)."""
    record = _plan({"panx": {"source": "hub"}}).task("panx").tokenization
    fields = {field.name: field for field in dataclasses.fields(Tokenization)}
    assert set(record.options()) == set(fields)
    named = {
        name: getattr(record, name)
        for name, field in fields.items()
        if getattr(record, name) not in field.metadata.get("named_unless", ())
    }
    assert record.key_payload() == named
    # PAN-X under the schema's defaults: its window, its label's sub-token, no QA stride
    schema = load_schema(SCHEMA)
    window = _find_default(schema["$defs"]["tagging_hyperparameters"], "max_length", schema)
    label = _schema_default("panx", "label_subword")
    assert named == {"max_length": window, "label_subword": label, "doc_stride": None}
    changed = dataclasses.replace(record, do_lower_case=True, tokenization="fast")
    assert changed.key_payload() == {**named, "do_lower_case": True, "tokenization": "fast"}


def test_the_plan_is_frozen_and_typed() -> None:
    plan = _plan({"xnli": {"source": "demo", "languages": ["en", "de"]}})
    xnli = plan.task("xnli")
    assert xnli.languages == ("en", "de") and xnli.settings == ("zero-shot",)
    assert xnli.seeds == (1,) and xnli.owner == "xnli" and xnli.models_of == ""
    with pytest.raises(dataclasses.FrozenInstanceError):
        xnli.languages = ("fr",)
    with pytest.raises(TypeError):
        xnli.hyperparameters["epochs"] = 1


class _CountingTasks(dict):
    """The registry's task table, counting each look-up by name."""

    def __init__(self, tasks) -> None:
        super().__init__(tasks)
        self.reads: dict[str, int] = {}

    def __getitem__(self, name):
        self.reads[name] = self.reads.get(name, 0) + 1
        return super().__getitem__(name)


@pytest.mark.parametrize(
    "tasks, expected",
    [
        ({"xnli": {"source": "demo", "languages": ["en", "de"]}}, {"xnli": 1}),
        # XQuAD's tokenisation is SQuAD's: one read of each, not one per question asked
        ({"squad": {"source": "hub"}, "xquad": {"source": "hub"}}, {"squad": 2, "xquad": 1}),
    ],
)
def test_the_plan_resolves_each_task_s_spec_once(monkeypatch, tasks, expected) -> None:
    """Building the plan looks each task up in the registry once and hands the spec on (the
    plan of e49bf7f looked XNLI's name up 26 times here, XQuAD's 36 and SQuAD's 14: once per
    question asked of a task's config), and the plan's own questions afterwards (a fine-tune's
    splits) read none."""
    from mte import registry

    config = with_schema_defaults(
        {"models": [{"name": "m", "source": "tiny"}], "tasks": tasks,
         "settings": ["zero-shot", "translate-train"], "seeds": [1]},
        SCHEMA,
    )  # fmt: skip
    counting = _CountingTasks(registry.TASKS)
    monkeypatch.setattr(registry, "TASKS", counting)
    plan = build_plan(config)
    assert counting.reads == expected
    name = next(iter(tasks))
    plan.training_splits(name, "zero-shot", None)
    plan.evaluation_split(name, "zero-shot", "de")
    assert counting.reads == expected


def test_xquad_plans_squads_fine_tune_and_reads_its_model() -> None:
    plan = _plan({"squad": {"source": "hub"}, "xquad": {"source": "hub", "languages": ["de"]}})
    xquad = plan.task("xquad")
    assert xquad.owner == "squad" and xquad.hyperparameters == plan.task("squad").hyperparameters
    inputs = JobInputs(plan, RunFiles(plan))
    job = SimpleNamespace(model="m", task="xquad", setting="zero-shot", seed=1, lang="de")
    model = inputs.finetuned_model(job)
    assert model == f"results/m/squad/{plan.variant_key('squad')}/zero-shot/seed1/model"
    assert inputs.evaluated_features(job) == (
        f"results/m/xquad/features/{plan.tokens_key('xquad')}/de/{xquad.eval_split}/features.pt"
    )


def test_every_shipped_config_plans() -> None:
    """The paper configs build their plans (a dry run reads them the same way)."""
    for name in ("config.yaml", "xtreme.yaml", "xtreme-r.yaml", "xlmr.yaml", "llm.yaml"):
        config = yaml.safe_load((REPO / "config" / name).read_text(encoding="utf-8"))
        plan = build_plan(with_schema_defaults(config, SCHEMA))
        assert set(plan.tasks) == set(config["tasks"]), name


def _inputs(tasks: dict, **more) -> JobInputs:
    plan = _plan(tasks, **more)
    return JobInputs(plan, RunFiles(plan))


def test_each_setting_predicts_with_its_own_fine_tune() -> None:
    """translate-test reads the zero-shot model and the translated test set (English: its own
    test set); in-language has a model per language, English's own; retrieval its encoder."""
    files = {"source": "files", "path": "/x", "eval_split": "test"}
    translations = {"source": "files", "path": "/t"}
    inputs = _inputs(
        {"xnli": {**files, "languages": ["en", "de"], "translations": translations}},
        settings=["zero-shot", "translate-test", "in-language"],
    )
    plan, variant = inputs.plan, inputs.plan.variant_key("xnli")
    run = f"results/m/xnli/{variant}"

    def job(setting: str, lang: str) -> SimpleNamespace:
        return SimpleNamespace(model="m", task="xnli", setting=setting, seed=1, lang=lang)

    assert inputs.finetuned_model(job("translate-test", "de")) == f"{run}/zero-shot/seed1/model"
    assert inputs.evaluated_split(job("translate-test", "de")) == "translate-test"
    assert inputs.evaluated_split(job("translate-test", "en")) == "test"
    assert inputs.finetuned_model(job("in-language", "de")) == f"{run}/in-language/seed1/model/de"
    data = f"resources/data/xnli/{plan.data_key('xnli')}"
    assert inputs.evaluated_gold(job("translate-test", "de")) == f"{data}/de/translate-test.jsonl"
    # in-language trains and selects on the language's own data
    features = inputs.training_features("train")(job("in-language", "de"))
    assert features == [f"results/m/xnli/features/{plan.tokens_key('xnli')}/de/train/features.pt"]


def test_bucc_reads_its_dev_gold_and_a_pooled_task_its_pool() -> None:
    inputs = _inputs(
        {
            "bucc": {"source": "hub", "languages": ["de"]},
            "lareqa": {"source": "hub", "languages": ["de", "ar"]},
        }
    )
    bucc = SimpleNamespace(model="m", task="bucc", setting="zero-shot", seed=1, lang="de")
    assert inputs.dev_gold(bucc).endswith("/de/dev.jsonl")
    assert list(inputs.retrieval_data(SimpleNamespace(**vars(bucc), variant="v"))) == [
        "dev",
        inputs.plan.task("bucc").eval_split,
    ]
    lareqa = SimpleNamespace(model="m", task="lareqa", setting="zero-shot", seed=1, lang="de")
    pooled = inputs.retrieval_data(SimpleNamespace(**vars(lareqa), variant="v"))
    assert pooled["pool_index"] == "results/m/lareqa/v/zero-shot/seed1/pool/index.json"
    # the pool: every configured language's evaluated split, in the config's order
    pool = inputs.pool_data(lareqa)
    assert [path.split("/")[-2] for path in pool] == ["de", "ar"]
    assert inputs.dev_gold(lareqa) == []
    options = inputs.retrieval_options(lareqa)
    assert options["layers"] == _schema_default("lareqa", "layers")
    assert options["tokenization"] == inputs.plan.tokenization
