"""The cost of paper tokenization against the fast tokenizer, and the ids it gives.

``tokenization: paper`` (mte.hub.models.load_tokenizer) makes the model's input what XTREME's
SentencePiece tokenizer made it. For an XLM-R-style tokenizer it now runs as one pass of the
SentencePiece library over a batch (mte.hub.sentencepiece.NativePieces), which the features
call; before, the fast tokenizer ran with two Python steps inside it (SentencePiece's character
normalisation and its segmentation), which a tokenizer with the native pass removed still runs
("own steps" below). Real XNLI text of several languages, the embedded model's tokenizer, two
shapes of input: pairs of sentences (classification: mte.modelling.features.encode_pairs, as
XTREME's run_classify.py cut them) and each premise as a list of words (tagging: every word of
every sentence, mte.families.tagging.features), against the fast tokenizer's batched call on the
same input. Alternating rounds, the best of each kept; ratios are over fast's time.

    .venv/bin/python benchmarks/paper_tokenization.py [--languages de fr es ru zh ar]
"""

from __future__ import annotations

import argparse

from _common import alternating_best, e5_folder, write_result, xnli_examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["de", "fr", "es", "ru", "zh", "ar"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-length", type=int, default=128)
    args = parser.parse_args()

    from mte.families.tagging.features import sentence_pieces
    from mte.hub.models import load_tokenizer
    from mte.hub.sentencepiece import NATIVE_ATTRIBUTE, native_pieces
    from mte.modelling.features import encode_pairs

    examples = [e for lang in args.languages for e in xnli_examples(lang, 10**9)]
    firsts = [e["text_a"] for e in examples]
    seconds = [e["text_b"] for e in examples]
    words = [text.split() for text in firsts]
    folder = e5_folder()
    paper = load_tokenizer(folder, tokenization="paper")
    if native_pieces(paper) is None:
        raise SystemExit(f"{folder}: paper tokenization has no native pass for this tokenizer")
    own = load_tokenizer(folder, tokenization="paper")
    delattr(own, NATIVE_ATTRIBUTE)
    fast = load_tokenizer(folder, tokenization="fast")
    length = args.max_length

    def pairs(tokenizer):
        return encode_pairs(tokenizer, firsts, seconds, length, "transformers2")[0]["input_ids"]

    def word_lists(tokenizer):
        return [sum(sentence, []) for sentence in sentence_pieces(tokenizer, words)]

    runs = {
        "paper pairs": lambda: pairs(paper),
        "own steps pairs": lambda: pairs(own),
        "fast pairs": lambda: fast(firsts, seconds, truncation=False)["input_ids"],
        "paper words": lambda: word_lists(paper),
        "own steps words": lambda: word_lists(own),
        "fast words": lambda: fast(words, is_split_into_words=True, add_special_tokens=False)[
            "input_ids"
        ],
    }
    timed = alternating_best(args.repeats, runs)
    seconds_of = {name: round(time, 4) for name, (time, _) in timed.items()}

    def same(a: str, b: str) -> int:
        return sum(x == y for x, y in zip(timed[a][1], timed[b][1], strict=True))

    result = {
        "examples": len(examples),
        "languages": args.languages,
        "max_length": length,
        "seconds": seconds_of,
        "pairs_ratio": seconds_of["paper pairs"] / seconds_of["fast pairs"],
        "words_ratio": seconds_of["paper words"] / seconds_of["fast words"],
        "own_steps_pairs_ratio": seconds_of["own steps pairs"] / seconds_of["fast pairs"],
        "own_steps_words_ratio": seconds_of["own steps words"] / seconds_of["fast words"],
        "pairs_identical_to_own_steps": same("paper pairs", "own steps pairs"),
        "sentences_identical_to_own_steps": same("paper words", "own steps words"),
    }
    path = write_result("paper_tokenization", result)
    print(
        f"paper tokenization on {len(examples)} XNLI pairs: {result['pairs_ratio']:.2f}x fast's "
        f"time as pairs ({seconds_of['paper pairs']:.2f} s vs {seconds_of['fast pairs']:.2f} s; "
        f"its own steps {result['own_steps_pairs_ratio']:.2f}x), {result['words_ratio']:.2f}x "
        f"as word lists ({seconds_of['paper words']:.2f} s vs {seconds_of['fast words']:.2f} s; "
        f"own steps {result['own_steps_words_ratio']:.2f}x); identical to the own steps: "
        f"{result['pairs_identical_to_own_steps']} pairs, "
        f"{result['sentences_identical_to_own_steps']} sentences  ({path})"
    )


if __name__ == "__main__":
    main()
