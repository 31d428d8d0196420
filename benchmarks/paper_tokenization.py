"""The cost of paper tokenization: the SentencePiece library's search inside the fast tokenizer.

``tokenization: paper`` (mte.hub.models.load_tokenizer) lets the SentencePiece library cut each
sequence into pieces (a Python step in the fast tokenizer's pre-tokenizer) so that ties of equal
score fall as XTREME's tokenizer had them; ``fast`` is the folder's fast tokenizer alone. Real
XNLI text of several languages, the embedded model's tokenizer, two shapes of call: pairs of
sentences (classification) and each premise as a list of words (tagging and QA tokenise word
by word). Both modes run in alternating rounds; the ratio is paper's time over fast's.

    .venv/bin/python benchmarks/paper_tokenization.py [--languages de fr es ru zh ar]
"""

from __future__ import annotations

import argparse

from _common import alternating_best, e5_folder, write_result, xnli_examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["de", "fr", "es", "ru", "zh", "ar"])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    from mte.hub.models import load_tokenizer

    examples = [e for lang in args.languages for e in xnli_examples(lang, 10**9)]
    firsts = [e["text_a"] for e in examples]
    seconds = [e["text_b"] for e in examples]
    words = [text.split() for text in firsts]
    folder = e5_folder()
    tokenizers = {mode: load_tokenizer(folder, tokenization=mode) for mode in ("paper", "fast")}
    runs = {}
    for mode, tokenizer in tokenizers.items():
        runs[f"{mode} pairs"] = lambda t=tokenizer: t(firsts, seconds)["input_ids"]
        runs[f"{mode} words"] = lambda t=tokenizer: t(words, is_split_into_words=True)["input_ids"]
    timed = alternating_best(args.repeats, runs)
    seconds_of = {name: round(time, 4) for name, (time, _) in timed.items()}
    differing = sum(
        a != b for a, b in zip(timed["paper pairs"][1], timed["fast pairs"][1], strict=True)
    )
    result = {
        "examples": len(examples),
        "languages": args.languages,
        "seconds": seconds_of,
        "pairs_ratio": seconds_of["paper pairs"] / seconds_of["fast pairs"],
        "words_ratio": seconds_of["paper words"] / seconds_of["fast words"],
        "pairs_with_other_ids": differing,
    }
    path = write_result("paper_tokenization", result)
    print(
        f"paper tokenization on {len(examples)} XNLI pairs: {result['pairs_ratio']:.1f}x fast's "
        f"time as pairs ({seconds_of['paper pairs']:.2f} s vs {seconds_of['fast pairs']:.2f} s), "
        f"{result['words_ratio']:.1f}x as word lists ({seconds_of['paper words']:.2f} s vs "
        f"{seconds_of['fast words']:.2f} s); {differing} pairs get other ids  ({path})"
    )


if __name__ == "__main__":
    main()
