"""Fine-tuning as a small trainer: restore (a checkpoint of the same settings, at its exact
step), step (one optimiser step over accumulated batches), evaluate (the head's dev score,
recorded) and select (keep the best model, or the last). The head (mte.modelling.heads) says what
differs between families; this loop is the same for all."""

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

from mte.errors import ConfigError
from mte.io import atomic_path, sha256_file
from mte.modelling.device import autocast, describe, to_device
from mte.modelling.first_token import first_token_last_layer
from mte.modelling.heads import Head
from mte.modelling.hyperparameters import HyperParameters
from mte.runtime.logs import announce, duration, progress_bar

log = logging.getLogger(__name__)

CHECKPOINT = "checkpoint.pt"
BEST = "best.pt"


def signature(
    hp: HyperParameters, seed: int, train_paths: list[Path], model_dir: Path, precision: str
) -> str:
    """What a checkpoint was made for: a checkpoint of other settings is never resumed."""
    payload = json.dumps(
        {
            "hp": hp.as_record(),
            "seed": seed,
            "precision": precision,
            "train": [sha256_file(path) for path in train_paths],
            "model": sha256_file(model_dir / "config.json"),
        },
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def parameter_groups(model: torch.nn.Module, weight_decay: float) -> list[dict[str, Any]]:
    """AdamW groups: no weight decay on biases and normalisation weights, as BERT's and
    XTREME's ``no_decay = ["bias", "LayerNorm.weight"]``. The normalisation layers are found by
    type, not name, so that a decoder's RMSNorm (Llama's ``input_layernorm``, ``norm``) is
    spared too: its weight is a per-channel gain whose decay towards 0 would shrink the layer's
    output."""
    norms = {
        id(parameter)
        for module in model.modules()
        if _is_normalisation(module)
        for parameter in module.parameters(recurse=False)
    }
    decay, no_decay = [], []
    for name, parameter in model.named_parameters():
        if not parameter.requires_grad:
            continue
        spared = name.endswith("bias") or id(parameter) in norms
        (no_decay if spared else decay).append(parameter)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]


def _is_normalisation(module: torch.nn.Module) -> bool:
    """A LayerNorm, or a model's own normalisation class (LlamaRMSNorm, Qwen2RMSNorm,
    GemmaRMSNorm: transformers names them ``*Norm``)."""
    return isinstance(module, torch.nn.LayerNorm | torch.nn.RMSNorm) or type(
        module
    ).__name__.endswith(("LayerNorm", "RMSNorm"))


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


def save(obj: Any, path: Path) -> None:
    with atomic_path(path) as tmp:
        torch.save(obj, tmp)


