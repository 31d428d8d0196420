"""Peak memory of prediction: it must grow with the batch size, not with the number of examples.

PAN-X German dev (10,000 real sentences, and its 1,000 longest), e5-small with a seeded
token-classification head.
Each measurement is a fresh process: load the model and the tokenised features, touch every
weight (they are memory-mapped, and would otherwise be paged in during prediction), note the
resident set size, reset the kernel's peak counter (/proc/self/clear_refs), predict, and read
the peak (VmHWM). Predict's own memory is that peak minus the resident size before it.

    .venv/bin/python benchmarks/predict_memory.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from _common import CACHE, SHARED, classifier_folder, write_result

CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import torch
from transformers import AutoModelForTokenClassification
from mte.modelling.features import load_features
from mte.registry import head_for

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) / 1024 for line in f if line.startswith(key))

folder, features_path, batch = sys.argv[2:5]
features = load_features(features_path)
model = AutoModelForTokenClassification.from_pretrained(folder).eval()
# the weights are memory-mapped: page them all in first, so that they count as loaded
with torch.inference_mode():
    sum(float(p.sum()) for p in model.parameters())
before = status("VmRSS:")
with open("/proc/self/clear_refs", "w") as f:  # resets the peak (VmHWM) to the current RSS
    f.write("5")
head_for(features).predict(model, features, int(batch), 1)
print(json.dumps({"before_mb": before, "peak_mb": status("VmHWM:")}))
"""


def prepare() -> tuple[str, dict[int, str], int]:
    """The tagging model folder and the features of the first 1,000 and all 10,000 sentences
    (made once)."""
    from transformers import AutoModelForTokenClassification, AutoTokenizer

    from mte.families.tagging.features import tokenize_tagging
    from mte.families.tagging.readers import read_token_tag_tsv
    from mte.modelling.features import save_features
    from mte.registry import TASKS

    task = TASKS["panx"]
    folder = classifier_folder(task.labels, "AutoModelForTokenClassification")
    examples = read_token_tag_tsv(SHARED / "panx" / "dev-de.tsv", task)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    features_paths = {}
    # the 1,000 longest sentences: their longest batches are as long as the 10,000's, so that
    # a difference in peak memory can only come from the number of examples
    longest = sorted(examples, key=lambda e: -len(e["tokens"]))[:1000]
    for count, chosen in ((1000, longest), (10000, examples)):
        features_paths[count] = str(CACHE / f"panx-de-dev-{count}-longest.features.pt")
        if not Path(features_paths[count]).is_file():
            save_features(
                tokenize_tagging(tokenizer, chosen, task, 128, "first", "paper"),
                features_paths[count],
            )
    parameters = sum(
        p.numel() for p in AutoModelForTokenClassification.from_pretrained(folder).parameters()
    )
    return str(folder), features_paths, parameters


def measure(folder: str, features: str, batch: int) -> dict[str, float]:
    scripts = str(CACHE.parents[1] / "workflow" / "scripts")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, scripts, folder, features, str(batch)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    folder, features, parameters = prepare()
    model_mb = parameters * 4 / 2**20
    rows = []
    for count, batch in ((1000, 32), (10000, 32), (10000, 128)):
        found = measure(folder, features[count], batch)
        rows.append(
            {
                "examples": count,
                "batch_size": batch,
                "before_mb": found["before_mb"],
                "peak_mb": found["peak_mb"],
                "predict_mb": found["peak_mb"] - found["before_mb"],
            }
        )
    small, large, wide = (row["predict_mb"] for row in rows)
    result = {
        "model_parameters": parameters,
        "model_mb_float32": model_mb,
        "runs": rows,
        "examples_ratio_10000_vs_1000": large / small if small > 0 else None,
        "batch_ratio_128_vs_32": wide / large if large > 0 else None,
        "peak_to_model_ratio": rows[1]["peak_mb"] / model_mb,
    }
    path = write_result("predict_memory", result)
    print(
        "predict memory (peak RSS during predict minus RSS before it): "
        + "; ".join(
            f"{r['examples']} ex, batch {r['batch_size']}: {r['predict_mb']:.0f} MB" for r in rows
        )  # fmt: skip
        + f"; model {model_mb:.0f} MB (float32), peak {rows[1]['peak_mb']:.0f} MB  ({path})"
    )


if __name__ == "__main__":
    main()
