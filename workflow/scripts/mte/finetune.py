"""Fine-tuning on the training language, model selection on its dev set, resumable checkpoints."""

from __future__ import annotations

import hashlib
import json
import logging
import math
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import Any

import torch

from mte.batching import collate
from mte.device import (
    autocast,
    autocast_dtype,
    describe,
    precision_label,
    resolve_device,
    to_device,
)
from mte.errors import ConfigError
from mte.features import concat_features, load_features
from mte.first_token import first_token_last_layer
from mte.heads import head_for, load_with_new_head
from mte.io import atomic_path, sha256_file, write_json
from mte.logs import announce, duration, progress_bar
from mte.models import copy_tokenizer, padding_id

log = logging.getLogger(__name__)

CHECKPOINT = "checkpoint.pt"
BEST = "best.pt"


def _signature(
    hp: dict[str, Any], seed: int, train_paths: list[Path], model_dir: Path, precision: str
) -> str:
    """What a checkpoint was made for: a checkpoint of other settings is never resumed."""
    payload = json.dumps(
        {
            "hp": hp,
            "seed": seed,
            "precision": precision,
            "train": [sha256_file(path) for path in train_paths],
            "model": sha256_file(model_dir / "config.json"),
        },
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def _parameter_groups(model: torch.nn.Module, weight_decay: float) -> list[dict[str, Any]]:
    """AdamW groups: no weight decay on biases and LayerNorm weights (as BERT/XTREME)."""
    decay, no_decay = [], []
    for name, parameter in model.named_parameters():
        if not parameter.requires_grad:
            continue
        (no_decay if name.endswith("bias") or "LayerNorm" in name else decay).append(parameter)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]


