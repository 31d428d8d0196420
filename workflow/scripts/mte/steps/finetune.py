"""Fine-tuning one run: the task's head from the registry, the pretrained (or another
task's fine-tuned) model under it, the trainer's loop (mte.modelling.trainer), the selected model
and its record written to the run's folder."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import torch

from mte.hub.models import copy_tokenizer, padding_id
from mte.io import read_json, write_json
from mte.modelling.device import autocast_dtype, precision_label, resolve_device
from mte.modelling.features import concat_features, load_features
from mte.modelling.heads import load_with_new_head
from mte.modelling.hyperparameters import HyperParameters
from mte.modelling.lora import lora_settings, with_lora
from mte.modelling.trainer import Trainer, signature
from mte.registry import head_for
from mte.steps.provenance import hardware


def finetune(
    model_dir: str | Path,
    train_paths: list[str | Path],
    dev_paths: list[str | Path],
    out_dir: str | Path,
    checkpoint_dir: str | Path,
    hp: HyperParameters,
    seed: int,
    device: str = "auto",
    precision: str = "auto",
    start_task: str = "",
) -> dict[str, Any]:
    """Fine-tune on the concatenated training features; keep the model with the best dev
    score (the task's selection metric on the concatenated dev features), or with
    ``model_selection: last`` the final model (XTREME's QA recipe keeps its final model); every
    dev evaluation is recorded either way. The dev set is scored at each epoch's end, or with
    ``selection_every_steps: N`` after every N-th optimiser step (XTREME's run_classify.py and
    run_tag.py: ``--save_steps N --save_only_best_checkpoint``), a later score replacing the
    kept one only when strictly higher.

    ``hp``, built once from the config (HyperParameters.from_config): learning_rate, epochs,
    batch_size, warmup_ratio (or warmup_steps, which wins when set), weight_decay,
    max_grad_norm, eval_batch_size, freeze_word_embeddings, checkpoint_every_steps,
    model_selection, selection_every_steps, gradient_accumulation_steps
    (an optimiser step sums the gradients of that many batches of ``batch_size``, each batch's
    mean loss weighted by its share of the step's examples: for a loss that is a mean over
    examples (classification, multiple choice, QA's start and end), 8 x 4 trains as 32 x 1 up
    to float rounding and dropout's draws; tagging's mean over labelled tokens is weighted as
    XTREME's loss / accumulation weights it when the batches are full; the schedule, warm-up,
    checkpoints and dev evaluations count optimiser steps). A checkpoint with the
    same signature (hyper-parameters, seed, training data, model) in ``checkpoint_dir`` is
    resumed from its exact step; the data order and dropout RNG are restored with it.
    ``device``: the config's ``device``; ``precision``: its ``training_precision`` - the
    forward passes of training and of the dev evaluations that select the model run under
    autocast to bf16 or fp16 (fp16 with a gradient scaler), or in fp32 (``auto``: bf16 on a GPU
    that has it, fp16 on an older one, fp32 on a CPU). Weights and optimiser states stay fp32.
    ``start_task``: the task whose fine-tune ``model_dir`` is, when the fine-tune starts from
    one (its hyper-parameters, seed and selected model go into the record), else "".
    """
    model_dir, out_dir, checkpoint_dir = Path(model_dir), Path(out_dir), Path(checkpoint_dir)
    train_paths = [Path(p) for p in train_paths]
    train = concat_features([load_features(p) for p in train_paths])
    dev = concat_features([load_features(p) for p in dev_paths])
    head = head_for(train)
    torch.manual_seed(seed)
    where = resolve_device(device)
    dtype = autocast_dtype(where, precision, "training_precision")
    model = load_with_new_head(
        head, model_dir, padding_id(train, model_dir), **head.label_config(train["label_names"])
    )
    if hp.uses_lora:
        model = with_lora(model, hp.lora)
    model.to(where)
    if hp.freeze_word_embeddings:
        model.get_input_embeddings().weight.requires_grad_(False)
    trainer = Trainer(model, head, train, dev, hp, seed, where, dtype, padding_id(train, model_dir))
    made_for = signature(hp, seed, train_paths, model_dir, precision_label(dtype))
    trainer.restore(checkpoint_dir, made_for)
    loop_seconds = trainer.run()
    out_dir.mkdir(parents=True, exist_ok=True)
    trainer.selected_model().save_pretrained(out_dir)
    copy_tokenizer(model_dir, out_dir)
    record = _record(trainer, loop_seconds, len(dev["ids"]), model_dir, start_task)
    if hp.uses_lora:
        # the adapter's folder holds no model: a prediction loads this one under it
        record["lora"] = lora_settings(hp.lora)
        record["adapter_of"] = str(model_dir)
        record["adapter_bytes"] = sum(p.stat().st_size for p in out_dir.glob("adapter_model.*"))
    write_json(out_dir / "training.json", record)
    shutil.rmtree(checkpoint_dir)
    return record


def _record(
    trainer: Trainer, loop_seconds: float, dev_examples: int, model_dir: Path, start_task: str
) -> dict[str, Any]:
    """What a fine-tune did and kept: training.json beside the model."""
    state = trainer.state
    record = {
        "hyperparameters": trainer.hp.as_record(),
        "seed": trainer.seed,
        "selected": state["best"],
        "history": state["history"],
        # the training loss of every optimiser step: the loss curve
        "losses": state.get("losses", []),
        # this run's seconds in the training loop (steps, dev evaluations, checkpoints)
        "loop_seconds": round(loop_seconds, 3),
        "train_inputs": trainer.n_train,
        "steps_per_epoch": trainer.steps_per_epoch,
        # the training precision this machine resolved (training_precision)
        "precision": precision_label(trainer.dtype),
        "dev_examples": dev_examples,
        # the machine that fine-tuned (the score's provenance shows it)
        "hardware": hardware(),
    }
    if start_task:
        # ``model_dir`` is another task's fine-tune: what it was, in the record
        started = read_json(model_dir / "training.json")
        record["start_from"] = {
            "task": start_task,
            **{key: started[key] for key in ("hyperparameters", "seed", "selected")},
        }
    return record


def selection_summary(record: dict[str, Any]) -> str:
    """One line of what a fine-tune did and which model it kept, for the console."""
    selected, hp = record["selected"], record["hyperparameters"]
    done = f"{record['train_inputs']} training inputs, {hp['epochs']} epochs"
    where = f"epoch {selected['epoch']}"
    if hp.get("selection_every_steps"):
        done += f", {len(record['history'])} dev evaluations"
        where = f"step {selected['step']} ({where})"
    return f"{done}; selected {where} (dev score {selected['dev_score']:.4f})"
