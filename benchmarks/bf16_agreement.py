"""What bf16 prediction changes on real files: XNLI's 15 dev files predicted by the same
fine-tuned model in fp32, under bf16 autocast (``inference_precision: bf16``) and with its
weights cast to bf16 once; per language the argmax agreement with fp32 and the accuracy of each.

The model: e5-small fine-tuned here, in fp32, by the project's fine-tune step on the English
dev file (XNLI ships no training file in ../shared/data; MultiNLI is not here), 1 epoch, batch
32, learning rate 3e-5, seed 1; so English is scored on the pairs it was trained on (marked).
The other 14 languages are zero-shot, as in the paper's setting. Prediction at batch 32; the
seconds of each precision are recorded, but speed is benchmarks/bf16_cpu.py's to measure (this
one may run beside other work: its figures are agreements and accuracies).

    .venv/bin/python benchmarks/bf16_agreement.py [--epochs 1] [--pairs N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import CACHE, classifier_folder, one_epoch_hp, write_result, xnli_examples

LANGUAGES = (
    "en",
    "ar",
    "bg",
    "de",
    "el",
    "es",
    "fr",
    "hi",
    "ru",
    "sw",
    "th",
    "tr",
    "ur",
    "vi",
    "zh",
)


def fine_tuned(folder: Path, tokenizer, task, epochs: int) -> Path:
    """e5-small fine-tuned on the English dev pairs (once; kept under benchmarks/.cache)."""
    from mte.families.pairs.features import tokenize_pairs
    from mte.modelling.features import save_features
    from mte.modelling.hyperparameters import HyperParameters
    from mte.steps.finetune import finetune

    out = CACHE / f"e5-small-xnli-en-dev-{epochs}ep"
    if (out / "config.json").is_file():
        return out
    examples = xnli_examples("en", 10**6)
    hp = HyperParameters.from_config({**one_epoch_hp(32), "learning_rate": 3e-5, "epochs": epochs})
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        save_features(tokenize_pairs(tokenizer, examples, task, 128), scratch / "train.pt")
        save_features(tokenize_pairs(tokenizer, examples[:64], task, 128), scratch / "dev.pt")
        finetune(
            folder, [scratch / "train.pt"], [scratch / "dev.pt"], out, scratch / "checkpoints",
            hp, 1, device="cpu", precision="fp32",
        )  # fmt: skip
    tokenizer.save_pretrained(out)
    return out


def matching(labels: list[int], other: list[int]) -> float:
    """The share of positions where the two label lists agree."""
    return sum(int(a) == int(b) for a, b in zip(labels, other, strict=True)) / len(other)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--pairs", type=int, help="the first N pairs of each file (all: unset)")
    args = parser.parse_args()

    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from mte.families.pairs.features import tokenize_pairs
    from mte.registry import TASKS, head_for
    from mte.runtime.machine import cpu_bf16_units, cpu_model

    task = TASKS["xnli"]
    base = classifier_folder(task.labels)
    tokenizer = AutoTokenizer.from_pretrained(base)
    folder = fine_tuned(base, tokenizer, task, args.epochs)
    fp32_model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    cast_model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    cast_model = cast_model.to(torch.bfloat16)
    sides = {
        "fp32": (fp32_model, None),
        "bf16": (fp32_model, torch.bfloat16),
        "bf16_cast": (cast_model, None),
    }
    seconds = dict.fromkeys(sides, 0.0)
    per_language = {}
    for lang in LANGUAGES:
        examples = xnli_examples(lang, args.pairs or 10**6)
        features = tokenize_pairs(tokenizer, examples, task, 128)
        head = head_for(features)
        gold = list(features["labels"])
        predictions = {}
        for name, (model, dtype) in sides.items():
            start = time.perf_counter()
            predictions[name] = head.predict(
                model, features, args.batch_size, tokenizer.pad_token_id, dtype=dtype
            )
            seconds[name] += time.perf_counter() - start

        entry = {"n": len(gold), "trained_on": lang == "en"}
        for name in sides:
            entry[f"accuracy_{name}"] = matching(predictions[name], gold)
        for name in ("bf16", "bf16_cast"):
            entry[f"agreement_{name}_vs_fp32"] = matching(predictions[name], predictions["fp32"])
            entry[f"difference_{name}"] = entry[f"accuracy_{name}"] - entry["accuracy_fp32"]
        per_language[lang] = entry
        print(
            f"{lang}: accuracy fp32 {100 * entry['accuracy_fp32']:.2f}, bf16 "
            f"{100 * entry['accuracy_bf16']:.2f}, cast {100 * entry['accuracy_bf16_cast']:.2f}; "
            f"agreement {100 * entry['agreement_bf16_vs_fp32']:.2f}% / "
            f"{100 * entry['agreement_bf16_cast_vs_fp32']:.2f}%",
            flush=True,
        )
    total = sum(e["n"] for e in per_language.values())
    epochs = "epoch" if args.epochs == 1 else "epochs"
    summary = {}
    for name in ("bf16", "bf16_cast"):
        differences = [e[f"difference_{name}"] for e in per_language.values()]
        agreeing = sum(e[f"agreement_{name}_vs_fp32"] * e["n"] for e in per_language.values())
        summary[name] = {
            "agreement_vs_fp32": agreeing / total,
            "lowest_agreement": min(e[f"agreement_{name}_vs_fp32"] for e in per_language.values()),
            "largest_accuracy_difference": max(differences, key=abs),
            "mean_accuracy_difference": sum(differences) / len(differences),
            "speedup_vs_fp32": seconds["fp32"] / seconds[name],
        }
    result = {
        "cpu_model": cpu_model(),
        "cpu_bf16_units": cpu_bf16_units(),
        "model": f"e5-small fine-tuned on XNLI en dev, {args.epochs} {epochs}, fp32",
        "batch_size": args.batch_size,
        "pairs": total,
        "pairs_per_file": args.pairs or "all",
        "seconds": seconds,
        "summary": summary,
        "per_language": per_language,
    }
    path = write_result("bf16_agreement", result)
    for name, entry in summary.items():
        print(
            f"{name}: argmax agreement with fp32 {100 * entry['agreement_vs_fp32']:.2f}% over "
            f"{total} pairs (lowest {100 * entry['lowest_agreement']:.2f}%), largest accuracy "
            f"difference {100 * entry['largest_accuracy_difference']:+.2f} points, "
            f"{entry['speedup_vs_fp32']:.2f}x fp32's time"
        )
    print(f"({path})")


if __name__ == "__main__":
    main()
