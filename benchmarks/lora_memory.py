"""LoRA against full fine-tuning: peak memory and time per optimiser step of our fine-tune step,
on the same model, data and batch.

e5-small (118M parameters) with a seeded classification head, the first real English XNLI dev
pairs, batch 16, max length 128, one epoch; ``method: lora`` (rank 8, alpha 16, every linear
layer of the body, the head whole: mte.modelling.lora.LORA_DEFAULTS) against ``method: full``.
LoRA saves the gradients and AdamW's two moments of every frozen weight, and the backward
pass's weight gradients; it adds the adapters' small matrices and their activations.

Each side is a fresh Python process, as a workflow job is; its peak resident memory
(``ru_maxrss``: the model, the data, the optimiser and the largest activations at once) and,
on a GPU, torch's peak allocation are its own. A third process only loads the model under its
head: the part of the peak that is not training. Rounds alternate between the sides; the best
time per step of each is kept (memory is the same every round).

    .venv/bin/python benchmarks/lora_memory.py [--examples 256] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import classifier_folder, one_epoch_hp, write_result, xnli_examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=256)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--side", nargs=3, help=argparse.SUPPRESS)  # internal: method job out
    args = parser.parse_args()
    if args.side:
        side(*args.side)
        return

    from transformers import AutoTokenizer

    from mte.families.pairs.features import tokenize_pairs
    from mte.modelling.features import save_features
    from mte.registry import TASKS

    task = TASKS["xnli"]
    folder = classifier_folder(task.labels)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        tokenizer = AutoTokenizer.from_pretrained(folder)
        examples = xnli_examples("en", args.examples + 32)
        save_features(tokenize_pairs(tokenizer, examples[: args.examples], task, 128),
                      scratch / "train.pt")  # fmt: skip
        save_features(tokenize_pairs(tokenizer, examples[args.examples :], task, 128),
                      scratch / "dev.pt")  # fmt: skip
        hp = one_epoch_hp(args.batch_size)
        job = scratch / "job.json"
        job.write_text(json.dumps({"folder": str(folder), "scratch": str(scratch), "hp": hp}))

        def run(method: str, round_: int) -> dict:
            out = scratch / f"{method}-{round_}.json"
            subprocess.run([sys.executable, __file__, "--side", method, job, out], check=True)
            return json.loads(out.read_text())

        runs: dict[str, list[dict]] = {"full": [], "lora": []}
        for round_ in range(args.rounds):
            for method in runs:
                runs[method].append(run(method, round_))
        loaded = run("load", 0)
    best = {m: min(r, key=lambda x: x["seconds_per_step"]) for m, r in runs.items()}
    full, lora = best["full"], best["lora"]
    result = {
        "model": "e5-small (XNLI classifier head)",
        "examples": args.examples,
        "batch_size": args.batch_size,
        "steps": full["steps"],
        "rounds": args.rounds,
        "load_only_peak_mib": loaded["peak_mib"],
        "lora_trainable_parameters": loaded["trainable"],
        "parameters": loaded["parameters"],
        **{f"{m}_{k}": v for m, r in best.items() for k, v in r.items()},
        "peak_ratio": full["peak_mib"] / lora["peak_mib"],
        "training_peak_ratio": (full["peak_mib"] - loaded["peak_mib"])
        / (lora["peak_mib"] - loaded["peak_mib"]),
        "step_time_ratio": full["seconds_per_step"] / lora["seconds_per_step"],
    }
    path = write_result("lora_memory", result)
    print(
        f"LoRA vs full fine-tuning, {full['steps']} steps of batch {args.batch_size}: peak "
        f"memory {lora['peak_mib']:.0f} vs {full['peak_mib']:.0f} MiB ({result['peak_ratio']:.2f}x;"
        f" above loading the model, {loaded['peak_mib']:.0f} MiB: "
        f"{result['training_peak_ratio']:.2f}x), time per step {lora['seconds_per_step']:.3f} vs "
        f"{full['seconds_per_step']:.3f} s ({result['step_time_ratio']:.2f}x); "
        f"{loaded['trainable']} of {loaded['parameters']} parameters train  ({path})"
    )


def side(method: str, job_path: str, out_path: str) -> None:
    """One fine-tune (or, for ``load``, the model loaded under its head) in this process."""
    import torch

    job = json.loads(Path(job_path).read_text())
    scratch = Path(job["scratch"])
    result: dict = {}
    if method == "load":
        from mte.modelling.features import load_features
        from mte.modelling.heads import load_with_new_head
        from mte.modelling.lora import with_lora
        from mte.registry import head_for

        train = load_features(scratch / "train.pt")
        model = load_with_new_head(head_for(train), job["folder"], num_labels=3)
        result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        # what LoRA trains of it (counted after the peak was read)
        adapted = with_lora(model, None)
        result["trainable"] = sum(p.numel() for p in adapted.parameters() if p.requires_grad)
        result["parameters"] = sum(p.numel() for p in adapted.parameters())
        Path(out_path).write_text(json.dumps(result))
        return
    else:
        from mte.modelling.hyperparameters import HyperParameters
        from mte.steps.finetune import finetune

        extra = {"method": "lora"} if method == "lora" else {}
        hp = HyperParameters.from_config({**job["hp"], **extra})
        record = finetune(
            job["folder"], [scratch / "train.pt"], [scratch / "dev.pt"],
            scratch / f"model-{method}", scratch / f"checkpoints-{method}", hp, 1,
        )  # fmt: skip
        steps = len(record["losses"])
        result = {"steps": steps, "seconds_per_step": record["loop_seconds"] / steps}
        result["saved_bytes"] = sum(
            p.stat().st_size for p in (scratch / f"model-{method}").glob("*.safetensors")
        )
    result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if torch.cuda.is_available():
        result["cuda_peak_mib"] = torch.cuda.max_memory_allocated() / 2**20
    Path(out_path).write_text(json.dumps(result))


if __name__ == "__main__":
    main()
