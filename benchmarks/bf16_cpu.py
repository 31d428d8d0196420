"""bf16 autocast on a CPU with bf16 units (avx512_bf16, AMX): prediction and fine-tuning speed
against fp32 and against transformers' Trainer under the same autocast, and how many
predictions bf16 changes.

e5-small with a seeded classification head. Prediction: the first N real German XNLI dev pairs,
batch 32; ours in fp32 and under bf16 autocast (``inference_precision: bf16``), Trainer.predict
with ``bf16=True`` on the CPU at the same batch. Fine-tuning: the first M real English XNLI dev
pairs, batch 16, one epoch; ours in fp32 and under bf16 autocast (``training_precision:
bf16``), Trainer.train with ``bf16=True``. Rounds alternate; the best time of each is kept.
On a CPU without bf16 units the figures say so and mean little (reduced precision is emulated
there, slower than fp32).

    .venv/bin/python benchmarks/bf16_cpu.py [--examples 1000] [--train-examples 256]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import (
    XnliPrediction,
    alternating_best,
    classifier_folder,
    write_result,
    xnli_examples,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--train-examples", type=int, default=256)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()

    import torch

    from mte.modelling.device import cpu_bf16_units

    setup = XnliPrediction(args.examples)
    task, folder = setup.task, classifier_folder(setup.task.labels)
    model, tokenizer, features, head = setup.model, setup.tokenizer, setup.features, setup.head
    n = len(features["input_ids"])

    def trainer_predict() -> list[int]:
        return setup.trainer_predictions(
            use_cpu=True, bf16=True, per_device_eval_batch_size=args.batch_size
        )

    pad = tokenizer.pad_token_id
    runs = {
        "fp32": lambda: head.predict(model, features, args.batch_size, pad),
        "bf16": lambda: head.predict(model, features, args.batch_size, pad, dtype=torch.bfloat16),
        "trainer_bf16": trainer_predict,
    }
    alternating_best(1, runs)  # warm-up
    timed = alternating_best(args.repeats, runs)
    (fp32_time, fp32), (bf16_time, bf16), (trainer_time, trainer) = timed.values()

    def agreement(a: list[int], b: list[int]) -> float:
        return sum(x == y for x, y in zip(a, b, strict=True)) / len(a)

    finetune = _finetune_times(folder, tokenizer, task, args.train_examples, args.repeats)
    result = {
        "cpu_bf16_units": cpu_bf16_units(),
        "examples": n,
        "batch_size": args.batch_size,
        "predict_fp32_seconds": fp32_time,
        "predict_bf16_seconds": bf16_time,
        "predict_trainer_bf16_seconds": trainer_time,
        "predict_bf16_speedup_vs_fp32": fp32_time / bf16_time,
        "predict_bf16_speedup_vs_trainer_bf16": trainer_time / bf16_time,
        "argmax_agreement_bf16_vs_fp32": agreement(bf16, fp32),
        "argmax_agreement_bf16_vs_trainer_bf16": agreement(bf16, trainer),
        **finetune,
    }
    path = write_result("bf16_cpu", result)
    print(
        f"bf16 units: {result['cpu_bf16_units'] or 'none'}; predict bf16 "
        f"{result['predict_bf16_speedup_vs_fp32']:.2f}x fp32, "
        f"{result['predict_bf16_speedup_vs_trainer_bf16']:.2f}x Trainer bf16, argmax agreement "
        f"with fp32 {100 * result['argmax_agreement_bf16_vs_fp32']:.1f}%; fine-tune bf16 "
        f"{finetune['finetune_bf16_speedup_vs_fp32']:.2f}x fp32, "
        f"{finetune['finetune_bf16_speedup_vs_trainer_bf16']:.2f}x Trainer bf16  ({path})"
    )


def _finetune_times(folder: Path, tokenizer, task, count: int, repeats: int) -> dict:
    """Training-loop seconds per step: ours in fp32 and bf16, Trainer.train in bf16."""
    from datasets import Dataset
    from transformers import (
        AutoModelForSequenceClassification,
        DataCollatorWithPadding,
        Trainer,
        TrainingArguments,
    )

    from mte.families.pairs.features import tokenize_pairs
    from mte.modelling.features import save_features
    from mte.modelling.hyperparameters import HyperParameters
    from mte.steps.finetune import finetune

    examples = xnli_examples("en", count + 32)
    train = tokenize_pairs(tokenizer, examples[:count], task, 128)
    hp = HyperParameters.from_config({
        "learning_rate": 2e-5, "epochs": 1, "batch_size": 16, "eval_batch_size": 64,
        "max_length": 128, "warmup_ratio": 0.0, "weight_decay": 0.0, "max_grad_norm": 1.0,
        "freeze_word_embeddings": False, "checkpoint_every_steps": 0, "warmup_steps": None,
        "model_selection": "last", "dev_languages": "training",
    })  # fmt: skip
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        save_features(train, scratch / "train.pt")
        save_features(tokenize_pairs(tokenizer, examples[count:], task, 128), scratch / "dev.pt")

        def ours(precision: str) -> float:
            record = finetune(
                folder, [scratch / "train.pt"], [scratch / "dev.pt"], scratch / precision,
                scratch / f"checkpoints-{precision}", hp, 1, device="cpu", precision=precision,
            )  # fmt: skip
            return record["loop_seconds"] / len(record["losses"])

        masks = [[1] * len(ids) for ids in train["input_ids"]]
        dataset = Dataset.from_dict(
            {"input_ids": train["input_ids"], "attention_mask": masks, "labels": train["labels"]}
        )

        def trainer() -> float:
            model = AutoModelForSequenceClassification.from_pretrained(folder)
            options = TrainingArguments(
                output_dir=str(scratch / "trainer"), report_to=[], disable_tqdm=True,
                use_cpu=True, bf16=True, per_device_train_batch_size=16, num_train_epochs=1,
                learning_rate=2e-5, lr_scheduler_type="linear", save_strategy="no",
                logging_strategy="no", seed=1,
            )  # fmt: skip
            run = Trainer(model=model, args=options, train_dataset=dataset,
                          data_collator=DataCollatorWithPadding(tokenizer))  # fmt: skip
            start = time.perf_counter()
            output = run.train()
            return (time.perf_counter() - start) / output.global_step

        best = {"fp32": [], "bf16": [], "trainer_bf16": []}
        for _ in range(repeats):
            best["fp32"].append(ours("fp32"))
            best["bf16"].append(ours("bf16"))
            best["trainer_bf16"].append(trainer())
    fp32, bf16, trainer_bf16 = (min(values) for values in best.values())
    return {
        "finetune_examples": count,
        "finetune_fp32_seconds_per_step": fp32,
        "finetune_bf16_seconds_per_step": bf16,
        "finetune_trainer_bf16_seconds_per_step": trainer_bf16,
        "finetune_bf16_speedup_vs_fp32": fp32 / bf16,
        "finetune_bf16_speedup_vs_trainer_bf16": trainer_bf16 / bf16,
    }


if __name__ == "__main__":
    main()
