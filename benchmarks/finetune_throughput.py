"""Fine-tuning throughput (training tokens per second) of our fine-tune step against
transformers' Trainer.train, with the same loss curve.

Real English XNLI dev pairs, e5-small with a seeded classification head, batch 16, one epoch,
lr 2e-5 with linear decay, no warm-up, no weight decay, gradient norm clipped at 1.0: the
settings where Trainer's defaults and ours coincide. Dropout is off in both (with it on, the
two consume the random generator differently and their curves differ by chance, not by
method); Trainer reads the examples in our order (a sequential sampler over our shuffled
order), so both take the same steps. The whole calls each load the model, train and write the
model and tokenizer (ours also loads its features from disk and evaluates a 32-pair dev set for
model selection, which Trainer's defaults do not); the training loops alone are compared too.
Ours computes the last layer for the first token only (all the classifier's loss reads), so
its losses may differ from Trainer's by float rounding.

Each run is a fresh Python process, as a workflow job is; the whole call is the process's wall
time from start to exit (Python, imports, loading the model, training, writing it), the loop
is timed inside; rounds alternate between the two and the best of each is kept.

    .venv/bin/python benchmarks/finetune_throughput.py [--examples 512] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import classifier_folder, one_epoch_hp, write_result, xnli_examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=512)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    # one side's run, in its own process (internal)
    parser.add_argument("--trainer-side", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--ours-side", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.trainer_side:
        trainer_side(*args.trainer_side)
        return
    if args.ours_side:
        ours_side(*args.ours_side)
        return

    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

    from mte.families.pairs.features import tokenize_pairs
    from mte.modelling.features import save_features
    from mte.registry import TASKS

    task, seed = TASKS["xnli"], 1
    source = classifier_folder(task.labels)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        # the same weights with dropout off
        config = AutoConfig.from_pretrained(source)
        config.hidden_dropout_prob = config.attention_probs_dropout_prob = 0.0
        folder = scratch / "model"
        AutoModelForSequenceClassification.from_pretrained(source, config=config).save_pretrained(
            folder
        )
        tokenizer = AutoTokenizer.from_pretrained(source)
        tokenizer.save_pretrained(folder)
        examples = xnli_examples("en", args.examples + 32)
        train = tokenize_pairs(tokenizer, examples[: args.examples], task, 128)
        dev = tokenize_pairs(tokenizer, examples[args.examples :], task, 128)
        save_features(train, scratch / "train.pt")
        save_features(dev, scratch / "dev.pt")
        hp = one_epoch_hp(args.batch_size, "best_dev")

        def run_ours(round_: int) -> tuple[float, float, list[float]]:
            result_path = scratch / f"ours-result{round_}.json"
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, __file__, "--ours-side", scratch / "ours-job.json", result_path],
                check=True,
            )
            seconds = time.perf_counter() - start
            result = json.loads(result_path.read_text())
            return seconds, result["loop_seconds"], result["losses"]

        (scratch / "ours-job.json").write_text(
            json.dumps({"folder": str(folder), "scratch": str(scratch), "hp": hp, "seed": seed})
        )

        # our epoch order, read sequentially by Trainer
        order = torch.randperm(
            len(train["input_ids"]), generator=torch.Generator().manual_seed(seed * 1009)
        ).tolist()
        job = {
            "folder": str(folder),
            "scratch": str(scratch),
            "batch_size": args.batch_size,
            "learning_rate": hp["learning_rate"],
            "seed": seed,
            "input_ids": [train["input_ids"][i] for i in order],
            "labels": [train["labels"][i] for i in order],
        }
        (scratch / "trainer-job.json").write_text(json.dumps(job))

        def run_trainer(round_: int) -> tuple[float, float, list[float]]:
            result_path = scratch / f"trainer-result{round_}.json"
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, __file__, "--trainer-side", scratch / "trainer-job.json",
                 result_path],
                check=True,
            )  # fmt: skip
            seconds = time.perf_counter() - start
            result = json.loads(result_path.read_text())
            return seconds, result["loop_seconds"], result["losses"]

        # alternating rounds, the best of each: neither side gains from a quiet moment
        ours_runs, trainer_runs = [], []
        for round_ in range(args.rounds):
            ours_runs.append(run_ours(round_))
            trainer_runs.append(run_trainer(round_))
        ours_seconds = min(run[0] for run in ours_runs)
        trainer_seconds = min(run[0] for run in trainer_runs)
        ours_loop = min(run[1] for run in ours_runs)
        trainer_loop_seconds = min(run[1] for run in trainer_runs)
        ours_losses, trainer_losses = ours_runs[-1][2], trainer_runs[-1][2]
    tokens = sum(len(ids) for ids in train["input_ids"])
    # every run of either side against our first: the same curve each time
    differences = [
        abs(a - b)
        for run in ours_runs + trainer_runs
        for a, b in zip(ours_runs[0][2], run[2], strict=False)
    ]
    result = {
        "examples": len(train["input_ids"]),
        "tokens": tokens,
        "steps": len(ours_losses),
        "ours_seconds": ours_seconds,
        "trainer_seconds": trainer_seconds,
        "ours_tokens_per_second": tokens / ours_seconds,
        "trainer_tokens_per_second": tokens / trainer_seconds,
        "speedup": trainer_seconds / ours_seconds,
        # the training loops alone: ours with its dev evaluation, without loading features and
        # model or writing the final model
        "ours_loop_seconds": ours_loop,
        "trainer_loop_seconds": trainer_loop_seconds,
        "loop_speedup": trainer_loop_seconds / ours_loop,
        "rounds": args.rounds,
        "ours_losses": ours_losses,
        "trainer_losses": trainer_losses,
        "same_number_of_steps": len({len(run[2]) for run in ours_runs + trainer_runs}) == 1,
        "max_loss_difference": max(differences) if differences else None,
    }
    path = write_result("finetune_throughput", result)
    print(
        f"fine-tune: ours {tokens / ours_seconds:.0f} tokens/s, Trainer.train "
        f"{tokens / trainer_seconds:.0f} tokens/s -> {trainer_seconds / ours_seconds:.2f}x "
        f"(training loops alone: {result['loop_speedup']:.2f}x); "
        f"{len(ours_losses)} vs {len(trainer_losses)} steps, largest loss difference "
        f"{result['max_loss_difference']}  ({path})"
    )


def ours_side(job_path: str, result_path: str) -> None:
    """Our fine-tune step on the job's features, in this fresh process, as a workflow job runs
    it; the loop's seconds and the loss curve (the parent times the whole process)."""
    from mte.modelling.hyperparameters import HyperParameters
    from mte.steps.finetune import finetune

    job = json.loads(Path(job_path).read_text())
    scratch, name = Path(job["scratch"]), Path(result_path).stem
    hp = HyperParameters.from_config(job["hp"])
    record = finetune(
        job["folder"], [scratch / "train.pt"], [scratch / "dev.pt"], scratch / f"model-{name}",
        scratch / f"checkpoints-{name}", hp, job["seed"],
    )  # fmt: skip
    Path(result_path).write_text(
        json.dumps({"loop_seconds": record["loop_seconds"], "losses": record["losses"]})
    )


