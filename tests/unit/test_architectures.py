"""What a model's architecture serves (mte.modelling.architectures), read from config.json: the
dual encoder's pooling of each architecture, the encoder an encoder-decoder embeds with, and
the refusals, each before any job (the plan) or before any fine-tune (the check_model job)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mte.config.checks import check_configuration
from mte.errors import ConfigError
from mte.modelling.architectures import (
    ENCODER,
    check_architecture,
    dual_encoder_pooling,
    encoder_class,
    refusal,
)
from mte.registry import TASKS, model_need
from mte.steps.models import check_model_folder

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schema.yaml"


@pytest.mark.parametrize(
    "config, pooling",
    [
        # a pooler (dense and tanh over the first token) where the base model's class has one
        ({"model_type": "bert"}, "pooler"),
        ({"model_type": "xlm-roberta"}, "pooler"),
        ({"model_type": "rembert"}, "pooler"),
        # none: the first token, which their own sequence classifiers read
        ({"model_type": "deberta-v2"}, "cls"),
        ({"model_type": "electra"}, "cls"),
        ({"model_type": "distilbert"}, "cls"),
        # an encoder-decoder's encoder: its mean; a decoder: its last real token
        ({"model_type": "mt5", "is_encoder_decoder": True}, "mean"),
        ({"model_type": "mt5", "is_encoder_decoder": False}, "mean"),
        ({"model_type": "llama"}, "last"),
    ],
)
def test_a_dual_encoder_pools_each_architecture_by_what_it_has(config, pooling) -> None:
    assert dual_encoder_pooling(config) == pooling


def test_an_encoder_decoder_embeds_with_its_encoder_alone(tmp_path: Path) -> None:
    import transformers

    (tmp_path / "config.json").write_text('{"model_type": "mt5", "is_encoder_decoder": true}')
    assert encoder_class(tmp_path) is transformers.AutoModelForTextEncoding
    (tmp_path / "config.json").write_text('{"model_type": "deberta-v2"}')
    assert encoder_class(tmp_path) is transformers.AutoModel


def test_every_new_encoder_serves_every_head() -> None:
    heads = {model_need(TASKS[name]) for name in ("xnli", "panx", "squad", "siqa", "lareqa")}
    assert heads == {
        "AutoModelForSequenceClassification", "AutoModelForTokenClassification",
        "AutoModelForQuestionAnswering", "AutoModelForMultipleChoice", ENCODER,
    }  # fmt: skip
    for model_type in ("deberta-v2", "rembert", "electra", "distilbert", "mt5", "llama"):
        config = {"model_type": model_type, "is_encoder_decoder": model_type == "mt5"}
        assert [refusal(config, need) for need in sorted(heads)] == [None] * len(heads)


def test_a_model_type_transformers_does_not_know_is_refused_with_the_task_and_model() -> None:
    config = {"model_type": "my-own-encoder"}
    with pytest.raises(ConfigError) as caught:
        check_architecture(config, "mine", [("xnli", model_need(TASKS["xnli"]))])
    message = str(caught.value)
    assert "config key 'tasks.xnli'" in message
    assert "model 'mine' (my-own-encoder) cannot run xnli" in message
    assert "does not know its model type 'my-own-encoder'" in message


def test_a_head_transformers_lacks_without_a_stand_in_is_refused() -> None:
    """A token classifier has no stand-in (multiple choice and QA fall back to a sequence
    classifier and a span head): a model type without one is refused for tagging."""
    marian = {"model_type": "marian", "is_encoder_decoder": True}
    why = refusal(marian, "AutoModelForTokenClassification")
    assert why is not None and why.endswith("has no token classifier for model type 'marian'")
    assert "neither a multiple-choice head nor a sequence classifier" in refusal(
        marian, "AutoModelForMultipleChoice"
    )
    # mT5 has no multiple-choice class but a sequence classifier: its choices are scored by it
    assert refusal({"model_type": "mt5"}, "AutoModelForMultipleChoice") is None


def _local_config(model_dir: Path, tasks: dict) -> dict:
    return {
        "models": [{"name": "mine", "source": "local", "path": str(model_dir)}],
        "tasks": tasks,
    }


def test_the_plan_refuses_a_local_folder_before_any_job(tmp_path: Path) -> None:
    """A local folder's config.json is read while the plan is built: the first task its
    architecture cannot serve is one ConfigError naming the task, the model and why."""
    (tmp_path / "config.json").write_text('{"model_type": "my-own-encoder"}')
    config = _local_config(tmp_path, {"xnli": {"source": "demo"}})
    with pytest.raises(ConfigError, match=r"model 'mine' \(my-own-encoder\) cannot run xnli"):
        check_configuration(config, SCHEMA)


def test_the_check_job_refuses_a_hub_model_with_the_plans_message(tmp_path: Path) -> None:
    """A hub model's config.json is first seen after its preparation: the check_model job
    raises the same ConfigError, before any fine-tune reads the model."""
    (tmp_path / "config.json").write_text('{"model_type": "my-own-encoder"}')
    with pytest.raises(ConfigError, match=r"model 'hubbed' \(my-own-encoder\) cannot run panx"):
        check_model_folder(tmp_path, "hubbed", [["panx", "AutoModelForTokenClassification"]])
    (tmp_path / "config.json").write_text('{"model_type": "electra"}')
    record = check_model_folder(tmp_path, "hubbed", [["panx", "AutoModelForTokenClassification"]])
    assert record == {
        "model": "hubbed",
        "model_type": "electra",
        "served": [("panx", "AutoModelForTokenClassification")],
    }


def test_the_check_asks_only_for_what_a_model_runs(tmp_path: Path) -> None:
    """A task a model only prompts (in-context) asks nothing of its heads: the plan's per-task
    needs are what a hub model's check_model job checks config.json against."""
    from mte.config.plan import build_plan
    from mte.config.schema import with_schema_defaults

    config = with_schema_defaults(
        {
            "models": [{"name": "m", "source": "tiny", "settings": ["in-context"]},
                       {"name": "n", "source": "tiny"}],
            "tasks": {"xnli": {"source": "demo"}, "tatoeba": {"source": "demo"}},
        },
        SCHEMA,
    )  # fmt: skip
    plan = build_plan(config)
    assert plan.architecture_needs("m", "xnli") == []
    assert plan.architecture_needs("m", "tatoeba") == []
    assert plan.architecture_needs("n", "xnli") == [("xnli", "AutoModelForSequenceClassification")]
    assert plan.architecture_needs("n", "tatoeba") == [("tatoeba", ENCODER)]
