"""Prediction throughput of our predict step against transformers' Trainer.predict.

Same model (e5-small with a seeded classification head), same real XNLI text (German dev,
first N pairs), same tokenised features. Baselines: Trainer.predict with default arguments
(batch 8, input order) and with our batch size. Ours: length-sorted batches, padding per
batch, torch.inference_mode, the last layer for the first token only (all a sequence classifier
reads). Rounds alternate between the three (after one untimed warm-up of each); the best of
each is kept. Predictions must be identical.

    .venv/bin/python benchmarks/predict_throughput.py [--examples 1000] [--batch-size 32]
"""

from __future__ import annotations

import argparse

from _common import XnliPrediction, alternating_best, write_result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import torch

    setup = XnliPrediction(args.examples)
    model, tokenizer, features, head = setup.model, setup.tokenizer, setup.features, setup.head
    n = len(features["input_ids"])
    tokens = sum(len(ids) for ids in features["input_ids"])

    def trainer_predict(batch_size: int | None) -> list[int]:
        sized = {"per_device_eval_batch_size": batch_size} if batch_size else {}
        return setup.trainer_predictions(**sized)

    runs = {
        "ours": lambda: head.predict(model, features, args.batch_size, tokenizer.pad_token_id),
        "default": lambda: trainer_predict(None),
        "same": lambda: trainer_predict(args.batch_size),
    }
    alternating_best(1, runs)  # warm-up: first-call allocations and lazy imports
    timed = alternating_best(args.repeats, runs)
    (ours_time, ours), (default_time, default), (same_time, same) = timed.values()
    identical = ours == default == same
    result = {
        "examples": n,
        "tokens": tokens,
        "batch_size": args.batch_size,
        "torch_threads": torch.get_num_threads(),
        "ours_seconds": ours_time,
        "trainer_default_seconds": default_time,
        "trainer_same_batch_seconds": same_time,
        "ours_examples_per_second": n / ours_time,
        "trainer_default_examples_per_second": n / default_time,
        "speedup_vs_trainer_default": default_time / ours_time,
        "speedup_vs_trainer_same_batch": same_time / ours_time,
        "identical_predictions": identical,
    }
    path = write_result("predict_throughput", result)
    print(
        f"predict: ours {n / ours_time:.1f} ex/s; Trainer.predict default (batch 8) "
        f"{n / default_time:.1f} ex/s -> {default_time / ours_time:.2f}x; Trainer at batch "
        f"{args.batch_size} {n / same_time:.1f} ex/s -> {same_time / ours_time:.2f}x; "
        f"identical predictions: {identical}  ({path})"
    )
    if not identical:
        raise SystemExit("predictions differ")


if __name__ == "__main__":
    main()