class StopRequest:
    """SIGTERM, which a scheduler sends before it kills a job (time limit, preemption,
    ``scancel``), asks for a checkpoint and a stop at the next step boundary, so that the
    resubmitted job resumes where this one was, not at the last periodic checkpoint."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._previous: Any = None

    def __enter__(self) -> StopRequest:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGTERM, self._handle)
        return self

    def _handle(self, signum: int, frame: Any) -> None:
        self.signal = signum

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)


def _save(obj: Any, path: Path) -> None:
    with atomic_path(path) as tmp:
        torch.save(obj, tmp)


def finetune(
    model_dir: str | Path,
    train_paths: list[str | Path],
    dev_paths: list[str | Path],
    out_dir: str | Path,
    checkpoint_dir: str | Path,
    hp: dict[str, Any],
    seed: int,
    device: str = "auto",
    precision: str = "auto",
) -> dict[str, Any]:
    """Fine-tune on the concatenated training features; keep the model with the best dev
    score (the task's selection metric on the concatenated dev features), or with
    ``model_selection: last`` the final model (XTREME's QA recipe keeps its final model); every
    dev evaluation is recorded either way. The dev set is scored at each epoch's end, or with
    ``selection_every_steps: N`` after every N-th optimiser step (XTREME's run_classify.py and
    run_tag.py: ``--save_steps N --save_only_best_checkpoint``), a later score replacing the
    kept one only when strictly higher.

    ``hp``: learning_rate, epochs, batch_size, warmup_ratio (or warmup_steps, which wins when
    set), weight_decay, max_grad_norm, eval_batch_size, freeze_word_embeddings,
    checkpoint_every_steps, model_selection, selection_every_steps, gradient_accumulation_steps
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
    """
    from transformers import get_linear_schedule_with_warmup

    model_dir, out_dir, checkpoint_dir = Path(model_dir), Path(out_dir), Path(checkpoint_dir)
    train_paths = [Path(p) for p in train_paths]
    train = concat_features([load_features(p) for p in train_paths])
    dev = concat_features([load_features(p) for p in dev_paths])
    head = head_for(train)
    labels = train["label_names"]
    torch.manual_seed(seed)
    where = resolve_device(device)
    dtype = autocast_dtype(where, precision, "training_precision")
    precision_name = precision_label(dtype)
    # fp16's narrow range needs loss scaling; bf16 has fp32's range and needs none
    scaler = torch.amp.GradScaler(where.type) if dtype == torch.float16 else None
    model = load_with_new_head(head, model_dir, **head.label_config(labels))
    model.to(where)
    if hp["freeze_word_embeddings"]:
        model.get_input_embeddings().weight.requires_grad_(False)
    pad_id = padding_id(train, model_dir)
    # the fused kernel updates all parameters in one pass: on a CPU twice as fast a step as
    # the per-tensor loop when the 96M-parameter embedding matrix trains (Trainer's default too)
    optimizer = torch.optim.AdamW(
        _parameter_groups(model, hp["weight_decay"]), lr=hp["learning_rate"], fused=True
    )
    n_train, batch_size = len(train["input_ids"]), hp["batch_size"]
    accumulation = hp.get("gradient_accumulation_steps") or 1
    # the examples of one optimiser step
    step_size = batch_size * accumulation
    steps_per_epoch = math.ceil(n_train / step_size)
    total_steps = steps_per_epoch * hp["epochs"]
    warmup = hp.get("warmup_steps")
    if warmup is None:
        warmup = int(hp["warmup_ratio"] * total_steps)
    # more warm-up steps than steps is kept as XTREME runs it (TyDiQA-GoldP: 500 of about 230):
    # the rate rises all through training and never reaches its peak
    scheduler = get_linear_schedule_with_warmup(optimizer, warmup, total_steps)
    keep_last = hp.get("model_selection", "best_dev") == "last"
    # None: the dev set is scored at each epoch's end
    evaluate_every = hp.get("selection_every_steps")
    if evaluate_every and evaluate_every > total_steps and not keep_last:
        raise ConfigError(
            f"tasks.{train['task']}.hyperparameters.selection_every_steps",
            f"{evaluate_every} is more than the {total_steps} optimiser steps of this fine-tune "
            f"({n_train} inputs, batch {step_size}, {hp['epochs']} epochs), so no model would "
            "ever be scored on dev: lower it, or remove it to score at each epoch's end",
        )
    signature = _signature(hp, seed, train_paths, model_dir, precision_name)
    state = {"step": 0, "epoch": 0, "batch": 0, "best": None, "history": []}
    checkpoint_file = checkpoint_dir / CHECKPOINT
    if checkpoint_file.is_file():
        saved = torch.load(checkpoint_file, weights_only=False, map_location=where)
        if saved["signature"] == signature:
            model.load_state_dict(saved["model"])
            optimizer.load_state_dict(saved["optimizer"])
            scheduler.load_state_dict(saved["scheduler"])
            if scaler is not None:
                scaler.load_state_dict(saved["scaler"])
            torch.set_rng_state(saved["rng"].cpu())
            if where.type == "cuda" and saved.get("cuda_rng") is not None:
                torch.cuda.set_rng_state(saved["cuda_rng"].cpu(), where)
            state = saved["state"]
            log.info(
                "resuming from checkpoint at step %d (epoch %d)", state["step"], state["epoch"]
            )
        else:
            log.info("ignoring a checkpoint made with other settings")
            shutil.rmtree(checkpoint_dir)
    checkpoint_dir.mkdir(parents=True, exist_ok=True)

    def save_checkpoint() -> None:
        _save(
            {
                "signature": signature,
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
                "scaler": scaler.state_dict() if scaler is not None else None,
                "rng": torch.get_rng_state(),
                # dropout on a GPU draws from the GPU's generator
                "cuda_rng": torch.cuda.get_rng_state(where) if where.type == "cuda" else None,
                "state": state,
            },
            checkpoint_file,
        )
        log.info("checkpoint saved at step %d", state["step"])

    batches = f"{step_size} ({batch_size} x {accumulation} accumulated)"
    announce(
        "fine-tuning on %d examples: %d epochs x %d steps, batch %s, seed %d, on %s",
        n_train,
        hp["epochs"],
        steps_per_epoch,
        batches if accumulation > 1 else batch_size,
        seed,
        describe(where, dtype),
    )
    progress = progress_bar(total=total_steps, initial=state["step"], desc="fine-tune", unit="step")
    every = hp["checkpoint_every_steps"]

    def stop_if_asked() -> None:
        if stop.signal is not None:
            save_checkpoint()
            log.warning(
                "stopped by signal %d at step %d; a rerun resumes from here",
                stop.signal,
                state["step"],
            )
            raise SystemExit(128 + stop.signal)

    started, first_step = time.perf_counter(), state["step"]

    def score_on_dev() -> None:
        """Score the model on dev; keep it when it is the best so far (or, with
        ``model_selection: last``, note the score of the model that will be kept)."""
        predicted = head.predict(model, dev, hp["eval_batch_size"], pad_id, dtype=dtype)
        # prediction switched the model to eval mode: training goes on with dropout
        model.train()
        dev_score = head.dev_score(dev, predicted)
        entry = {"epoch": state["epoch"] + 1, "step": state["step"], "dev_score": dev_score}
        state["history"].append(entry)
        if evaluate_every:
            # in the log only: every N steps would be hundreds of console lines (XNLI: 613)
            log.info("step %d/%d: dev score %.4f", state["step"], total_steps, dev_score)
        if keep_last:
            state["best"] = entry
        elif state["best"] is None or dev_score > state["best"]["dev_score"]:
            state["best"] = entry
            # the final weights are the model's own: no copy to write and read back
            if state["step"] < total_steps:
                _save(model.state_dict(), checkpoint_dir / BEST)

    def announce_epoch() -> None:
        """One console line per epoch: its dev score (every N steps: the latest and the best
        so far), the time elapsed and this run's pace times the steps left."""
        elapsed = time.perf_counter() - started
        remaining = elapsed / max(1, state["step"] - first_step) * (total_steps - state["step"])
        latest, best = (state["history"] or [None])[-1], state["best"]
        if latest is None:
            scored = f"no dev score yet (every {evaluate_every} steps)"
        elif not evaluate_every or keep_last:
            scored = f"dev score {latest['dev_score']:.4f}"
            if evaluate_every:
                scored += f" at step {latest['step']}"
        else:
            scored = (
                f"dev score {latest['dev_score']:.4f} at step {latest['step']}, best "
                f"{best['dev_score']:.4f} at step {best['step']}"
            )
        announce(
            "epoch %d/%d: %s, %s elapsed, ETA %s",
            state["epoch"] + 1,
            hp["epochs"],
            scored,
            duration(elapsed),
            duration(remaining),
        )

    with StopRequest() as stop:
        while state["epoch"] < hp["epochs"]:
            # the order of an epoch depends on (seed, epoch) only, so a resumed run sees the same
            order = torch.randperm(
                n_train, generator=torch.Generator().manual_seed(seed * 1009 + state["epoch"])
            )
            model.train()
            while state["batch"] < steps_per_epoch:
                step_indices = order[
                    state["batch"] * step_size : (state["batch"] + 1) * step_size
                ].tolist()
                step_loss = 0.0
                for start in range(0, len(step_indices), batch_size):
                    indices = step_indices[start : start + batch_size]
                    # a head may pad its own way (multiple choice: every choice to one width)
                    batch = getattr(head, "collate", collate)(train, indices, pad_id)
                    batch.update(head.batch_targets(train, indices))
                    batch = to_device(batch, where)
                    # a classifier's loss reads the first token of the last layer only
                    with first_token_last_layer(model):
                        with autocast(where, dtype):
                            loss = model(**batch).loss
                        if len(indices) < len(step_indices):
                            # a batch's mean loss weighted by its share of the step's examples:
                            # the step's gradient is that of the mean over all its examples
                            loss = loss * (len(indices) / len(step_indices))
                        (loss if scaler is None else scaler.scale(loss)).backward()
                    step_loss += loss.item()
                if scaler is not None:
                    scaler.unscale_(optimizer)  # clip the true gradients
                torch.nn.utils.clip_grad_norm_(model.parameters(), hp["max_grad_norm"])
                if scaler is None:
                    optimizer.step()
                else:
                    # a step whose gradients overflowed is skipped and the scale lowered
                    scaler.step(optimizer)
                    scaler.update()
                scheduler.step()
                optimizer.zero_grad()
                state["step"] += 1
                state["batch"] += 1
                progress.update(1)
                state.setdefault("losses", []).append(step_loss)
                progress.set_postfix(loss=f"{state['losses'][-1]:.4f}", refresh=False)
                if evaluate_every and state["step"] % evaluate_every == 0:
                    score_on_dev()
                if every and state["step"] % every == 0 and state["batch"] < steps_per_epoch:
                    save_checkpoint()
                stop_if_asked()
            last_epoch = state["epoch"] + 1 == hp["epochs"]
            scored_here = state["history"] and state["history"][-1]["step"] == state["step"]
            # the kept model of model_selection: last is the final one: its dev score is noted
            if not evaluate_every or (keep_last and last_epoch and not scored_here):
                score_on_dev()
            announce_epoch()
            state["epoch"] += 1
            state["batch"] = 0
            # after the last epoch only the model remains to be written (seconds): a checkpoint
            # to resume a finished loop would cost more (1.4 GB for e5-small) than it saves
            if not last_epoch:
                save_checkpoint()
                stop_if_asked()
    progress.close()
    # this run's seconds in the training loop (steps, dev evaluations, checkpoints)
    loop_seconds = time.perf_counter() - started

    if state["best"]["step"] != total_steps:
        model.load_state_dict(
            torch.load(checkpoint_dir / BEST, weights_only=True, map_location=where)
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    copy_tokenizer(model_dir, out_dir)
    record = {
        "hyperparameters": hp,
        "seed": seed,
        "selected": state["best"],
        "history": state["history"],
        # the training loss of every optimiser step: the loss curve
        "losses": state.get("losses", []),
        "loop_seconds": round(loop_seconds, 3),
        "train_inputs": n_train,
        "steps_per_epoch": steps_per_epoch,
        # the training precision this machine resolved (training_precision)
        "precision": precision_name,
        "dev_examples": len(dev["ids"]),
    }
    write_json(out_dir / "training.json", record)
    shutil.rmtree(checkpoint_dir)
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