class Trainer:
    """One fine-tune of ``model`` on the ``train`` features, selected on ``dev`` by ``head``'s
    dev score. ``hp``: the task's hyper-parameters (mte.modelling.hyperparameters); ``where`` and
    ``dtype``: the device and the autocast type (None: fp32); ``signature``: what a checkpoint in
    ``checkpoint_dir`` must have been made for to be resumed."""

    def __init__(
        self,
        model: Any,
        head: Head,
        train: dict[str, Any],
        dev: dict[str, Any],
        hp: HyperParameters,
        seed: int,
        where: torch.device,
        dtype: torch.dtype | None,
        pad_id: int,
    ) -> None:
        from transformers import get_linear_schedule_with_warmup

        self.model, self.head, self.train_features, self.dev = model, head, train, dev
        self.hp, self.seed, self.where, self.dtype, self.pad_id = hp, seed, where, dtype, pad_id
        # fp16's narrow range needs loss scaling; bf16 has fp32's range and needs none
        self.scaler = torch.amp.GradScaler(where.type) if dtype == torch.float16 else None
        # the fused kernel updates all parameters in one pass: on a CPU twice as fast a step as
        # the per-tensor loop when the 96M-parameter embedding matrix trains (Trainer's default)
        self.optimizer = torch.optim.AdamW(
            parameter_groups(model, hp.weight_decay), lr=hp.peak_learning_rate, fused=True
        )
        self.n_train, self.batch_size = len(train["input_ids"]), hp.batch_size
        self.accumulation = hp.accumulation
        # the examples of one optimiser step
        self.step_size = self.batch_size * self.accumulation
        self.steps_per_epoch = math.ceil(self.n_train / self.step_size)
        self.total_steps = self.steps_per_epoch * hp.epochs
        warmup = hp.warmup_steps
        if warmup is None:
            warmup = int(hp.warmup_ratio * self.total_steps)
        # more warm-up steps than steps is kept as XTREME runs it (TyDiQA-GoldP: 500 of about
        # 230): the rate rises all through training and never reaches its peak
        self.scheduler = get_linear_schedule_with_warmup(self.optimizer, warmup, self.total_steps)
        self.keep_last = hp.model_selection == "last"
        # the model after this optimiser step is kept, whatever the selection (XTREME-R's
        # LAReQA evaluates one checkpoint of its fine-tune); None: the selection decides
        self.keep_step = hp.keep_step
        # None: the dev set is scored at each epoch's end
        self.evaluate_every = hp.selection_every_steps
        self._check_selection_steps()
        self.state: dict[str, Any] = {
            "step": 0, "epoch": 0, "batch": 0, "best": None, "history": []
        }  # fmt: skip
        self.checkpoint_dir: Path | None = None
        self.signature = ""

    def _check_selection_steps(self) -> None:
        if self.keep_step and self.keep_step > self.total_steps:
            raise ConfigError(
                f"tasks.{self.train_features['task']}.hyperparameters.keep_step",
                f"step {self.keep_step} is past the {self.total_steps} optimiser steps of this "
                f"fine-tune ({self.n_train} inputs, batch {self.step_size}, "
                f"{self.hp.epochs} epochs)",
            )
        if self.evaluate_every and self.evaluate_every > self.total_steps and not self.keep_last:
            raise ConfigError(
                f"tasks.{self.train_features['task']}.hyperparameters.selection_every_steps",
                f"{self.evaluate_every} is more than the {self.total_steps} optimiser steps of "
                f"this fine-tune ({self.n_train} inputs, batch {self.step_size}, "
                f"{self.hp.epochs} epochs), so no model would ever be scored on dev: lower "
                "it, or remove it to score at each epoch's end",
            )

    # --- restore ---

    def restore(self, checkpoint_dir: Path, signature: str) -> None:
        """Resume from a checkpoint of the same ``signature`` in ``checkpoint_dir`` (its
        model, optimiser, schedule, scaler, RNG and loop state); one of other settings is
        deleted."""
        self.checkpoint_dir, self.signature = checkpoint_dir, signature
        checkpoint_file = checkpoint_dir / CHECKPOINT
        if checkpoint_file.is_file():
            saved = torch.load(checkpoint_file, weights_only=False, map_location=self.where)
            if saved["signature"] == signature:
                self.model.load_state_dict(saved["model"])
                self.optimizer.load_state_dict(saved["optimizer"])
                self.scheduler.load_state_dict(saved["scheduler"])
                if self.scaler is not None:
                    self.scaler.load_state_dict(saved["scaler"])
                torch.set_rng_state(saved["rng"].cpu())
                if self.where.type == "cuda" and saved.get("cuda_rng") is not None:
                    torch.cuda.set_rng_state(saved["cuda_rng"].cpu(), self.where)
                self.state = saved["state"]
                log.info(
                    "resuming from checkpoint at step %d (epoch %d)",
                    self.state["step"],
                    self.state["epoch"],
                )
            else:
                log.info("ignoring a checkpoint made with other settings")
                shutil.rmtree(checkpoint_dir)
        checkpoint_dir.mkdir(parents=True, exist_ok=True)

    def save_checkpoint(self) -> None:
        save(
            {
                "signature": self.signature,
                "model": self.model.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "scheduler": self.scheduler.state_dict(),
                "scaler": self.scaler.state_dict() if self.scaler is not None else None,
                "rng": torch.get_rng_state(),
                # dropout on a GPU draws from the GPU's generator
                "cuda_rng": (
                    torch.cuda.get_rng_state(self.where) if self.where.type == "cuda" else None
                ),
                "state": self.state,
            },
            self.checkpoint_dir / CHECKPOINT,
        )
        log.info("checkpoint saved at step %d", self.state["step"])

    # --- step ---

    def step(self, step_indices: list[int]) -> float:
        """One optimiser step over the examples at ``step_indices``, in accumulated batches of
        ``batch_size``; returns the step's training loss."""
        step_loss = 0.0
        for start in range(0, len(step_indices), self.batch_size):
            indices = step_indices[start : start + self.batch_size]
            batch = self.head.collate(self.train_features, indices, self.pad_id)
            batch.update(self.head.batch_targets(self.train_features, indices))
            batch = to_device(batch, self.where)
            # a classifier's loss reads the first token of the last layer only
            with first_token_last_layer(self.model):
                with autocast(self.where, self.dtype):
                    loss = self.model(**batch).loss
                if len(indices) < len(step_indices):
                    # a batch's mean loss weighted by its share of the step's examples: the
                    # step's gradient is that of the mean over all its examples
                    loss = loss * (len(indices) / len(step_indices))
                (loss if self.scaler is None else self.scaler.scale(loss)).backward()
            step_loss += loss.item()
        if self.scaler is not None:
            self.scaler.unscale_(self.optimizer)  # clip the true gradients
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.hp.max_grad_norm)
        if self.scaler is None:
            self.optimizer.step()
        else:
            # a step whose gradients overflowed is skipped and the scale lowered
            self.scaler.step(self.optimizer)
            self.scaler.update()
        self.scheduler.step()
        self.optimizer.zero_grad()
        return step_loss

    # --- evaluate and select ---

    def evaluate(self) -> None:
        """Score the model on dev, record the score and select."""
        predicted = self.head.predict(
            self.model, self.dev, self.hp.eval_batch_size, self.pad_id, dtype=self.dtype
        )
        # prediction switched the model to eval mode: training goes on with dropout
        self.model.train()
        dev_score = self.head.dev_score(self.dev, predicted)
        state = self.state
        entry = {"epoch": state["epoch"] + 1, "step": state["step"], "dev_score": dev_score}
        state["history"].append(entry)
        if self.evaluate_every:
            # in the log only: every N steps would be hundreds of console lines (XNLI: 613)
            log.info("step %d/%d: dev score %.4f", state["step"], self.total_steps, dev_score)
        self.select(entry)

    def select(self, entry: dict[str, Any]) -> None:
        """Keep the model of ``entry`` when it is the best so far (or, with ``model_selection:
        last``, note the score of the model that will be kept)."""
        state = self.state
        if self.keep_step:
            if entry["step"] == self.keep_step:
                state["best"] = entry
                if state["step"] < self.total_steps:
                    save(self.model.state_dict(), self.checkpoint_dir / BEST)
        elif self.keep_last:
            state["best"] = entry
        elif state["best"] is None or entry["dev_score"] > state["best"]["dev_score"]:
            state["best"] = entry
            # the final weights are the model's own: no copy to write and read back
            if state["step"] < self.total_steps:
                save(self.model.state_dict(), self.checkpoint_dir / BEST)

    def selected_model(self) -> Any:
        """The model with the selected weights (the final ones, or those saved when selected)."""
        if self.state["best"]["step"] != self.total_steps:
            best = torch.load(
                self.checkpoint_dir / BEST, weights_only=True, map_location=self.where
            )
            self.model.load_state_dict(best)
        return self.model

    # --- the loop ---

    def run(self) -> float:
        """Train from the restored state to the last epoch; returns this run's seconds in the
        loop (steps, dev evaluations, checkpoints)."""
        hp, state = self.hp, self.state
        batches = f"{self.step_size} ({self.batch_size} x {self.accumulation} accumulated)"
        announce(
            "fine-tuning on %d examples: %d epochs x %d steps, batch %s, seed %d, on %s",
            self.n_train,
            hp.epochs,
            self.steps_per_epoch,
            batches if self.accumulation > 1 else self.batch_size,
            self.seed,
            describe(self.where, self.dtype),
        )
        self.progress = progress_bar(
            total=self.total_steps, initial=state["step"], desc="fine-tune", unit="step"
        )
        self.started, self.first_step = time.perf_counter(), state["step"]
        with StopRequest() as self.stop:
            while state["epoch"] < hp.epochs:
                self._epoch()
        self.progress.close()
        return time.perf_counter() - self.started

    def _epoch(self) -> None:
        hp, state = self.hp, self.state
        # the order of an epoch depends on (seed, epoch) only, so a resumed run sees the same
        order = torch.randperm(
            self.n_train,
            generator=torch.Generator().manual_seed(self.seed * 1009 + state["epoch"]),
        )
        self.model.train()
        every = hp.checkpoint_every_steps
        while state["batch"] < self.steps_per_epoch:
            begin = state["batch"] * self.step_size
            step_loss = self.step(order[begin : begin + self.step_size].tolist())
            state["step"] += 1
            state["batch"] += 1
            self.progress.update(1)
            state.setdefault("losses", []).append(step_loss)
            self.progress.set_postfix(loss=f"{state['losses'][-1]:.4f}", refresh=False)
            if self.evaluate_every and state["step"] % self.evaluate_every == 0:
                self.evaluate()
            if state["step"] == self.keep_step and not self._scored_last_step():
                self.evaluate()  # the kept model: its dev score noted, its weights saved
            if every and state["step"] % every == 0 and state["batch"] < self.steps_per_epoch:
                self.save_checkpoint()
            self._stop_if_asked()
        last_epoch = state["epoch"] + 1 == hp.epochs
        scored_here = self._scored_last_step()
        # the kept model of model_selection: last is the final one: its dev score is noted
        if not self.evaluate_every or (self.keep_last and last_epoch and not scored_here):
            self.evaluate()
        self._announce_epoch()
        state["epoch"] += 1
        state["batch"] = 0
        # after the last epoch only the model remains to be written (seconds): a checkpoint to
        # resume a finished loop would cost more (1.4 GB for e5-small) than it saves
        if not last_epoch:
            self.save_checkpoint()
            self._stop_if_asked()

    def _scored_last_step(self) -> bool:
        """The dev set was scored after the latest optimiser step."""
        history = self.state["history"]
        return bool(history) and history[-1]["step"] == self.state["step"]

    def _stop_if_asked(self) -> None:
        if self.stop.signal is not None:
            self.save_checkpoint()
            log.warning(
                "stopped by signal %d at step %d; a rerun resumes from here",
                self.stop.signal,
                self.state["step"],
            )
            raise SystemExit(128 + self.stop.signal)

    def _announce_epoch(self) -> None:
        """One console line per epoch: its dev score (every N steps: the latest and the best
        so far), the time elapsed and this run's pace times the steps left."""
        state = self.state
        elapsed = time.perf_counter() - self.started
        pace = elapsed / max(1, state["step"] - self.first_step)
        remaining = pace * (self.total_steps - state["step"])
        latest, best = (state["history"] or [None])[-1], state["best"]
        if latest is None:
            scored = f"no dev score yet (every {self.evaluate_every} steps)"
        elif not self.evaluate_every or self.keep_last:
            scored = f"dev score {latest['dev_score']:.4f}"
            if self.evaluate_every:
                scored += f" at step {latest['step']}"
        else:
            scored = (
                f"dev score {latest['dev_score']:.4f} at step {latest['step']}, best "
                f"{best['dev_score']:.4f} at step {best['step']}"
            )
        announce(
            "epoch %d/%d: %s, %s elapsed, ETA %s",
            state["epoch"] + 1,
            self.hp.epochs,
            scored,
            duration(elapsed),
            duration(remaining),
        )