def trainer_side(job_path: str, result_path: str) -> None:
    """Trainer.train on the job's examples, in this fresh process: load the model, train,
    write the model and tokenizer; the loop's seconds and the loss curve."""
    import torch
    from datasets import Dataset
    from torch.utils.data import SequentialSampler
    from transformers import (
        AutoModelForSequenceClassification,
        AutoTokenizer,
        DataCollatorWithPadding,
        Trainer,
        TrainingArguments,
    )

    job = json.loads(Path(job_path).read_text())
    scratch, folder = Path(job["scratch"]), job["folder"]
    tokenizer = AutoTokenizer.from_pretrained(folder)
    dataset = Dataset.from_dict(
        {
            "input_ids": job["input_ids"],
            "attention_mask": [[1] * len(ids) for ids in job["input_ids"]],
            "labels": job["labels"],
        }
    )

    class InOrder(Trainer):
        def _get_train_sampler(self, *unused):
            return SequentialSampler(self.train_dataset)

    out = scratch / f"trainer-model-{Path(result_path).stem}"
    torch.manual_seed(job["seed"])
    model = AutoModelForSequenceClassification.from_pretrained(folder)
    trainer = InOrder(
        model=model,
        args=TrainingArguments(
            output_dir=str(scratch / "trainer"),
            per_device_train_batch_size=job["batch_size"],
            num_train_epochs=1,
            learning_rate=job["learning_rate"],
            logging_steps=1,
            save_strategy="no",
            report_to=[],
            disable_tqdm=True,
            seed=job["seed"],
        ),
        train_dataset=dataset,
        data_collator=DataCollatorWithPadding(tokenizer),
    )
    loop_seconds = trainer.train().metrics["train_runtime"]
    trainer.save_model(str(out))
    tokenizer.save_pretrained(out)
    losses = [e["loss"] for e in trainer.state.log_history if "loss" in e]
    Path(result_path).write_text(json.dumps({"loop_seconds": loop_seconds, "losses": losses}))


if __name__ == "__main__":
    main()
