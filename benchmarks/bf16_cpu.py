"""bf16 on a CPU with bf16 units (avx512_bf16, AMX): what a user's predict, retrieve and
fine-tune jobs gain against fp32 and against transformers' Trainer under bf16, and how many
predictions bf16 changes. Each side runs in a fresh process, as each job of a run does.

e5-small (a seeded classification head where one is needed):
- predict: the first N real German XNLI dev pairs, batch 32: ours in fp32, under bf16 autocast
  (``inference_precision: bf16``, what predict jobs do), with the weights cast to bf16 once
  (``model.to(torch.bfloat16)``, the alternative measured against it), Trainer.predict with
  ``bf16=True`` on the CPU;
- embed: Tatoeba's German-English pairs (``--tatoeba``), both sides embedded as retrieve jobs
  embed (mean pooling, the model's prefix, the last layer), in fp32, under autocast and cast
  once; each side's nearest-neighbour accuracy (cosine, de -> en);
- finetune: the first M real English XNLI dev pairs, batch 16, one epoch: ours in fp32 and
  under bf16 autocast (``training_precision: bf16``: fp32 master weights and optimiser state),
  Trainer.train with ``bf16=True``; seconds per optimiser step.

A side's process builds its inputs, runs once to warm up, then keeps the best of ``--repeats``.
``--rounds`` rounds run every side once each, in fresh processes, the order reversed every
other round: the ratios of each round are kept, and the printed figure is their median with
the range; that the reversed rounds give the same ratios shows that no side's figure depends on
what ran before it. On a CPU without bf16 units the figures say so and mean little (reduced
precision is emulated there, slower than fp32).

    .venv/bin/python benchmarks/bf16_cpu.py [--rounds 3] [--examples 1000]
        [--train-examples 256] [--tatoeba deu]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import (
    SHARED,
    best_of,
    classifier_folder,
    e5_folder,
    fresh_rounds,
    rounds_record,
    side_in_fresh_process,
    spread,
    write_result,
    xnli_examples,
)

SIDES = {
    "predict": ("fp32", "bf16", "bf16_cast", "trainer_bf16"),
    "embed": ("fp32", "bf16", "bf16_cast"),
    "finetune": ("fp32", "bf16", "trainer_bf16"),
}


# --- one side, in its own process ---


def predict_side(variant: str, args: argparse.Namespace) -> dict[str, Any]:
    import torch
    from _common import XnliPrediction

    setup = XnliPrediction(args.examples)
    model, features, head = setup.model, setup.features, setup.head
    pad = setup.tokenizer.pad_token_id
    if variant == "trainer_bf16":

        def run():
            return setup.trainer_predictions(
                use_cpu=True, bf16=True, per_device_eval_batch_size=args.batch_size
            )
    else:
        if variant == "bf16_cast":
            model = model.to(torch.bfloat16)
        dtype = torch.bfloat16 if variant == "bf16" else None

        def run():
            return head.predict(model, features, args.batch_size, pad, dtype=dtype)

    run()  # warm-up
    seconds, predictions = best_of(args.repeats, run)
    return {"seconds": seconds, "predictions": [int(p) for p in predictions]}


def embed_side(variant: str, args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np
    import torch
    from transformers import AutoModel, AutoTokenizer

    from mte.families.retrieval.readers import read_tatoeba
    from mte.hub.models import MODEL_RECORD
    from mte.io import read_json
    from mte.modelling.embeddings import encode_layers

    folder = e5_folder()
    usage = read_json(folder / MODEL_RECORD)["embedding"]
    model = AutoModel.from_pretrained(folder).eval()
    tokenizer = AutoTokenizer.from_pretrained(folder)
    code = args.tatoeba
    pairs = read_tatoeba(SHARED / "tatoeba" / f"tatoeba.{code}-eng.{code}")
    if variant == "bf16_cast":
        model = model.to(torch.bfloat16)
    dtype = torch.bfloat16 if variant == "bf16" else None
    last = {"last": model.config.num_hidden_layers}

    def run():
        vectors = []
        for side in ("src", "tgt"):
            texts = [pair[side] for pair in pairs]
            vectors.append(
                encode_layers(
                    model, tokenizer, texts, last, pooling=usage["pooling"],
                    prefix=usage["prefix"], batch_size=args.batch_size, dtype=dtype,
                )["last"]
            )  # fmt: skip
        return vectors

    run()  # warm-up
    seconds, (source, target) = best_of(args.repeats, run)
    nearest = (source @ target.T).argmax(1)
    accuracy = float(np.mean(nearest == np.arange(len(pairs))))
    return {"seconds": seconds, "sentences": 2 * len(pairs), "accuracy": accuracy}


def finetune_side(variant: str, args: argparse.Namespace) -> dict[str, Any]:
    from _common import one_epoch_hp
    from transformers import AutoTokenizer

    from mte.families.pairs.features import tokenize_pairs
    from mte.modelling.features import save_features
    from mte.modelling.hyperparameters import HyperParameters
    from mte.registry import TASKS

    task = TASKS["xnli"]
    folder = classifier_folder(task.labels)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    count = args.train_examples
    examples = xnli_examples("en", count + 32)
    train = tokenize_pairs(tokenizer, examples[:count], task, 128)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        save_features(train, scratch / "train.pt")
        save_features(tokenize_pairs(tokenizer, examples[count:], task, 128), scratch / "dev.pt")
        if variant == "trainer_bf16":
            run = _trainer_run(folder, tokenizer, train, scratch)
        else:
            from mte.steps.finetune import finetune

            hp = HyperParameters.from_config(one_epoch_hp(16))

            def run() -> float:
                record = finetune(
                    folder, [scratch / "train.pt"], [scratch / "dev.pt"], scratch / "out",
                    scratch / "checkpoints", hp, 1, device="cpu", precision=variant,
                )  # fmt: skip
                return record["loop_seconds"] / len(record["losses"])

        run()  # warm-up
        per_step = min(run() for _ in range(args.repeats))
    return {"seconds": per_step}


def _trainer_run(folder: Path, tokenizer, train: dict, scratch: Path):
    from datasets import Dataset
    from transformers import (
        AutoModelForSequenceClassification,
        DataCollatorWithPadding,
        Trainer,
        TrainingArguments,
    )

    masks = [[1] * len(ids) for ids in train["input_ids"]]
    dataset = Dataset.from_dict(
        {"input_ids": train["input_ids"], "attention_mask": masks, "labels": train["labels"]}
    )

    def run() -> float:
        model = AutoModelForSequenceClassification.from_pretrained(folder)
        options = TrainingArguments(
            output_dir=str(scratch / "trainer"), report_to=[], disable_tqdm=True,
            use_cpu=True, bf16=True, per_device_train_batch_size=16, num_train_epochs=1,
            learning_rate=2e-5, lr_scheduler_type="linear", save_strategy="no",
            logging_strategy="no", seed=1,
        )  # fmt: skip
        trainer = Trainer(model=model, args=options, train_dataset=dataset,
                          data_collator=DataCollatorWithPadding(tokenizer))  # fmt: skip
        start = time.perf_counter()
        output = trainer.train()
        return (time.perf_counter() - start) / output.global_step

    return run


SIDE_RUNNERS = {"predict": predict_side, "embed": embed_side, "finetune": finetune_side}


# --- the rounds ---


def run_side(side: str, args: argparse.Namespace) -> dict[str, Any]:
    """``side`` (``kind:variant``) in a fresh Python process; its JSON result."""
    options = [
        f"--examples={args.examples}", f"--train-examples={args.train_examples}",
        f"--batch-size={args.batch_size}", f"--repeats={args.repeats}",
        f"--tatoeba={args.tatoeba}",
    ]  # fmt: skip
    return side_in_fresh_process(__file__, options, side)


def agreement(a: list[int], b: list[int]) -> float:
    return sum(x == y for x, y in zip(a, b, strict=True)) / len(a)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--train-examples", type=int, default=256)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--tatoeba", default="deu", help="Tatoeba language code (its file name)")
    parser.add_argument("--only", choices=sorted(SIDES), action="append", help="some kinds only")
    parser.add_argument("--side", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        kind, variant = args.side[0].split(":")
        result = SIDE_RUNNERS[kind](variant, args)
        Path(args.side[1]).write_text(json.dumps(result))
        return

    e5_folder()  # converted once, before any side is timed
    kinds = args.only or list(SIDES)
    order = [(kind, variant) for kind in kinds for variant in SIDES[kind]]
    order_names = [f"{kind}:{variant}" for kind, variant in order]
    rounds = fresh_rounds(args.rounds, order_names, lambda side: run_side(side, args))

    def ratios(kind: str, slower: str, faster: str) -> list[float]:
        return [
            r["sides"][f"{kind}:{slower}"]["seconds"] / r["sides"][f"{kind}:{faster}"]["seconds"]
            for r in rounds
        ]

    result: dict[str, Any] = {
        **rounds_record(rounds),
        "examples": args.examples,
        "batch_size": args.batch_size,
        "finetune_examples": args.train_examples,
        "tatoeba": args.tatoeba,
        "seconds": {side: [r["sides"][side]["seconds"] for r in rounds] for side in order_names},
    }
    if "predict" in kinds:
        first = rounds[0]["sides"]
        fp32 = first["predict:fp32"]["predictions"]
        result["predict"] = {
            "bf16_vs_fp32": spread(ratios("predict", "fp32", "bf16")),
            "bf16_cast_vs_fp32": spread(ratios("predict", "fp32", "bf16_cast")),
            "bf16_vs_trainer_bf16": spread(ratios("predict", "trainer_bf16", "bf16")),
            "argmax_agreement_bf16_vs_fp32": agreement(first["predict:bf16"]["predictions"], fp32),
            "argmax_agreement_bf16_cast_vs_fp32": agreement(
                first["predict:bf16_cast"]["predictions"], fp32
            ),
            "argmax_agreement_bf16_vs_trainer_bf16": agreement(
                first["predict:bf16"]["predictions"], first["predict:trainer_bf16"]["predictions"]
            ),
        }
    if "embed" in kinds:
        first = rounds[0]["sides"]
        result["embed"] = {
            "sentences": first["embed:fp32"]["sentences"],
            "bf16_vs_fp32": spread(ratios("embed", "fp32", "bf16")),
            "bf16_cast_vs_fp32": spread(ratios("embed", "fp32", "bf16_cast")),
            "accuracy": {v: first[f"embed:{v}"]["accuracy"] for v in SIDES["embed"]},
        }
    if "finetune" in kinds:
        result["finetune"] = {
            "bf16_vs_fp32": spread(ratios("finetune", "fp32", "bf16")),
            "bf16_vs_trainer_bf16": spread(ratios("finetune", "trainer_bf16", "bf16")),
        }
    path = write_result("bf16_cpu", result)

    def show(entry: dict) -> str:
        return f"{entry['median']:.2f}x ({entry['min']:.2f}-{entry['max']:.2f}x)"

    lines = [f"bf16 units: {', '.join(result['cpu_bf16_units']) or 'none'} ({result['cpu_model']})"]
    if p := result.get("predict"):
        lines.append(
            f"predict: autocast {show(p['bf16_vs_fp32'])} fp32, cast once "
            f"{show(p['bf16_cast_vs_fp32'])} fp32, autocast {show(p['bf16_vs_trainer_bf16'])} "
            f"Trainer bf16; argmax agreement with fp32 "
            f"{100 * p['argmax_agreement_bf16_vs_fp32']:.1f}% (autocast), "
            f"{100 * p['argmax_agreement_bf16_cast_vs_fp32']:.1f}% (cast)"
        )
    if e := result.get("embed"):
        accuracy = ", ".join(f"{v} {100 * a:.1f}%" for v, a in e["accuracy"].items())
        lines.append(
            f"embed: autocast {show(e['bf16_vs_fp32'])} fp32, cast once "
            f"{show(e['bf16_cast_vs_fp32'])} fp32; accuracy {accuracy}"
        )
    if f := result.get("finetune"):
        lines.append(
            f"finetune: bf16 {show(f['bf16_vs_fp32'])} fp32, {show(f['bf16_vs_trainer_bf16'])} "
            "Trainer bf16"
        )
    print("\n".join(lines) + f"  ({path})")


if __name__ == "__main__":
    main()
