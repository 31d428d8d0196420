"""Scoring predictions against gold examples, only when they match one to one."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from mte.errors import IntegrityError
from mte.metrics import Means, hit_rows, sentence_metrics, tagging_metrics, tagging_statistics
from mte.tasks import Task

SHOWN = 5


def _some(items: list[str]) -> str:
    shown = ", ".join(repr(i) for i in items[:SHOWN])
    return shown + (f" and {len(items) - SHOWN} more" if len(items) > SHOWN else "")


def align(
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Pair each gold example with its prediction; any mismatch of ids is an error.

    Missing, extra and duplicated ids are all reported, with the files they concern.
    """
    problems = []
    for name, records, path in (
        ("prediction", predictions, predictions_path),
        ("gold", gold, gold_path),
    ):
        duplicated = sorted(i for i, n in Counter(r["id"] for r in records).items() if n > 1)
        if duplicated:
            problems.append(f"duplicated {name} ids in {path}: {_some(duplicated)}")
    by_id = {r["id"]: r for r in predictions}
    gold_ids = {r["id"] for r in gold}
    missing = [r["id"] for r in gold if r["id"] not in by_id]
    extra = [r["id"] for r in predictions if r["id"] not in gold_ids]
    if missing:
        problems.append(
            f"{len(missing)} gold ids have no prediction in {predictions_path}: {_some(missing)}"
        )
    if extra:
        problems.append(
            f"{len(extra)} predicted ids are not in the gold file {gold_path}: {_some(extra)}"
        )
    if problems:
        raise IntegrityError("; ".join(problems))
    return [(example, by_id[example["id"]]) for example in gold]


def _statistics(task: Task):
    from mte.families import family_of

    return family_of(task).sufficient_statistics(task)


def score_classification(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
) -> dict[str, Any]:
    """The task's metrics (accuracy; MCC; F1 and accuracy); every predicted label must be one
    of the task's."""
    pairs = align(predictions, gold, predictions_path, gold_path)
    unknown = sorted({p["label"] for _, p in pairs if p["label"] not in task.labels})
    if unknown:
        raise IntegrityError(
            f"{predictions_path}: predicted label(s) {_some(unknown)} are not labels of "
            f"{task.title} ({', '.join(task.labels)})"
        )
    gold_labels, predicted = [g["label"] for g, _ in pairs], [p["label"] for _, p in pairs]
    return {
        "n": len(pairs),
        "metrics": sentence_metrics(task, gold_labels, predicted),
        "example_stats": _statistics(task).rows(gold_labels, predicted),
    }


def score_regression(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
) -> dict[str, Any]:
    """Pearson and Spearman correlation of predicted and gold scores (STS-B)."""
    import math

    pairs = align(predictions, gold, predictions_path, gold_path)
    bad = [
        p["id"]
        for _, p in pairs
        if not isinstance(p.get("score"), (int, float)) or not math.isfinite(p["score"])
    ]
    if bad:
        raise IntegrityError(f"{predictions_path}: no finite score for id(s) {_some(bad)}")
    gold_scores, predicted = [g["label"] for g, _ in pairs], [p["score"] for _, p in pairs]
    return {
        "n": len(pairs),
        "metrics": sentence_metrics(task, gold_scores, predicted),
        "example_stats": _statistics(task).rows(gold_scores, predicted),
    }


def score_tagging(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
) -> dict[str, Any]:
    """Entity (NER) or token (POS) metrics; every sentence needs one known tag per word."""
    pairs = align(predictions, gold, predictions_path, gold_path)
    for example, prediction in pairs:
        if len(prediction["tags"]) != len(example["tokens"]):
            raise IntegrityError(
                f"{predictions_path}: sentence {example['id']!r} has {len(example['tokens'])} "
                f"words in {gold_path} but {len(prediction['tags'])} predicted tags"
            )
    unknown = sorted({t for _, p in pairs for t in p["tags"] if t not in task.labels})
    if unknown:
        raise IntegrityError(
            f"{predictions_path}: predicted tag(s) {_some(unknown)} are not tags of {task.title}"
        )
    gold_tags = [example["tags"] for example, _ in pairs]
    predicted = [prediction["tags"] for _, prediction in pairs]
    return {
        "n": len(pairs),
        "words": sum(len(tags) for tags in gold_tags),
        "metrics": tagging_metrics(task, gold_tags, predicted),
        "example_stats": tagging_statistics(task).rows(gold_tags, predicted),
    }


