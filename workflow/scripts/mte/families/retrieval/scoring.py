"""Scoring retrieval: Tatoeba's nearest neighbours (accuracy per layer choice) and BUCC's
mined pairs (F1 at the margin threshold that maximises F1 on the dev split)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import IntegrityError
from mte.families.retrieval.neighbours import best_threshold, mining_prf
from mte.stats.metrics import Means, hit_rows
from mte.tasks.spec import Task


def measure_neighbours(task: Task, pairs: list, predictions_path: str | Path) -> dict[str, Any]:
    """Tatoeba: accuracy of the nearest English sentence for every foreign one (the gold is the
    pair's own), its error rate, and the reverse direction, for every layer choice; the first
    choice gives the headline metrics."""
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


def measure_mining(
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
