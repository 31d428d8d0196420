"""Fine-tuning on the tiny model: a killed run resumes from its checkpoint to the same weights."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file
from transformers import AutoTokenizer

import mte.modelling.heads
import mte.modelling.trainer
import mte.steps.finetune
from mte.families.pairs.features import tokenize_pairs
from mte.families.pairs.readers import read_pair_tsv
from mte.modelling.features import load_features, save_features
from mte.modelling.hyperparameters import HyperParameters
from mte.registry import TASKS
from mte.steps.data import demo_dir
from mte.steps.finetune import finetune

XNLI = TASKS["xnli"]
HP = {
    "learning_rate": 1e-3,
    "epochs": 2,
    "batch_size": 16,
    "eval_batch_size": 32,
    "max_length": 64,
    "warmup_ratio": 0.1,
    "weight_decay": 0.01,
    "max_grad_norm": 1.0,
    "freeze_word_embeddings": False,
    "checkpoint_every_steps": 5,
    # what the schema fills in for every family
    "warmup_steps": None,
    "model_selection": "best_dev",
    "dev_languages": "training",
}


def hyper(**changes) -> HyperParameters:
    """HP with ``changes``, as the workflow's script builds it from the config."""
    return HyperParameters.from_config({**HP, **changes})


@pytest.fixture(scope="module")
def feature_files(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    out = tmp_path_factory.mktemp("features")
    paths = {}
    for split in ("train", "dev"):
        examples = read_pair_tsv(demo_dir(XNLI) / f"{split}-en.tsv", XNLI)
        paths[split] = out / f"{split}.pt"
        save_features(tokenize_pairs(tokenizer, examples, XNLI, 64), paths[split])
    return paths


def test_features_keep_labels_and_count_truncation(tiny_model: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    examples = [
        {"id": "a", "text_a": "A man sleeps.", "text_b": "He rests.", "label": "entailment"},
        {"id": "b", "text_a": "word " * 200, "text_b": "other " * 10, "label": "contradiction"},
    ]
    features = tokenize_pairs(tokenizer, examples, XNLI, 32)
    assert features["ids"] == ["a", "b"]
    assert features["labels"] == [0, 2]
    assert features["truncated"] == 1
    assert len(features["input_ids"][1]) == 32
    assert len(features["input_ids"][0]) < 32


def _weights(folder: Path) -> dict[str, torch.Tensor]:
    return load_file(folder / "model.safetensors")


def test_resume_after_a_kill_reaches_the_same_weights(
    tiny_model: Path,
    feature_files: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    args = dict(
        model_dir=tiny_model,
        train_paths=[feature_files["train"]],
        dev_paths=[feature_files["dev"]],
    )
    straight = finetune(
        **args, out_dir=tmp_path / "a", checkpoint_dir=tmp_path / "ca", hp=hyper(), seed=3
    )
    assert [h["epoch"] for h in straight["history"]] == [1, 2]
    # the written folder is a whole Hugging Face model: its tokenizer is the base model's
    base, written = (
        AutoTokenizer.from_pretrained(tiny_model),
        AutoTokenizer.from_pretrained(tmp_path / "a"),
    )
    assert (
        written.pad_token_id == base.pad_token_id == load_features(feature_files["train"])["pad_id"]
    )
    text = "Ein Mann schläft. A man sleeps."
    assert written(text)["input_ids"] == base(text)["input_ids"]
    assert not (tmp_path / "ca").exists()  # checkpoints go once the model is written

    calls = {"n": 0}
    real_collate = mte.modelling.heads.collate

    def dying_collate(*a, **k):
        calls["n"] += 1
        if calls["n"] == 9:  # in step 9, after the checkpoint of step 5
            raise KeyboardInterrupt("killed")
        return real_collate(*a, **k)

    monkeypatch.setattr(mte.modelling.heads, "collate", dying_collate)
    with pytest.raises(KeyboardInterrupt):
        finetune(**args, out_dir=tmp_path / "b", checkpoint_dir=tmp_path / "cb", hp=hyper(), seed=3)
    assert (tmp_path / "cb" / "checkpoint.pt").is_file()
    monkeypatch.setattr(mte.modelling.heads, "collate", real_collate)
    with caplog.at_level(logging.INFO, logger="mte.modelling.trainer"):
        resumed = finetune(
            **args, out_dir=tmp_path / "b", checkpoint_dir=tmp_path / "cb", hp=hyper(), seed=3
        )
    assert "resuming from checkpoint at step 5" in caplog.text
    assert resumed["history"] == straight["history"]
    a, b = _weights(tmp_path / "a"), _weights(tmp_path / "b")
    assert a.keys() == b.keys()
    assert all(torch.equal(a[name], b[name]) for name in a)


def test_a_checkpoint_of_other_settings_is_not_resumed(
    tiny_model: Path, feature_files: dict[str, Path], tmp_path: Path, caplog
) -> None:
    args = dict(
        model_dir=tiny_model,
        train_paths=[feature_files["train"]],
        dev_paths=[feature_files["dev"]],
        checkpoint_dir=tmp_path / "c",
    )
    (tmp_path / "c").mkdir()
    torch.save({"signature": "other"}, tmp_path / "c" / "checkpoint.pt")
    with caplog.at_level(logging.INFO, logger="mte.modelling.trainer"):
        finetune(**args, out_dir=tmp_path / "m", hp=hyper(epochs=1), seed=1)
    assert "ignoring a checkpoint made with other settings" in caplog.text
    assert load_features(feature_files["dev"])["label_names"] == list(XNLI.labels)


def test_sigterm_saves_a_checkpoint_at_the_current_step_and_stops(
    tiny_model: Path,
    feature_files: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A scheduler's SIGTERM (time limit, preemption, scancel) in step 7: the job saves step 7,
    not only the periodic step 5, exits with 128 + 15, and the rerun resumes there to the
    weights of an uninterrupted run."""
    import os
    import signal

    args = dict(
        model_dir=tiny_model,
        train_paths=[feature_files["train"]],
        dev_paths=[feature_files["dev"]],
    )
    straight = finetune(
        **args, out_dir=tmp_path / "a", checkpoint_dir=tmp_path / "ca", hp=hyper(), seed=4
    )
    calls = {"n": 0}
    real_collate = mte.modelling.heads.collate

    def signalled_collate(*a, **k):
        calls["n"] += 1
        if calls["n"] == 7:
            os.kill(os.getpid(), signal.SIGTERM)
        return real_collate(*a, **k)

    monkeypatch.setattr(mte.modelling.heads, "collate", signalled_collate)
    with pytest.raises(SystemExit) as stopped:
        finetune(**args, out_dir=tmp_path / "b", checkpoint_dir=tmp_path / "cb", hp=hyper(), seed=4)
    assert stopped.value.code == 128 + signal.SIGTERM
    # the handler is removed again: SIGTERM is back to its default
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    saved = torch.load(tmp_path / "cb" / "checkpoint.pt", weights_only=False)
    assert saved["state"]["step"] == 7
    monkeypatch.setattr(mte.modelling.heads, "collate", real_collate)
    with caplog.at_level(logging.INFO, logger="mte.modelling.trainer"):
        resumed = finetune(
            **args, out_dir=tmp_path / "b", checkpoint_dir=tmp_path / "cb", hp=hyper(), seed=4
        )
    assert "resuming from checkpoint at step 7" in caplog.text
    assert resumed["history"] == straight["history"]
    a, b = _weights(tmp_path / "a"), _weights(tmp_path / "b")
    assert all(torch.equal(a[name], b[name]) for name in a)


class _ScriptedDevScores:
    """A head whose dev scores follow a script and which keeps the weights it was asked to
    score, so that a test can tell which epoch's weights were written."""

    def __init__(self, head, scores: list[float]) -> None:
        self._head, self._scores, self.weights = head, list(scores), []

    def __getattr__(self, name: str):
        return getattr(self._head, name)

    def predict(self, model, *args, **kwargs):
        self.weights.append({k: v.clone() for k, v in model.state_dict().items()})
        return self._head.predict(model, *args, **kwargs)

    def dev_score(self, features, predicted) -> float:
        return self._scores.pop(0)


def _with_scripted_dev_scores(
    scores: list[float],
    settings: dict,
    tiny_model: Path,
    feature_files: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[dict, list[dict[str, torch.Tensor]]]:
    """A fine-tune whose dev evaluations score ``scores`` in turn; its record and the weights
    each evaluation saw."""
    import mte.registry

    heads = []

    def scripted_head_for(features):
        heads.append(_ScriptedDevScores(mte.registry.head_for(features), scores))
        return heads[-1]

    monkeypatch.setattr(mte.steps.finetune, "head_for", scripted_head_for)
    record = _fine_tune(tiny_model, feature_files, tmp_path, settings)
    return record, heads[0].weights


def _fine_tune(model: Path, feature_files: dict[str, Path], tmp_path: Path, settings: dict):
    """The demo's English pairs, seed 5, HP with ``settings``, into ``tmp_path``/m."""
    return finetune(
        model_dir=model,
        train_paths=[feature_files["train"]],
        dev_paths=[feature_files["dev"]],
        out_dir=tmp_path / "m",
        checkpoint_dir=tmp_path / "c",
        hp=hyper(**settings),
        seed=5,
    )


@pytest.mark.parametrize(
    ("scores", "selection", "selected"),
    [
        ([0.9, 0.1, 0.5], "best_dev", 1),
        ([0.1, 0.2, 0.5], "best_dev", 3),
        # XTREME's QA recipe keeps the final model whatever the dev curve says
        ([0.9, 0.1, 0.5], "last", 3),
    ],
)
def test_the_epoch_with_the_best_dev_score_is_written(
    tiny_model: Path,
    feature_files: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    scores: list[float],
    selection: str,
    selected: int,
) -> None:
    """Model selection: an earlier epoch's weights come back from its saved copy; the last
    epoch's are the model's own."""
    record, weights = _with_scripted_dev_scores(
        scores, {"epochs": 3, "model_selection": selection}, tiny_model, feature_files, tmp_path,
        monkeypatch,
    )  # fmt: skip
    assert record["selected"]["epoch"] == selected
    assert [h["dev_score"] for h in record["history"]] == scores
    written = _weights(tmp_path / "m")
    at_epoch = weights[selected - 1]
    assert all(torch.equal(written[name], at_epoch[name]) for name in written)
    # the epochs' weights differ, so the comparison tells them apart
    assert not torch.equal(weights[0]["classifier.weight"], weights[2]["classifier.weight"])


@pytest.mark.parametrize(
    ("selection", "scores", "steps", "selected"),
    [
        # 28 steps (14 an epoch): scored after steps 5, 10, 15, 20 and 25 only, as XTREME's
        # --save_steps scores; the tie at step 15 does not replace step 10 (a strict >)
        ("best_dev", [0.2, 0.7, 0.7, 0.3, 0.1], [5, 10, 15, 20, 25], 10),
        ("best_dev", [0.2, 0.3, 0.4, 0.5, 0.6], [5, 10, 15, 20, 25], 25),
        # the final model is kept: its own dev score is noted after the last step
        ("last", [0.9, 0.1, 0.1, 0.1, 0.1, 0.2], [5, 10, 15, 20, 25, 28], 28),
    ],
)
def test_selection_every_n_steps_keeps_the_best_scored_step(
    tiny_model: Path,
    feature_files: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    selection: str,
    scores: list[float],
    steps: list[int],
    selected: int,
) -> None:
    # whether the model trains (dropout on) at every step, evaluations mid-epoch included
    modes = []
    real_context = mte.modelling.trainer.first_token_last_layer

    def recording_context(model):
        modes.append(model.training)
        return real_context(model)

    monkeypatch.setattr(mte.modelling.trainer, "first_token_last_layer", recording_context)
    with caplog.at_level(logging.INFO):
        record, weights = _with_scripted_dev_scores(
            scores, {"selection_every_steps": 5, "model_selection": selection}, tiny_model,
            feature_files, tmp_path, monkeypatch,
        )  # fmt: skip
    assert len(modes) == 28 and all(modes)
    # the console has a line per epoch; each evaluation is in the log
    epochs = [r.getMessage() for r in caplog.records if r.getMessage().startswith("epoch ")]
    assert len(epochs) == 2
    if selection == "best_dev":
        best = steps[scores.index(max(scores))]
        assert f"best {max(scores):.4f} at step {best}" in epochs[-1]
    steps_logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("step ")]
    assert len(steps_logged) == len(steps)
    assert [h["step"] for h in record["history"]] == steps
    assert [h["epoch"] for h in record["history"]] == [1 if s <= 14 else 2 for s in steps]
    assert record["selected"]["step"] == selected
    assert record["steps_per_epoch"] == 14
    written = _weights(tmp_path / "m")
    at_step = weights[steps.index(selected)]
    assert all(torch.equal(written[name], at_step[name]) for name in written)
    assert mte.steps.finetune.selection_summary(record) == (
        f"210 training inputs, 2 epochs, {len(steps)} dev evaluations; selected step "
        f"{selected} (epoch {1 if selected <= 14 else 2}) (dev score "
        f"{scores[steps.index(selected)]:.4f})"
    )


@pytest.mark.parametrize(
    ("settings", "scores", "steps"),
    [
        # 28 steps, 14 an epoch: step 9 is scored (its model kept) besides the epochs' ends
        ({"model_selection": "last"}, [0.5, 0.9, 0.1], [9, 14, 28]),
        # with dev scores every 3 steps, step 9's is one of them; the best (step 12) is not kept
        ({"selection_every_steps": 3}, [0.1, 0.2, 0.3, 0.9, 0.1, 0.1, 0.1, 0.1, 0.1],
         [3, 6, 9, 12, 15, 18, 21, 24, 27]),
    ],
)  # fmt: skip
def test_keep_step_keeps_the_model_after_that_step(
    tiny_model: Path,
    feature_files: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    settings: dict,
    scores: list[float],
    steps: list[int],
) -> None:
    """XTREME-R's LAReQA evaluates one checkpoint of its fine-tune: the weights after step 9
    are written whatever the dev scores or model_selection say."""
    record, weights = _with_scripted_dev_scores(
        scores, {**settings, "keep_step": 9}, tiny_model, feature_files, tmp_path, monkeypatch
    )
    assert [h["step"] for h in record["history"]] == steps
    assert record["selected"] == {"epoch": 1, "step": 9, "dev_score": scores[steps.index(9)]}
    written = _weights(tmp_path / "m")
    at_step = weights[steps.index(9)]
    assert all(torch.equal(written[name], at_step[name]) for name in written)
    assert not torch.equal(written["classifier.weight"], weights[-1]["classifier.weight"])


def test_keep_step_past_the_last_step_is_refused(
    tiny_model: Path, feature_files: dict[str, Path], tmp_path: Path
) -> None:
    from mte.errors import ConfigError

    with pytest.raises(ConfigError, match=r"hyperparameters\.keep_step.*past the 28 optimiser"):
        _fine_tune(tiny_model, feature_files, tmp_path, {"keep_step": 29})
    assert not (tmp_path / "m").exists()


def test_selection_every_more_steps_than_the_fine_tune_has_is_refused(
    tiny_model: Path, feature_files: dict[str, Path], tmp_path: Path
) -> None:
    from mte.errors import ConfigError

    with pytest.raises(ConfigError, match=r"tasks\.xnli\.hyperparameters\.selection_every_steps"):
        finetune(
            model_dir=tiny_model,
            train_paths=[feature_files["train"]],
            dev_paths=[feature_files["dev"]],
            out_dir=tmp_path / "m",
            checkpoint_dir=tmp_path / "c",
            hp=hyper(selection_every_steps=100),
            seed=5,
        )
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(("warmup", "expected"), [({}, 2), ({"warmup_steps": 500}, 500)])
def test_warm_up_steps_replace_the_ratio_even_past_the_last_step(
    tiny_model: Path,
    feature_files: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    warmup: dict,
    expected: int,
) -> None:
    """210 pairs at batch 16: 14 steps an epoch, 28 in all; a ratio of 0.1 warms up for 2.
    500 steps, as XTREME's QA recipe sets them, stay 500: its TyDiQA-GoldP run is shorter."""
    import transformers

    asked = []
    real = transformers.get_linear_schedule_with_warmup

    def recording(optimizer, warmup_steps, total_steps):
        asked.append((warmup_steps, total_steps))
        return real(optimizer, warmup_steps, total_steps)

    monkeypatch.setattr(transformers, "get_linear_schedule_with_warmup", recording)
    _fine_tune(tiny_model, feature_files, tmp_path, warmup)
    assert asked == [(expected, 28)]


SLOW_FINETUNE = """
import json, sys, time
import mte.steps.finetune, mte.modelling.heads
real_collate = mte.modelling.heads.collate
def slow_collate(*args, **kwargs):  # slow steps, so that the kill lands mid-epoch
    time.sleep(0.3)
    return real_collate(*args, **kwargs)
mte.modelling.heads.collate = slow_collate
from mte.modelling.hyperparameters import HyperParameters
job = json.loads(sys.argv[1])
mte.steps.finetune.finetune(**{**job, "hp": HyperParameters.from_config(job["hp"])})
"""


def test_sigkill_mid_epoch_resumes_from_the_last_checkpoint_to_the_same_weights(
    tiny_model: Path, feature_files: dict[str, Path], tmp_path: Path, caplog
) -> None:
    """A fine-tune killed outright (SIGKILL: no handler runs, as when a node dies or the
    memory limit is hit) resumes on rerun from its last periodic checkpoint and reaches the
    weights of an uninterrupted run with the same seed."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    args = dict(
        model_dir=str(tiny_model),
        train_paths=[str(feature_files["train"])],
        dev_paths=[str(feature_files["dev"])],
        hp=HP,
        seed=6,
    )
    straight = finetune(
        **{**args, "hp": hyper()}, out_dir=tmp_path / "a", checkpoint_dir=tmp_path / "ca"
    )
    job = {**args, "out_dir": str(tmp_path / "b"), "checkpoint_dir": str(tmp_path / "cb")}
    scripts = Path(mte.steps.finetune.__file__).parents[1]
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_FINETUNE, json.dumps(job)],
        env={**os.environ, "PYTHONPATH": str(scripts)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    checkpoint = tmp_path / "cb" / "checkpoint.pt"
    deadline = time.monotonic() + 120
    while not checkpoint.is_file() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # into the steps after the checkpoint
    process.send_signal(signal.SIGKILL)
    assert process.wait() == -signal.SIGKILL
    assert not (tmp_path / "b" / "model.safetensors").exists()
    saved = torch.load(checkpoint, weights_only=False)["state"]
    steps_per_epoch = straight["history"][0]["step"]
    assert saved["step"] % HP["checkpoint_every_steps"] == 0 and saved["step"] < steps_per_epoch
    with caplog.at_level(logging.INFO, logger="mte.modelling.trainer"):
        resumed = finetune(**{**job, "hp": hyper()})
    assert f"resuming from checkpoint at step {saved['step']}" in caplog.text
    assert resumed["history"] == straight["history"]
    a, b = _weights(tmp_path / "a"), _weights(tmp_path / "b")
    assert a.keys() == b.keys()
    assert all(torch.equal(a[name], b[name]) for name in a)


def test_the_new_task_head_is_explained_in_one_line_without_a_load_report(
    tiny_model: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture
) -> None:
    from mte.modelling.heads import load_with_new_head
    from mte.registry import head_for

    head = head_for({"task": XNLI.name})
    with caplog.at_level(logging.INFO):
        model = load_with_new_head(head, tiny_model, num_labels=3)
    assert model.config.num_labels == 3
    records = [r for r in caplog.records if r.name == "mte.modelling.heads"]
    assert len(records) == 1 and records[0].levelno == logging.INFO
    assert records[0].getMessage() == (
        "task head BertForSequenceClassification starts from random weights, as in every "
        "fine-tune (classifier.bias, classifier.weight)"
    )
    # transformers' coloured "LOAD REPORT" table is not printed
    captured = capsys.readouterr()
    assert "LOAD REPORT" not in captured.out + captured.err
    assert not any("LOAD REPORT" in r.getMessage() for r in caplog.records)


@pytest.fixture(scope="module")
def dropout_free(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model without dropout: its masks are drawn per forward pass, so batches of 8
    and of 32 would draw different ones; without them the two must train alike."""
    import json
    import shutil

    folder = tmp_path_factory.mktemp("no-dropout") / "model"
    shutil.copytree(tiny_model, folder)
    config = json.loads((folder / "config.json").read_text())
    config.update(hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def _train(model: Path, feature_files: dict[str, Path], out: Path, **settings) -> dict:
    precision = settings.pop("precision", "fp32")
    record = finetune(
        model_dir=model,
        train_paths=[feature_files["train"]],
        dev_paths=[feature_files["dev"]],
        out_dir=out,
        checkpoint_dir=out.with_name(out.name + "-checkpoints"),
        hp=hyper(checkpoint_every_steps=0, **settings),
        seed=3,
        precision=precision,
    )
    return {"record": record, "weights": _weights(out)}


def _largest_difference(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> float:
    return max((a[name] - b[name]).abs().max().item() for name in a)


def test_gradient_accumulation_of_8_x_4_trains_as_batches_of_32(
    dropout_free: Path, feature_files: dict[str, Path], tmp_path: Path
) -> None:
    """210 pairs: 7 optimiser steps an epoch either way (the last of 18 pairs: 8 + 8 + 2,
    each batch's loss weighted by its share); measured largest weight difference 6e-8."""
    whole = _train(dropout_free, feature_files, tmp_path / "32x1", batch_size=32)
    accumulated = _train(
        dropout_free, feature_files, tmp_path / "8x4", batch_size=8, gradient_accumulation_steps=4
    )
    assert len(whole["record"]["losses"]) == len(accumulated["record"]["losses"]) == 14
    assert _largest_difference(whole["weights"], accumulated["weights"]) < 1e-5
    for a, b in zip(whole["record"]["losses"], accumulated["record"]["losses"], strict=True):
        assert a == pytest.approx(b, abs=1e-5)
    # the comparison can tell batches apart: 8 x 1 takes 4 times the steps, other weights
    small = _train(dropout_free, feature_files, tmp_path / "8x1", batch_size=8)
    assert len(small["record"]["losses"]) == 54
    assert _largest_difference(whole["weights"], small["weights"]) > 1e-3


@pytest.mark.parametrize("precision", ["bf16", "fp16"])
def test_mixed_precision_fine_tunes_on_a_cpu_near_its_fp32_loss_curve(
    tiny_model: Path, feature_files: dict[str, Path], tmp_path: Path, precision: str
) -> None:
    """Autocast on the CPU (bf16; fp16 with its gradient scaler): the run ends with a model,
    its dev evaluations and the precision recorded; each step's training loss stays within
    0.01 of fp32's (measured: at most 1e-4 for bf16 over the 28 steps)."""
    full = _train(tiny_model, feature_files, tmp_path / "fp32", learning_rate=3e-3)
    mixed = _train(
        tiny_model, feature_files, tmp_path / precision, learning_rate=3e-3, precision=precision
    )
    assert full["record"]["precision"] == "fp32"
    assert mixed["record"]["precision"] == precision
    assert len(mixed["record"]["history"]) == 2
    losses = zip(full["record"]["losses"], mixed["record"]["losses"], strict=True)
    assert max(abs(a - b) for a, b in losses) < 0.01
    # the weights stay fp32
    assert {w.dtype for w in mixed["weights"].values()} == {torch.float32}


def test_bf16_fine_tuning_of_e5_small_follows_its_fp32_loss_curve(
    e5_model: Path, tmp_path: Path
) -> None:
    """The real model on the first 64 of the demo's English training pairs (4 steps; bf16 is
    emulated on a CPU without it, so each step is slow) and 32 dev pairs, fp32 and bf16
    autocast on the CPU: every step's loss within 0.01 of fp32's (measured over two epochs of
    all 210 pairs: at most 2.6e-4, 6.5e-5 on average, the same dev scores)."""
    tokenizer = AutoTokenizer.from_pretrained(e5_model)
    paths = {}
    for split, kept in (("train", 64), ("dev", 32)):
        examples = read_pair_tsv(demo_dir(XNLI) / f"{split}-en.tsv", XNLI)[:kept]
        paths[split] = tmp_path / f"{split}.pt"
        save_features(tokenize_pairs(tokenizer, examples, XNLI, 128), paths[split])
    settings = dict(
        epochs=1, learning_rate=5e-5, max_length=128, freeze_word_embeddings=True, weight_decay=0.0
    )
    runs = {
        precision: _train(e5_model, paths, tmp_path / precision, precision=precision, **settings)
        for precision in ("fp32", "bf16")
    }
    assert len(runs["fp32"]["record"]["losses"]) == 4
    losses = zip(runs["fp32"]["record"]["losses"], runs["bf16"]["record"]["losses"], strict=True)
    assert max(abs(a - b) for a, b in losses) < 0.01
    assert runs["bf16"]["record"]["precision"] == "bf16"


def _groups(model: torch.nn.Module) -> tuple[set[str], set[str]]:
    """The names of the parameters AdamW decays and spares."""
    decay, spare = mte.modelling.trainer.parameter_groups(model, 0.01)
    names = {id(p): name for name, p in model.named_parameters()}
    return {names[id(p)] for p in decay["params"]}, {names[id(p)] for p in spare["params"]}


def test_weight_decay_spares_biases_and_every_normalisation_layer(
    tiny_model: Path, tiny_llama: Path
) -> None:
    from transformers import AutoModelForSequenceClassification

    # BERT: exactly XTREME's rule, no_decay = ["bias", "LayerNorm.weight"]
    bert = AutoModelForSequenceClassification.from_pretrained(tiny_model, num_labels=3)
    decay, spare = _groups(bert)
    names = [name for name, _ in bert.named_parameters()]
    assert spare == {n for n in names if n.endswith("bias") or "LayerNorm.weight" in n}
    assert decay == set(names) - spare
    # Llama: its RMSNorm gains (named *layernorm and norm, not LayerNorm) are spared too
    llama = AutoModelForSequenceClassification.from_pretrained(tiny_llama, num_labels=3)
    decay, spare = _groups(llama)
    layers = llama.config.num_hidden_layers
    norms = {"model.norm.weight"} | {
        f"model.layers.{i}.{kind}.weight"
        for i in range(layers)
        for kind in ("input_layernorm", "post_attention_layernorm")
    }
    assert norms <= spare
    assert all(name.endswith("bias") for name in spare - norms)
    assert not any("norm" in name for name in decay)
