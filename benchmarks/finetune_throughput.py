"""Fine-tuning throughput (training tokens per second) of our fine-tune step against
transformers' Trainer.train, with the same loss curve.

Real English XNLI dev pairs, e5-small with a seeded classification head, batch 16, one epoch,
lr 2e-5 with linear decay, no warm-up, no weight decay, gradient norm clipped at 1.0: the
settings where Trainer's defaults and ours coincide. Dropout is off in both (with it on, the
two consume the random generator differently and their curves differ by chance, not by
method); Trainer reads the examples in our order (a sequential sampler over our shuffled
order), so both take the same steps. Ours also loads its features, evaluates a 32-pair dev set,
writes a resumable checkpoint at the epoch end and the selected model; Trainer does none of
that here: both the whole calls and the training loops alone are compared.

    .venv/bin/python benchmarks/finetune_throughput.py [--examples 512]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import classifier_folder, write_result, xnli_examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=512)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args()

    import torch
    from datasets import Dataset
    from torch.utils.data import SequentialSampler
    from transformers import (
        AutoConfig,
        AutoModelForSequenceClassification,
        AutoTokenizer,
        DataCollatorWithPadding,
        Trainer,
        TrainingArguments,
    )

    from mte.features import save_features, tokenize_pairs
    from mte.finetune import finetune
    from mte.tasks import TASKS

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
        hp = {
            "learning_rate": 2e-5, "epochs": 1, "batch_size": args.batch_size,
            "eval_batch_size": 64, "max_length": 128, "warmup_ratio": 0.0, "weight_decay": 0.0,
            "max_grad_norm": 1.0, "freeze_word_embeddings": False, "checkpoint_every_steps": 0,
        }  # fmt: skip
        start = time.perf_counter()
        record = finetune(
            folder, [scratch / "train.pt"], [scratch / "dev.pt"], scratch / "ours",
            scratch / "checkpoints", hp, seed,
        )  # fmt: skip
        ours_seconds = time.perf_counter() - start
        ours_losses = record["losses"]

        # our epoch order, read sequentially by Trainer
        order = torch.randperm(
            len(train["input_ids"]), generator=torch.Generator().manual_seed(seed * 1009)
        ).tolist()
        dataset = Dataset.from_dict(
            {
                "input_ids": [train["input_ids"][i] for i in order],
                "attention_mask": [[1] * len(train["input_ids"][i]) for i in order],
                "labels": [train["labels"][i] for i in order],
            }
        )

        class InOrder(Trainer):
            def _get_train_sampler(self, *unused):
                return SequentialSampler(self.train_dataset)

        torch.manual_seed(seed)
        model = AutoModelForSequenceClassification.from_pretrained(folder)
        trainer = InOrder(
            model=model,
            args=TrainingArguments(
                output_dir=str(scratch / "trainer"),
                per_device_train_batch_size=args.batch_size,
                num_train_epochs=1,
                learning_rate=hp["learning_rate"],
                logging_steps=1,
                save_strategy="no",
                report_to=[],
                disable_tqdm=True,
                seed=seed,
            ),
            train_dataset=dataset,
            data_collator=DataCollatorWithPadding(tokenizer),
        )
        start = time.perf_counter()
        trainer_loop_seconds = trainer.train().metrics["train_runtime"]
        trainer_seconds = time.perf_counter() - start
        trainer_losses = [e["loss"] for e in trainer.state.log_history if "loss" in e]
    tokens = sum(len(ids) for ids in train["input_ids"])
    differences = [abs(a - b) for a, b in zip(ours_losses, trainer_losses, strict=False)]
    result = {
        "examples": len(train["input_ids"]),
        "tokens": tokens,
        "steps": len(ours_losses),
        "ours_seconds": ours_seconds,
        "trainer_seconds": trainer_seconds,
        "ours_tokens_per_second": tokens / ours_seconds,
        "trainer_tokens_per_second": tokens / trainer_seconds,
        "speedup": trainer_seconds / ours_seconds,
        # the training loops alone: ours with its dev evaluation and epoch-end checkpoint,
        # without loading features and model or writing the final model
        "ours_loop_seconds": record["loop_seconds"],
        "trainer_loop_seconds": trainer_loop_seconds,
        "loop_speedup": trainer_loop_seconds / record["loop_seconds"],
        "ours_losses": ours_losses,
        "trainer_losses": trainer_losses,
        "same_number_of_steps": len(ours_losses) == len(trainer_losses),
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


if __name__ == "__main__":
    main()
