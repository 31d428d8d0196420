"""The memory of config/llm.yaml's jobs, per model: a full fine-tune step, a LoRA step and an
in-context forward pass, measured on this CPU with each model's own architecture at its
published size (random weights: the same tensors as the real model's; the hub cannot be
reached from here).

Each side is a fresh Python process, as a workflow job is, and reports its peak resident memory
(``ru_maxrss``). A fine-tune side builds the sequence classifier and takes two fused AdamW steps
(the second holds every optimiser state) over ``parameter_groups`` in fp32, as our trainer
does, at batch 8 x 128 tokens: config/llm.yaml's XNLI and PAN-X jobs (XTREME's 8 x 4
accumulated). The LoRA side adapts every linear layer of the body at rank 8 first, and runs at
batch 4 too: the difference is the activations' share per example, which scales the figures to
QA's 384-token windows (3x) and multiple choice's four sequences per item (4x). The in-context
side runs the causal LM over 8 prompts of 512 tokens under ``inference_mode`` (XLM-R: its
classifier's prediction at 32 x 128). ``load`` builds the model and nothing else.

On a GPU the weights and optimiser take the same bytes (fp32 master weights under autocast);
bf16 autocast keeps activations in half the bytes, so the activation figures are an upper
bound there.

    .venv/bin/python benchmarks/llm_memory.py [--models qwen2.5-0.5b ...]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import write_result

# the architectures of config/llm.yaml's models, from their config.json on the hub
SHAPES = {
    "xlm-roberta-base": (
        "XLMRobertaConfig",
        {"vocab_size": 250002, "hidden_size": 768, "num_hidden_layers": 12,
         "num_attention_heads": 12, "intermediate_size": 3072, "max_position_embeddings": 514,
         "type_vocab_size": 1, "pad_token_id": 1},
    ),
    "qwen2.5-0.5b": (
        "Qwen2Config",
        {"vocab_size": 151936, "hidden_size": 896, "intermediate_size": 4864,
         "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2,
         "tie_word_embeddings": True, "max_position_embeddings": 32768, "pad_token_id": 151643},
    ),
    "qwen3-0.6b-base": (
        "Qwen3Config",
        {"vocab_size": 151936, "hidden_size": 1024, "intermediate_size": 3072,
         "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 8,
         "head_dim": 128, "tie_word_embeddings": True, "max_position_embeddings": 32768,
         "pad_token_id": 151643},
    ),
}  # fmt: skip
SIDES = ("load", "full", "lora", "prompt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    parser.add_argument("--side", nargs=4, help=argparse.SUPPRESS)  # internal
    args = parser.parse_args()
    if args.side:
        model, side_name, batch, out = args.side
        side(model, side_name, int(batch), Path(out))
        return
    results = {}
    with tempfile.TemporaryDirectory() as scratch:

        def run(model: str, side_name: str, batch: int) -> dict:
            out = Path(scratch) / f"{model}-{side_name}-{batch}.json"
            command = [sys.executable, __file__, "--side", model, side_name, str(batch), str(out)]
            subprocess.run(command, check=True)
            return json.loads(out.read_text())

        for model in args.models:
            loaded = run(model, "load", 0)
            full, lora, lora_half = (
                run(model, "full", 8),
                run(model, "lora", 8),
                run(model, "lora", 4),
            )
            results[model] = {
                "parameters": loaded["parameters"],
                "load_mib": loaded["peak_mib"],
                "full_peak_mib": full["peak_mib"],
                "full_seconds_per_step": full["seconds_per_step"],
                "lora_peak_mib": lora["peak_mib"],
                "lora_seconds_per_step": lora["seconds_per_step"],
                "lora_trainable": lora["trainable"],
                "activations_per_example_mib": (lora["peak_mib"] - lora_half["peak_mib"]) / 4,
                "prompt_peak_mib": run(model, "prompt", 8)["peak_mib"],
            }
            _print(model, results[model])
    path = write_result("llm_memory", {"batch": 8, "sequence": 128, **results})
    print(f"({path})")


def _print(model: str, m: dict) -> None:
    gib = 1024
    print(
        f"{model} ({m['parameters'] / 1e6:.0f}M parameters): loaded {m['load_mib'] / gib:.1f} GiB;"
        f" at batch 8 x 128: full fine-tune {m['full_peak_mib'] / gib:.1f} GiB "
        f"({m['full_seconds_per_step']:.1f} s a step), LoRA {m['lora_peak_mib'] / gib:.1f} GiB "
        f"({m['lora_seconds_per_step']:.1f} s; {m['lora_trainable'] / 1e6:.1f}M trainable), "
        f"activations {m['activations_per_example_mib']:.0f} MiB per example; in context "
        f"(8 x 512) {m['prompt_peak_mib'] / gib:.1f} GiB"
    )


def _model(name: str, head: str):
    import torch
    import transformers

    config_class, values = SHAPES[name]
    config = getattr(transformers, config_class)(**values, num_labels=3)
    torch.manual_seed(0)
    return getattr(transformers, head).from_config(config)


def side(name: str, side_name: str, batch: int, out: Path) -> None:
    """One measurement in this process (see the module)."""
    import time

    import torch

    from mte.modelling.lora import with_lora
    from mte.modelling.trainer import parameter_groups

    result: dict = {}
    generator = torch.Generator().manual_seed(0)
    vocab = SHAPES[name][1]["vocab_size"]
    if side_name == "load":
        model = _model(name, "AutoModelForSequenceClassification")
        result["parameters"] = sum(p.numel() for p in model.parameters())
    elif side_name in ("full", "lora"):
        model = _model(name, "AutoModelForSequenceClassification")
        if side_name == "lora":
            model = with_lora(model, None)
            result["trainable"] = sum(p.numel() for p in model.parameters() if p.requires_grad)
        model.train()
        optimiser = torch.optim.AdamW(parameter_groups(model, 0.01), lr=2e-5, fused=True)
        ids = torch.randint(3, vocab, (batch, 128), generator=generator)
        labels = torch.randint(0, 3, (batch,), generator=generator)
        times = []
        for _ in range(2):
            start = time.perf_counter()
            loss = model(input_ids=ids, attention_mask=torch.ones_like(ids), labels=labels).loss
            loss.backward()
            optimiser.step()
            optimiser.zero_grad(set_to_none=True)
            times.append(time.perf_counter() - start)
        result["seconds_per_step"] = times[-1]
    else:  # prompt: the causal LM over 8 prompts of 512 tokens (XLM-R: its prediction)
        decoder = name != "xlm-roberta-base"
        head = "AutoModelForCausalLM" if decoder else "AutoModelForSequenceClassification"
        model = _model(name, head).eval()
        shape = (batch, 512) if decoder else (32, 128)
        ids = torch.randint(3, vocab, shape, generator=generator)
        with torch.inference_mode():
            model(input_ids=ids, attention_mask=torch.ones_like(ids))
    result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.write_text(json.dumps(result))


if __name__ == "__main__":
    main()