def score_qa(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
    language: str,
) -> dict[str, Any]:
    """F1 and exact match with the task's official answer normalisation for ``language``."""
    from mte.qa_metrics import qa_example_scores, qa_normalizer

    pairs = align(predictions, gold, predictions_path, gold_path)
    not_text = [p["id"] for _, p in pairs if not isinstance(p.get("answer"), str)]
    if not_text:
        raise IntegrityError(f"{predictions_path}: no answer string for id(s) {_some(not_text)}")
    unanswered = [g["id"] for g, _ in pairs if not g["answers"]["text"]]
    if unanswered:
        # SQuAD v1.1 and MLQA score a prediction against at least one gold answer
        raise IntegrityError(
            f"{gold_path}: question(s) {_some(unanswered)} have no gold answer; SQuAD v1.1 "
            "scoring needs at least one"
        )
    per_question = qa_example_scores(
        [p["answer"] for _, p in pairs],
        [g["answers"]["text"] for g, _ in pairs],
        qa_normalizer(task, language),
    )
    statistics = Means("f1", "exact_match")
    rows = statistics.rows(per_question, np.ones(len(per_question)))
    return {"n": len(pairs), "metrics": statistics.values(rows), "example_stats": rows}


def score_retrieval(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
) -> dict[str, Any]:
    """Tatoeba: accuracy of the nearest English sentence for every foreign one (the gold is the
    pair's own), its error rate, and the reverse direction, for every layer choice; the first
    choice gives the headline metrics."""
    pairs = align(predictions, gold, predictions_path, gold_path)
    layers = pairs[0][1].get("layers") or {}
    if not layers:
        raise IntegrityError(f"{predictions_path}: first record names no layers")
    gold_ids = {g["id"] for g, _ in pairs}
    by_layer, first_rows = {}, None
    for name, index in layers.items():
        hits: dict[str, list[bool]] = {"xx_to_en": [], "en_to_xx": []}
        for example, prediction in pairs:
            for direction, found_hits in hits.items():
                found = (prediction.get(direction) or {}).get(name)
                if found not in gold_ids:
                    raise IntegrityError(
                        f"{predictions_path}: id {example['id']!r} has no {direction} neighbour "
                        f"at layer '{name}' among the gold ids (found {found!r})"
                    )
                found_hits.append(found == example["id"])
        rows = hit_rows(hits["xx_to_en"])
        first_rows = rows if first_rows is None else first_rows
        accuracy = Means("accuracy").value("accuracy", rows)
        by_layer[name] = {
            "layer": index,
            "accuracy": accuracy,
            "error_rate": 1 - accuracy,
            "accuracy_en_to_xx": Means("accuracy").value("accuracy", hit_rows(hits["en_to_xx"])),
        }
    first = next(iter(by_layer.values()))
    metrics = {name: first[name] for name in task.metrics}
    return {
        "n": len(pairs),
        "metrics": metrics,
        "layer": first["layer"],
        "by_layer": by_layer,
        "example_stats": first_rows,
    }


def _mining_side(records: list[dict[str, Any]], path: str | Path) -> tuple[set, set, set]:
    """Source ids, target ids and gold pairs of one BUCC split."""
    source = {r["id"] for r in records if r.get("side") == "xx"}
    target = {r["id"] for r in records if r.get("side") == "en"}
    gold = {(r["source"], r["target"]) for r in records if r.get("side") == "gold"}
    if not source or not target or not gold:
        raise IntegrityError(f"{path}: needs xx and en sentences and gold pairs")
    return source, target, gold


