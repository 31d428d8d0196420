"""The other ways to run bf16 prediction on a CPU, against what predict jobs do (autocast at
batch 32): each measured for speed and agreement, so that the choice the jobs make is a
measured one. Each side runs in a fresh process, as each job of a run does.

e5-small's seeded XNLI classifier, the first N German XNLI dev pairs, length-sorted batches:

- ``fp32``, ``bf16``: fp32 and bf16 autocast (``inference_precision: bf16``) at batch 32;
- ``fp32_b64``, ``bf16_b64``: the same at batch 64, the sequence-pair tasks' default
  ``eval_batch_size`` (more rows per matrix product, where bf16's matmuls gain more);
- ``bf16_prepacked``: the weights cast to bf16 once and every Linear layer's weight reordered
  once into oneDNN's blocked layout (``torch.utils.mkldnn.to_mkldnn``), so that no batch pays
  for a reorder or a cast;
- ``fp32_compiled``, ``bf16_compiled``: ``torch.compile`` (inductor, dynamic shapes, frozen
  weights: ``torch._inductor.config.freezing``), fp32 and with the weights cast to bf16 once;
  the first pass, which compiles, is timed on its own: a job would pay it every time, as each
  job is a fresh process.

A side's process builds its inputs, runs once (the first pass, timed), then keeps the best of
``--repeats``. ``--rounds`` rounds run every side once each, the order reversed every other
round; the printed figures are the medians over the rounds with their range.

    .venv/bin/python benchmarks/bf16_variants.py [--rounds 3] [--examples 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import time
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

# side -> (batch size, how the model runs)
SIDES = {
    "fp32": (32, "fp32"),
    "bf16": (32, "autocast"),
    "fp32_b64": (64, "fp32"),
    "bf16_b64": (64, "autocast"),
    "bf16_prepacked": (32, "prepacked"),
    "fp32_compiled": (32, "compiled_fp32"),
    "bf16_compiled": (32, "compiled_bf16"),
}


def side(name: str, args: argparse.Namespace) -> dict[str, Any]:
    import torch
    from _common import XnliPrediction

    batch_size, how = SIDES[name]
    setup = XnliPrediction(args.examples)
    model, dtype = setup.model, None
    if how == "autocast":
        dtype = torch.bfloat16
    elif how == "prepacked":
        from torch.utils import mkldnn

        model = mkldnn.to_mkldnn(model.to(torch.bfloat16), dtype=torch.bfloat16)
    elif how.startswith("compiled"):
        import torch._inductor.config as inductor

        inductor.freezing = True  # weights as constants: packed once, folded where they can be
        if how == "compiled_bf16":
            model = model.to(torch.bfloat16)
        model = torch.compile(model, dynamic=True)

    def run():
        return setup.head.predict(
            model, setup.features, batch_size, setup.tokenizer.pad_token_id, dtype=dtype
        )

    start = time.perf_counter()
    run()  # warm-up; for a compiled model, the compilation
    first = time.perf_counter() - start
    seconds, predictions = best_of(args.repeats, run)
    return {
        "seconds": seconds,
        "first_pass_seconds": first,
        "predictions": [int(p) for p in predictions],
    }


def run_side(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """``name`` in a fresh Python process; its JSON result."""

    def compiles_from_nothing(scratch: Path) -> dict[str, str]:
        # each compiled side compiles from nothing, as a job on a fresh machine would
        return {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(scratch / "inductor")}

    options = [f"--examples={args.examples}", f"--repeats={args.repeats}"]
    return side_in_fresh_process(__file__, options, name, env=compiles_from_nothing)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--side", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        Path(args.side[1]).write_text(json.dumps(side(args.side[0], args)))
        return

    e5_folder()  # converted once, before any side is timed
    rounds = fresh_rounds(args.rounds, list(SIDES), lambda name: run_side(name, args))
    order = list(SIDES)

    def ratio(slower: str, faster: str) -> dict[str, Any]:
        return spread(
            [r["sides"][slower]["seconds"] / r["sides"][faster]["seconds"] for r in rounds]
        )

    first = rounds[0]["sides"]

    def agreement(name: str, reference: str) -> float:
        pairs = zip(first[name]["predictions"], first[reference]["predictions"], strict=True)
        return sum(a == b for a, b in pairs) / len(first[reference]["predictions"])

    variants = {}
    for name, (batch_size, how) in SIDES.items():
        if name == "fp32":
            continue
        variants[name] = {
            "batch_size": batch_size,
            "how": how,
            "vs_fp32": ratio("fp32", name),
            "argmax_agreement_vs_fp32": agreement(name, "fp32"),
            "first_pass_seconds": spread([r["sides"][name]["first_pass_seconds"] for r in rounds]),
        }
    variants["bf16_b64"]["vs_fp32_b64"] = ratio("fp32_b64", "bf16_b64")
    variants["bf16_compiled"]["vs_fp32_compiled"] = ratio("fp32_compiled", "bf16_compiled")
    variants["bf16_compiled"]["argmax_agreement_vs_fp32_compiled"] = agreement(
        "bf16_compiled", "fp32_compiled"
    )
    result: dict[str, Any] = {
        **rounds_record(rounds),
        "examples": args.examples,
        "seconds": {name: [r["sides"][name]["seconds"] for r in rounds] for name in order},
        "first_pass_seconds": {
            name: [r["sides"][name]["first_pass_seconds"] for r in rounds] for name in order
        },
        "variants": variants,
    }
    path = write_result("bf16_variants", result)

    def show(entry: dict) -> str:
        return f"{entry['median']:.2f}x ({entry['min']:.2f}-{entry['max']:.2f}x)"

    fp32_seconds = spread(result["seconds"]["fp32"])["median"]
    print(f"fp32 at batch 32: {fp32_seconds:.2f} s (median)")
    for name, entry in variants.items():
        extra = ""
        if "vs_fp32_b64" in entry:
            extra = f", {show(entry['vs_fp32_b64'])} fp32 at batch 64"
        if "vs_fp32_compiled" in entry:
            extra = f", {show(entry['vs_fp32_compiled'])} compiled fp32"
        print(
            f"{name}: {show(entry['vs_fp32'])} fp32{extra}; agreement "
            f"{100 * entry['argmax_agreement_vs_fp32']:.1f}%; first pass "
            f"{entry['first_pass_seconds']['median']:.1f} s"
        )
    print(f"({path})")


if __name__ == "__main__":
    main()
