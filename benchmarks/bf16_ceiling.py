"""How far bf16 prediction can go on this CPU: the model's dense matmuls alone in bf16 against
fp32 (the ceiling bf16 units set), and where a prediction's time goes, op by op, in fp32 and
under bf16 autocast. Each side runs in a fresh process, as each job of a run does.

- matmul: ``torch.nn.functional.linear`` over e5-small's dense shapes (the query, key, value and
  output projections, the two feed-forward matrices, times the layers) on as many rows as a
  prediction batch has tokens (the mean over the batches of the first N German XNLI dev pairs,
  batch 32, length-sorted as predict sorts them), fp32 and bf16 weights and inputs, best of
  ``--repeats``;
- profile: one prediction of those pairs (``head.predict``, fp32 and under bf16 autocast as
  ``inference_precision: bf16`` runs it) under torch.profiler, after a warm-up: the time in
  dense matmuls (aten::addmm, aten::mm, aten::bmm), in attention (scaled dot-product), in
  dtype conversions (aten::to, aten::_to_copy, aten::copy_) and in everything else.

The bound: with the fp32 prediction's share f in dense matmuls and attention, and those at the
ceiling ratio r while everything else kept its fp32 time, the prediction would be
1 / (f / r + (1 - f)) times faster than fp32: what bf16 on this CPU can give at best.

    .venv/bin/python benchmarks/bf16_ceiling.py [--rounds 3] [--examples 1000]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from _common import (
    best_of,
    e5_folder,
    fresh_rounds,
    rounds_record,
    side_in_fresh_process,
    spread,
    write_result,
)

SIDES = ("matmul:fp32", "matmul:bf16", "profile:fp32", "profile:bf16")
DENSE = {"aten::addmm", "aten::mm", "aten::bmm", "aten::baddbmm"}
CONVERSIONS = {"aten::to", "aten::_to_copy", "aten::copy_"}


def category(op: str) -> str:
    if op in DENSE:
        return "dense"
    if "scaled_dot_product" in op:
        return "attention"
    if op in CONVERSIONS:
        return "conversion"
    return "other"


def mean_batch_tokens(setup, batch_size: int) -> int:
    from mte.modelling.batching import length_sorted_batches

    ids = setup.features["input_ids"]
    batches = list(length_sorted_batches(setup.features, batch_size))
    return round(
        sum(len(batch) * max(len(ids[i]) for i in batch) for batch in batches) / len(batches)
    )


def matmul_side(precision: str, args: argparse.Namespace) -> dict[str, Any]:
    import torch
    from _common import XnliPrediction

    setup = XnliPrediction(args.examples)
    config = setup.model.config
    hidden, inner, layers = config.hidden_size, config.intermediate_size, config.num_hidden_layers
    tokens = mean_batch_tokens(setup, args.batch_size)
    dtype = torch.bfloat16 if precision == "bf16" else torch.float32
    generator = torch.Generator().manual_seed(0)

    def random(*shape: int):
        return torch.randn(*shape, generator=generator).to(dtype)

    x, h = random(tokens, hidden), random(tokens, inner)
    projection, up, down = random(hidden, hidden), random(inner, hidden), random(hidden, inner)
    linear = torch.nn.functional.linear

    def dense_layers() -> None:
        with torch.inference_mode():
            for _ in range(layers):
                for _ in range(4):
                    linear(x, projection)
                linear(x, up)
                linear(h, down)

    dense_layers()  # warm-up
    seconds, _ = best_of(args.repeats, dense_layers)
    flops = layers * (4 * 2 * tokens * hidden * hidden + 2 * 2 * tokens * hidden * inner)
    return {"seconds": seconds, "tokens": tokens, "gflop_per_second": flops / seconds / 1e9}


def profile_side(precision: str, args: argparse.Namespace) -> dict[str, Any]:
    import time

    import torch
    from _common import XnliPrediction
    from torch.profiler import ProfilerActivity, profile

    setup = XnliPrediction(args.examples)
    dtype = torch.bfloat16 if precision == "bf16" else None

    def run():
        return setup.head.predict(
            setup.model, setup.features, args.batch_size, setup.tokenizer.pad_token_id, dtype=dtype
        )

    run()  # warm-up
    seconds, _ = best_of(args.repeats, run)  # unprofiled wall time
    with profile(activities=[ProfilerActivity.CPU]) as profiler:
        start = time.perf_counter()
        run()
        profiled_seconds = time.perf_counter() - start
    by_category: dict[str, float] = {}
    by_op: dict[str, float] = {}
    for event in profiler.key_averages():
        own = event.self_cpu_time_total / 1e6
        by_op[event.key] = own
        by_category[category(event.key)] = by_category.get(category(event.key), 0.0) + own
    total = sum(by_category.values())
    top = sorted(by_op.items(), key=lambda item: -item[1])[:10]
    return {
        "seconds": seconds,
        "profiled_seconds": profiled_seconds,
        "share": {name: own / total for name, own in sorted(by_category.items())},
        "top_ops": {name: own / total for name, own in top},
    }


SIDE_RUNNERS = {"matmul": matmul_side, "profile": profile_side}


def run_side(side: str, args: argparse.Namespace) -> dict[str, Any]:
    """``side`` in a fresh Python process; its JSON result."""
    options = [f"--examples={args.examples}", f"--batch-size={args.batch_size}",
               f"--repeats={args.repeats}"]  # fmt: skip
    return side_in_fresh_process(__file__, options, side)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--side", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        kind, precision = args.side[0].split(":")
        Path(args.side[1]).write_text(json.dumps(SIDE_RUNNERS[kind](precision, args)))
        return

    e5_folder()  # converted once, before any side is timed
    rounds = fresh_rounds(args.rounds, list(SIDES), lambda side: run_side(side, args))

    def per_round(function) -> list[float]:
        return [function(r["sides"]) for r in rounds]

    def fast_share(sides: dict, precision: str) -> float:
        share = sides[f"profile:{precision}"]["share"]
        return share.get("dense", 0.0) + share.get("attention", 0.0)

    def bound(sides: dict) -> float:
        ratio = sides["matmul:fp32"]["seconds"] / sides["matmul:bf16"]["seconds"]
        share = fast_share(sides, "fp32")
        return 1 / (share / ratio + (1 - share))

    result = {
        **rounds_record(rounds),
        "examples": args.examples,
        "batch_size": args.batch_size,
        "tokens_per_batch": rounds[0]["sides"]["matmul:fp32"]["tokens"],
        "matmul_bf16_vs_fp32": spread(
            per_round(lambda s: s["matmul:fp32"]["seconds"] / s["matmul:bf16"]["seconds"])
        ),
        "matmul_gflop_per_second": {
            p: spread(per_round(lambda s, p=p: s[f"matmul:{p}"]["gflop_per_second"]))
            for p in ("fp32", "bf16")
        },
        "predict_bf16_vs_fp32": spread(
            per_round(lambda s: s["profile:fp32"]["seconds"] / s["profile:bf16"]["seconds"])
        ),
        "fp32_share_dense_and_attention": spread(per_round(lambda s: fast_share(s, "fp32"))),
        "bound_bf16_vs_fp32": spread(per_round(bound)),
        "profiles": {p: rounds[0]["sides"][f"profile:{p}"] for p in ("fp32", "bf16")},
        "seconds": {side: [r["sides"][side]["seconds"] for r in rounds] for side in SIDES},
    }
    path = write_result("bf16_ceiling", result)

    def show(entry: dict, unit: str = "x") -> str:
        return f"{entry['median']:.2f}{unit} ({entry['min']:.2f}-{entry['max']:.2f}{unit})"

    shares = result["profiles"]["bf16"]["share"]
    print(
        f"bf16 units: {', '.join(result['cpu_bf16_units']) or 'none'} ({result['cpu_model']})\n"
        f"dense matmuls: bf16 {show(result['matmul_bf16_vs_fp32'])} fp32 "
        f"({result['tokens_per_batch']} rows)\n"
        f"prediction: bf16 {show(result['predict_bf16_vs_fp32'])} fp32; fp32's share in dense "
        f"matmuls and attention {show(result['fp32_share_dense_and_attention'], '')}; "
        f"bound {show(result['bound_bf16_vs_fp32'])}\n"
        "bf16 prediction's time: "
        + ", ".join(f"{name} {100 * share:.0f}%" for name, share in shares.items())
        + f"  ({path})"
    )


if __name__ == "__main__":
    main()