def score_mining(
    task: Task,
    predictions: list[dict[str, Any]],
    gold: list[dict[str, Any]],
    dev_gold: list[dict[str, Any]],
    predictions_path: str | Path,
    gold_path: str | Path,
    dev_gold_path: str | Path,
    eval_split: str = "test",
) -> dict[str, Any]:
    """BUCC: the margin threshold that maximises F1 on the dev split, applied to the evaluation
    split's candidates (``split`` of each candidate names its split); precision, recall and
    F1 there, for every layer choice."""
    from mte.retrieval import best_threshold, mining_prf

    sides = {"dev": (dev_gold, dev_gold_path), "eval": (gold, gold_path)}
    splits = {}
    for role, (records, path) in sides.items():
        splits[role] = _mining_side(records, path)
    role_splits = {"dev": "dev", "eval": eval_split}
    layers: dict[str, int] = {}
    scored: dict[tuple[str, str], list] = {}
    for number, candidate in enumerate(predictions, start=1):
        try:
            split, layer = candidate["split"], candidate["layer"]
            pair, score = (candidate["source"], candidate["target"]), float(candidate["score"])
        except (KeyError, TypeError, ValueError) as err:
            raise IntegrityError(
                f"{predictions_path}: line {number}: bad candidate ({err})"
            ) from None
        roles = [role for role, name in role_splits.items() if name == split]
        if not roles:
            raise IntegrityError(f"{predictions_path}: line {number}: unknown split {split!r}")
        for role in roles:
            source, target, _ = splits[role]
            if pair[0] not in source or pair[1] not in target:
                raise IntegrityError(
                    f"{predictions_path}: line {number}: pair {pair} is not a pair of sentences "
                    f"of the {split} split"
                )
            scored.setdefault((role, layer), []).append((pair, score))
        layers[layer] = candidate.get("layer_index")
    by_layer = {}
    for layer, index in layers.items():
        for role in ("dev", "eval"):
            if (role, layer) not in scored:
                raise IntegrityError(
                    f"{predictions_path}: no candidates of layer '{layer}' for {role}"
                )
        threshold, dev_f1 = best_threshold(scored[("dev", layer)], splits["dev"][2])
        prf = mining_prf(scored[("eval", layer)], splits["eval"][2], threshold)
        by_layer[layer] = {"layer": index, **prf, "threshold": threshold, "dev_f1": dev_f1}
    if not by_layer:
        raise IntegrityError(f"{predictions_path}: no candidate pairs")
    first = next(iter(by_layer.values()))
    return {
        "n": len(splits["eval"][2]),
        "metrics": {name: first[name] for name in task.metrics},
        "layer": first["layer"],
        "by_layer": by_layer,
    }


def score_files(
    task: Task,
    predictions_path: str | Path,
    gold_path: str | Path,
    language: str,
    dev_gold_path: str | Path | None = None,
    eval_split: str = "test",
) -> dict[str, Any]:
    """Read a predictions file and its gold file, and score them with the task's family
    (BUCC also reads the dev split, whose gold sets the threshold)."""
    from mte.families import family_of
    from mte.io import read_jsonl

    family = family_of(task)
    predictions, gold = read_jsonl(predictions_path), read_jsonl(gold_path)
    paths: dict[str, Any] = {
        "predictions": predictions_path,
        "gold": gold_path,
        "language": language,
        "eval_split": eval_split,
    }
    if family.extra_eval_splits:
        if dev_gold_path is None:
            raise ValueError(f"{task.title} scoring needs the dev split")
        paths.update(dev_gold=read_jsonl(dev_gold_path), dev_gold_path=dev_gold_path)
    return family.score(task, predictions, gold, paths)


def score_record(
    task: Task,
    predictions_path: str | Path,
    gold_path: str | Path,
    run: dict[str, Any],
    split: str,
    statistics: dict[str, Any],
    dev_gold_path: str | Path | None = None,
) -> dict[str, Any]:
    """One run's score file: the metrics, the bootstrap interval of the primary metric and the
    per-example statistics that paired tests resample.

    ``run``: model, setting, seed and language; ``statistics``: resamples, seed, confidence.
    """
    from mte.statistics import interval_record, resample_seed

    language = run["language"]
    result = score_files(
        task, predictions_path, gold_path, language, dev_gold_path=dev_gold_path, eval_split=split
    )
    stats = result.pop("example_stats", None)
    interval = None
    if stats is not None:
        seed = resample_seed(task, statistics["seed"], language)
        interval = interval_record(
            task, stats, statistics["resamples"], seed, statistics["confidence"]
        )
    return {
        "task": task.name,
        "language": language,
        "model": run["model"],
        "setting": run["setting"],
        "seed": int(run["seed"]),
        "split": split,
        **result,
        "interval": interval,
        # per test example, in gold order: what paired significance tests resample
        "example_stats": None if stats is None else stats.tolist(),
    }
