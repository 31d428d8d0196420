"""Every distinct word of a data folder (../shared/data by default) normalised by the paper
tokenizer and by the SentencePiece library, cased and lower-cased (transformers 2.x's
``lowercase_text`` before SentencePiece: ``str.lower`` of one character at a time, so a final
sigma stays σ): the words whose normalisations differ, counted for the
paper tokenizer as it is and for its normaliser without the SentencePiece cluster step
(mte.hub.sentencepiece.SentencePieceClusters), i.e. the fast tokenizer's Precompiled step as
it was. Words are the whitespace-split tokens of every text file, and every string of every
JSON file.

Usage: python tools/parity/normaliser_scan.py [--data DIR] [--model resources/models/e5-small]
Exit status 1 when the paper tokenizer differs from SentencePiece on any word."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "workflow" / "scripts"))


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def words(data: Path) -> set[str]:
    found: set[str] = set()
    for path in sorted(p for p in data.rglob("*") if p.is_file()):
        suffix = path.suffix
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if suffix in (".json", ".jsonl"):
            lines = [text] if suffix == ".json" else text.splitlines()
            for line in lines:
                try:
                    strings = list(_strings(json.loads(line)))
                except json.JSONDecodeError:
                    continue
                found.update(w for s in strings for w in s.split())
        else:  # TSV, CoNLL, CoNLL-U, Tatoeba's and BUCC's sentence files, READMEs
            found.update(text.split())
    return found


def main() -> int:
    import sentencepiece
    from tokenizers import Regex, normalizers

    from mte.hub.models import load_tokenizer
    from mte.hub.sentencepiece import normalizer_spec, precompiled_charsmap

    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--model", default=str(ROOT / "resources" / "models" / "e5-small"))
    args = parser.parse_args()
    spec = json.loads(Path(args.model, "tokenizer.json").read_text(encoding="utf-8"))
    charsmap = precompiled_charsmap(spec)
    # SentencePiece's normaliser as XLM-R's model runs it, but for the dummy prefix and the
    # escaped spaces, which the fast tokenizer's Metaspace adds after its normaliser
    reference = sentencepiece.SentencePieceNormalizer(
        normalizer_spec=normalizer_spec(charsmap, remove_extra_whitespaces=True)
    )
    vocabulary = sorted(words(Path(args.data)))
    print(f"{len(vocabulary)} distinct words in {args.data}", flush=True)
    # and the constructed clusters (a mapped character, then a combining mark), which
    # show that the scan sees such a difference where there is one
    constructed = ["\ufefb\u064e", "\uff21\u0301", "\u01c6\u0301", "\u2460\u0301"]
    strip = normalizers.Replace(Regex(r"\A +| +\z"), "")
    failed = False
    for lower in (False, True):
        paper = load_tokenizer(args.model, lower, "paper").backend_tokenizer.normalizer
        fast = load_tokenizer(args.model, False, "fast").backend_tokenizer.normalizer
        before_steps = [normalizers.Lowercase()] if lower else []
        before = normalizers.Sequence([*before_steps, fast, strip])
        for label, group in (("constructed", constructed), ("data", vocabulary)):
            failed = _count(label, group, lower, reference, before, paper) or failed
    return 1 if failed else 0


def _count(label, group, lower, reference, before, paper) -> bool:
    """Print how many words of ``group`` each normaliser gives otherwise than SentencePiece;
    whether the paper tokenizer's does for any."""
    counts = {"before": 0, "after": 0}
    first: dict[str, str] = {}
    for word in group:
        text = "".join(c.lower() for c in word) if lower else word
        expected = reference.normalize(text)
        for name, normaliser in (("before", before), ("after", paper)):
            if normaliser.normalize_str(word) != expected:
                counts[name] += 1
                first.setdefault(name, word)
    case = "lower-cased" if lower else "cased"
    print(
        f"{label}, {case}: {counts['before']} of {len(group)} words differ before (first "
        f"{first.get('before')!r}), {counts['after']} after (first {first.get('after')!r})",
        flush=True,
    )
    return counts["after"] > 0


if __name__ == "__main__":
    sys.exit(main())
