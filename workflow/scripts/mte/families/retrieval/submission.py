"""Retrieval's files of a leaderboard submission, as XTREME's evaluate.py reads them: Tatoeba's
index of the English sentence found for each foreign one, BUCC's mined pairs and Mewsli-X's 20
entities per mention. The first layer choice of a run is the one its headline score gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import IntegrityError
from mte.families._leaderboard_files import (
    SubmissionScore,
    accuracy_score,
    json_text,
    lines_text,
    read_json_object,
    read_values,
    same_count,
    same_keys,
)
from mte.stats.align import align

# Mewsli-X's rankings are cut at 20 (evaluate.py's mewslix_map20)
TOP_K = 20


def _first_layer(records: list[dict[str, Any]], what: str) -> str:
    layers = (records[0].get("layers") if records else None) or {}
    if not layers:
        raise IntegrityError(f"{what}: the first record names no layers")
    return next(iter(layers))


def tatoeba_predictions(predictions: list[dict], gold: list[dict]) -> str:
    """Per foreign sentence, in the test file's order, the line (from 0) of the English
    sentence its nearest neighbour is (the gold: its own line)."""
    pairs = align(predictions, gold, "the predictions", "the test file")
    layer = _first_layer(predictions, "the predictions")
    line_of = {g["id"]: number for number, g in enumerate(gold)}
    found = [(p.get("xx_to_en") or {}).get(layer) for _, p in pairs]
    unknown = [g["id"] for (g, _), f in zip(pairs, found, strict=True) if f not in line_of]
    if unknown:
        raise IntegrityError(f"the predictions: no English neighbour for id(s) {unknown[:5]}")
    return lines_text([line_of[f] for f in found])


def tatoeba_labels(gold: list[dict]) -> str:
    return lines_text(range(len(gold)))


def score_index_files(labels: Path, predictions: Path) -> SubmissionScore:
    """evaluate.py's Tatoeba: the accuracy of the indices, line by line."""
    gold, guesses = read_values(labels), read_values(predictions)
    same_count(gold, guesses, labels, predictions, "indices")
    return accuracy_score(gold, guesses)


def bucc_predictions(candidates: list[dict], score: dict) -> str:
    """The pairs of the evaluated split whose margin reaches the threshold the score file chose
    on dev, at its first layer choice: what BUCC's F1 counted."""
    by_layer = score.get("by_layer") or {}
    if not by_layer:
        raise IntegrityError("the score file records no layer choice and threshold")
    layer, chosen = next(iter(by_layer.items()))
    split = score.get("split", "test")
    pairs = sorted(
        {
            (c["source"], c["target"])
            for c in candidates
            if c["split"] == split and c["layer"] == layer and c["score"] >= chosen["threshold"]
        }
    )
    return lines_text([f"{source}\t{target}" for source, target in pairs])


def bucc_labels(gold: list[dict]) -> str:
    pairs = [(r["source"], r["target"]) for r in gold if r.get("side") == "gold"]
    return lines_text([f"{source}\t{target}" for source, target in pairs])


def score_pair_files(labels: Path, predictions: Path) -> SubmissionScore:
    """evaluate.py's ``bucc_f1``: precision, recall and F1 of the set of predicted pairs against
    the set of gold pairs; F1 at a threshold has no per-example statistics (no interval)."""
    from mte.families.retrieval.neighbours import mining_prf

    gold = {tuple(line.split("\t")) for line in read_values(labels)}
    found = {tuple(line.split("\t")) for line in read_values(predictions)}
    # the pairs found are all above any threshold: BUCC's own F1 of the mined set
    prf = mining_prf([(pair, 1.0) for pair in found], gold, 1.0)
    return SubmissionScore(
        {name: 100 * prf[name] for name in ("f1", "precision", "recall")}, len(gold)
    )


def entity_predictions(predictions: list[dict], gold: list[dict]) -> str:
    """Per mention, in the test file's order, its 20 nearest entities, best first."""
    pairs = align(predictions, gold, "the predictions", "the test file")
    layer = _first_layer(predictions, "the predictions")
    return json_text({g["id"]: list(p["rankings"][layer][:TOP_K]) for g, p in pairs})


def entity_labels(gold: list[dict]) -> str:
    return json_text({g["id"]: list(g["answers"]) for g in gold})


def score_entity_files(labels: Path, predictions: Path) -> SubmissionScore:
    """evaluate.py's ``mewslix_map20``: the mean reciprocal rank of each mention's gold entity
    among its first 20 predictions, a mention's reciprocal rank its per-example statistic."""
    from mte.families.retrieval.entity_links import entity_link_reciprocal_ranks
    from mte.stats.metrics import Means

    gold, found = read_json_object(labels), read_json_object(predictions)
    for path, data in ((labels, gold), (predictions, found)):
        if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
            raise IntegrityError(f"{path}: expected one JSON object: mention id -> entity ids")
    same_keys(gold, found, labels, predictions)
    ranks = entity_link_reciprocal_ranks(gold, found, TOP_K)["reciprocal_ranks"]
    statistics = Means("map_at_20")
    rows = statistics.rows(ranks, [1.0] * len(ranks))
    value = statistics.value("map_at_20", rows) if len(rows) else 0.0
    return SubmissionScore(
        {"map@20": 100 * value}, len(gold), statistics, rows, {"map@20": "map_at_20"}
    )
