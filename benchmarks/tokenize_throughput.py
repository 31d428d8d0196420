"""Tokenisation: our tokenize step against a per-example tokenizer call loop.

Real XNLI text (the dev files of several languages), the embedded model's tokenizer, pairs
truncated longest-first to 128 sub-tokens. Ours encodes batches of 1000 with the fast
tokenizer and counts truncated pairs from what the tokenizer cut off (one pass); the baseline
calls the tokenizer once per pair. The features must be identical.

    .venv/bin/python benchmarks/tokenize_throughput.py [--languages de fr es ru zh ar]
"""

from __future__ import annotations

import argparse

from _common import best_of, e5_folder, write_result, xnli_examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["de", "fr", "es", "ru", "zh", "ar"])
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()

    from transformers import AutoTokenizer

    from mte.families.pairs.features import tokenize_pairs
    from mte.registry import TASKS

    task = TASKS["xnli"]
    tokenizer = AutoTokenizer.from_pretrained(e5_folder())
    examples = [e for lang in args.languages for e in xnli_examples(lang, 10**9)]

    def per_example() -> list[list[int]]:
        return [
            tokenizer(e["text_a"], e["text_b"], truncation="longest_first", max_length=128)[
                "input_ids"
            ]
            for e in examples
        ]

    ours_time, ours = best_of(args.repeats, lambda: tokenize_pairs(tokenizer, examples, task, 128))
    loop_time, loop = best_of(args.repeats, per_example)
    identical = ours["input_ids"] == loop
    n = len(examples)
    result = {
        "examples": n,
        "languages": args.languages,
        "ours_seconds": ours_time,
        "per_example_seconds": loop_time,
        "ours_examples_per_second": n / ours_time,
        "per_example_examples_per_second": n / loop_time,
        "speedup": loop_time / ours_time,
        "identical_input_ids": identical,
        "truncated": ours["truncated"],
    }
    path = write_result("tokenize_throughput", result)
    print(
        f"tokenize: ours {n / ours_time:.0f} ex/s, per-example loop {n / loop_time:.0f} ex/s -> "
        f"{loop_time / ours_time:.2f}x on {n} pairs; identical: {identical}  ({path})"
    )
    if not identical:
        raise SystemExit("features differ")


if __name__ == "__main__":
    main()
