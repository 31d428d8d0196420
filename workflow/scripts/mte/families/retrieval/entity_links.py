"""Mewsli-X's entity links (Botha et al. 2020; XTREME-R's ``third_party/utils_mewslix.py``):
its label and prediction files, and each mention's reciprocal rank at 20. Their mean over a
language's mentions is what XTREME-R's ``evaluate.py`` reports as "map@20"
(``utils_mewslix.evaluate``; with one gold entity per mention, average precision is the
reciprocal rank); a mention with no prediction scores 0, as there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import InputError
from mte.io import read_json
from mte.ranking import reciprocal_rank_at_k

# the cut-off of the metric (utils_mewslix.TOP_K)
TOP_K = 20


def read_entity_links(path: str | Path) -> dict[str, list[str]]:
    """XTREME-R's Mewsli-X label or prediction file: one JSON object, a mention's id ->
    the list of entity ids (one gold entity; predictions best first)."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError(path, 1, "expected one JSON object: mention id -> list of entity ids")
    for mention, entities in data.items():
        if not isinstance(entities, list) or not all(isinstance(e, str) for e in entities):
            raise InputError(path, 1, f"mention {mention!r}: expected a list of entity ids")
    return data


def entity_link_reciprocal_ranks(
    gold: dict[str, list[str]], predictions: dict[str, list[str]], k: int = TOP_K
) -> dict[str, Any]:
    """Each gold mention's reciprocal rank at ``k`` (in the gold file's order), and how many
    gold mentions have no prediction and how many predictions name no gold mention."""
    ranks = []
    for mention, entities in gold.items():
        if len(entities) != 1:
            raise ValueError(f"mention {mention!r}: Mewsli-X has one gold entity, found {entities}")
        ranks.append(reciprocal_rank_at_k(entities[0].strip(), predictions.get(mention, []), k))
    return {
        "reciprocal_ranks": ranks,
        "missing": len(set(gold) - set(predictions)),
        "unexpected": len(set(predictions) - set(gold)),
    }
