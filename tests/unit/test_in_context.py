"""The in-context setting's step (mte.steps.prompting), its score's length-normalised figure,
its tables' notes and the per-language gap figure, against values worked out by hand. The
log-likelihoods themselves are lm-evaluation-harness's (tests/unit/test_prompting.py); the
whole setting runs in tests/workflow/test_settings_side_by_side.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from mte.errors import InputError, MteError
from mte.modelling.hyperparameters import HyperParameters
from mte.registry import TASKS
from mte.steps.plots import language_gaps
from mte.steps.prompting import choice_records, load_causal_lm, prompted_records
from mte.steps.scoring import score_record
from mte.tables.notes import in_context_note, method_note, score_method
from tests.unit.test_lora import LORA_HP

STATISTICS = {"resamples": 200, "seed": 7, "confidence": 0.95}


def test_choice_records_name_the_tasks_labels_or_the_choice_index() -> None:
    scored = [
        {"id": "1", "loglikelihoods": [-1.0, -2.0, -3.0], "label": 0, "label_norm": 2, "gold": 1}
    ]
    (xnli,) = choice_records(TASKS["xnli"], scored)
    assert xnli["label"] == "entailment"
    assert xnli["label_norm"] == "contradiction"
    assert xnli["gold"] == "neutral"
    # softmax of (-1, -2, -3): e^0, e^-1, e^-2 over their sum
    total = 1 + math.exp(-1) + math.exp(-2)
    assert xnli["probabilities"] == pytest.approx(
        {
            "entailment": 1 / total,
            "neutral": math.exp(-1) / total,
            "contradiction": math.exp(-2) / total,
        },
        abs=1e-6,
    )
    (xcopa,) = choice_records(TASKS["xcopa"], [{**scored[0], "loglikelihoods": [-1.0, -2.0]}])
    assert (xcopa["label"], xcopa["label_norm"], xcopa["gold"]) == (0, 2, 1)


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_the_score_has_the_length_normalised_accuracy_beside_the_summed_one(tmp_path: Path) -> None:
    labels = ["entailment", "neutral", "contradiction", "entailment"]
    gold = _jsonl(
        tmp_path / "gold.jsonl",
        [
            {"id": str(i), "text_a": "a", "text_b": "b", "label": label}
            for i, label in enumerate(labels)
        ],
    )
    # summed: 3 of 4 right (the last wrong); per character: 2 of 4 (the first and third wrong)
    chosen = ["entailment", "neutral", "contradiction", "neutral"]
    normalised = ["neutral", "neutral", "entailment", "entailment"]
    predictions = _jsonl(
        tmp_path / "predictions.jsonl",
        [
            {"id": str(i), "label": c, "label_norm": n}
            for i, (c, n) in enumerate(zip(chosen, normalised, strict=True))
        ],
    )
    run = {"model": "m", "setting": "in-context", "seed": 1, "language": "de"}
    record = score_record(TASKS["xnli"], predictions, gold, run, "test", STATISTICS)
    assert record["metrics"]["accuracy"] == 0.75
    assert record["length_normalised"]["metrics"]["accuracy"] == 0.5
    interval = record["length_normalised"]["interval"]
    assert interval["low"] <= 0.5 <= interval["high"]
    # a fine-tune's predictions have no label_norm: no second figure
    plain = _jsonl(
        tmp_path / "plain.jsonl", [{"id": str(i), "label": c} for i, c in enumerate(chosen)]
    )
    assert "length_normalised" not in score_record(
        TASKS["xnli"], plain, gold, run, "test", STATISTICS
    )


def test_an_encoder_is_not_prompted(tiny_model: Path) -> None:
    with pytest.raises(MteError, match="needs a decoder language model, and this is a bert"):
        load_causal_lm(tiny_model)


def test_more_shots_than_training_examples_names_the_file(tmp_path: Path, tiny_qwen2: Path) -> None:
    train = _jsonl(
        tmp_path / "train.jsonl", [{"id": "1", "text_a": "a", "text_b": "b", "label": "neutral"}]
    )
    options = {"shots": 2, "batch_size": 2, "max_new_tokens": 4}
    with pytest.raises(InputError, match=r"train\.jsonl: 2 demonstrations asked for"):
        prompted_records(TASKS["xnli"], tiny_qwen2, train, train, options, seed=1)


def test_zero_shots_read_no_training_data(tmp_path: Path, tiny_qwen2: Path) -> None:
    test = _jsonl(
        tmp_path / "test.jsonl", [{"id": "1", "text_a": "a", "text_b": "b", "label": "neutral"}]
    )
    options = {"shots": 0, "batch_size": 2, "max_new_tokens": 4}
    (record,) = prompted_records(
        TASKS["xnli"], tiny_qwen2, tmp_path / "absent.jsonl", test, options, 1
    )
    assert record["id"] == "1" and record["label"] in TASKS["xnli"].labels


def _score(model: str, setting: str, provenance: dict, **more) -> dict:
    return {"model": model, "setting": setting, "provenance": provenance, **more}


def test_the_notes_and_the_leaderboard_name_each_rows_method() -> None:
    lora = {
        "rank": 4,
        "alpha": 8,
        "dropout": 0.0,
        "target_modules": "all-linear",
        "learning_rate": 4e-4,
    }
    in_context = {"shots": 5, "batch_size": 8, "max_new_tokens": 32, "prompt_source": "ours"}
    scores = [
        _score("xlmr", "zero-shot", {"training": {"hyperparameters": {}}}),
        _score("qwen", "zero-shot-lora", {"training": {"lora": lora}}),
        _score("qwen", "in-context", {"in_context": in_context},
               length_normalised={"metrics": {"accuracy": 0.40}}),
        _score("qwen", "in-context", {"in_context": in_context},
               length_normalised={"metrics": {"accuracy": 0.50}}),
        _score("tatoeba", "zero-shot", {}),
    ]  # fmt: skip
    assert [score_method(s) for s in scores] == [
        "full fine-tune", "LoRA r4", "in context, 5-shot", "in context, 5-shot", "pretrained",
    ]  # fmt: skip
    assert method_note(scores) == (
        "Fine-tuned with LoRA (the other fine-tunes every weight): qwen, zero-shot-lora: rank 4, "
        "alpha 8, dropout 0.0, all-linear, learning rate 0.0004."
    )
    note = in_context_note(scores, "accuracy")
    assert note.startswith("In context (nothing trained): 5 English demonstrations")
    # (40 + 50) / 2
    assert "accuracy qwen 45.0, the mean over languages and seeds" in note
    assert note.endswith("Prompt: ours.")
    assert in_context_note(scores[:2], "accuracy") is None


def test_a_lora_fine_tune_trains_at_its_own_learning_rate() -> None:
    hp = HyperParameters.from_config({**LORA_HP, "lora": {"rank": 8, "learning_rate": 4e-4}})
    assert hp.peak_learning_rate == 4e-4
    assert HyperParameters.from_config({**LORA_HP, "lora": {"rank": 8}}).peak_learning_rate == 3e-3
    # a full fine-tune ignores the lora block's rate
    full = HyperParameters.from_config(
        {**LORA_HP, "method": "full", "lora": {"learning_rate": 1.0}}
    )
    assert full.peak_learning_rate == 3e-3


def _gap_score(setting: str, language: str, accuracy: float, replicates: list[float]) -> dict:
    return {
        "model": "m", "setting": setting, "task": "xnli", "language": language, "seed": 1,
        "metrics": {"accuracy": accuracy},
        "interval": {"metric": "accuracy", "replicates": replicates, "confidence": 0.5},
    }  # fmt: skip


def test_gaps_per_language_are_english_minus_the_language_per_setting() -> None:
    scores = [
        _gap_score("zero-shot", "en", 0.80, [0.8, 0.7, 0.9, 0.8]),
        _gap_score("zero-shot", "de", 0.60, [0.6, 0.6, 0.5, 0.7]),
        _gap_score("zero-shot", "ar", 0.50, [0.5, 0.5, 0.5, 0.5]),
        _gap_score("in-context", "en", 0.40, [0.4, 0.4, 0.4, 0.4]),
        _gap_score("in-context", "de", 0.45, [0.45, 0.45, 0.45, 0.45]),
    ]
    table, whiskers = language_gaps(scores)
    assert table.loc["de", "m, zero-shot"] == pytest.approx(20.0)
    assert table.loc["ar", "m, zero-shot"] == pytest.approx(30.0)
    assert table.loc["de", "m, in-context"] == pytest.approx(-5.0)
    # zero-shot de: replicate gaps 20, 10, 40, 10 points; the 50% interval is the 25th to the
    # 75th percentile (numpy's linear interpolation): 10 and 25
    below, above = whiskers["m, zero-shot"]["de"]
    assert (20.0 - below, 20.0 + above) == pytest.approx((10.0, 25.0))
    assert math.isnan(table.loc["ar", "m, in-context"])


def test_a_classification_prompts_choices_follow_its_tasks_labels() -> None:
    """choice_records names choice i by the task's label i: each prompt's right answer for an
    example of label L must be L's place among the task's labels."""
    prompted = [task for task in TASKS.values() if task.prompt is not None and task.prompt.choices]
    classified = [task for task in prompted if task.family != "multiple_choice"]
    assert sorted(task.name for task in classified) == ["pawsx", "xnli"]
    for task in classified:
        for index, label in enumerate(task.labels):
            example = {"text_a": "a", "text_b": "b", "label": label}
            assert task.prompt.answer(example) == index
            assert len(task.prompt.choices(example)) == len(task.labels)
