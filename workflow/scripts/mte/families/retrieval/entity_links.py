"""Mewsli-X's entity links (Botha et al. 2020; XTREME-R's ``third_party/utils_mewslix.py``):
its label and prediction files, and each mention's reciprocal rank at 20. Their mean over a
language's mentions is what XTREME-R's ``evaluate.py`` reports as "map@20"
(``utils_mewslix.evaluate``; with one gold entity per mention, average precision is the
reciprocal rank); a mention with no prediction scores 0, as there.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mte.errors import InputError
from mte.io import read_json, read_jsonl
from mte.stats.ranking import reciprocal_rank_at_k

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


# XTREME-R's mention and entity inputs: at most 64 sub-tokens (scripts/train_mewslix.sh)
MAX_LENGTH = 64
# utils_mewslix's markers around the mention, and how a marked span already in the text is
# escaped: "{x}" becomes "(x)"
MARKER_LEFT, MARKER_RIGHT = "{", "}"
MARKED = re.compile(rf"{re.escape(MARKER_LEFT)}(.*?){re.escape(MARKER_RIGHT)}")
# the Mewsli-X candidate set: one Entity record a line
CANDIDATES_FILE = "candidate_set_entities.jsonl"


def _normalize(text: str) -> str:
    """Line breaks to spaces, double spaces to one, stripped (utils_mewslix's normalisation)."""
    return " ".join(text.splitlines()).replace("  ", " ").strip()


def _spans(record: Any, key: str, path: Path, number: int) -> list[tuple[int, int]]:
    try:
        return [(int(span["start"]), int(span["end"])) for span in record[key]]
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(path, number, f"bad {key}: {error}") from None


def mention_query(
    text: str, sentences: list[tuple[int, int]], start: int, end: int, mention: str | None = None
) -> str:
    """The query text of a mention, as utils_mewslix.preprocess_mention writes it: the
    sentence holding the mention, the mention marked ``{ ... }`` (marks already in the
    sentence escaped to parentheses), the mention's text first, then normalised. Raises
    ValueError where no sentence holds the whole mention."""
    sentence = next(
        ((a, b) for a, b in sentences if a <= start < b and a < end <= b),
        None,
    )
    if sentence is None:
        raise ValueError(f"no sentence holds the mention at {start}-{end}")
    a, b = sentence
    left = MARKED.sub(r"(\1)", text[a:start])
    right = MARKED.sub(r"(\1)", text[end:b])
    # the span's own text where the record gives it (utils_mewslix checks it against the text)
    mention = text[start:end] if mention is None else mention
    return _normalize(f"{mention}: {left} {MARKER_LEFT} {mention} {MARKER_RIGHT} {right}")


def read_mentions(
    path: str | Path, language: str, labels: dict[str, list[str]] | None = None
) -> list[dict[str, Any]]:
    """One language's mentions from Mewsli-X's JSON lines of ContextualMentions (an article's
    ``context`` and its ``mentions``; or one ``mention`` a line): ``id`` (example_id),
    ``question`` (:func:`mention_query`) and ``answers`` (the gold entity id: the mention's
    ``entity_id``, else ``labels``, XTREME-R's wikinews_labels file for test sets released
    without them). Mentions of other languages are skipped."""
    path = Path(path)
    examples = []
    for number, record in enumerate(read_jsonl(path), start=1):
        context = record.get("context") or {}
        if context.get("language") != language:
            continue
        text = context.get("text")
        if not text:
            raise InputError(
                path,
                number,
                "the article has no text (the release without text: run get-mewsli-x.sh, "
                "which fills it in)",
            )
        sentences = _spans(context, "sentence_spans", path, number)
        mentions = record.get("mentions") or ([record["mention"]] if "mention" in record else [])
        for mention in mentions:
            example_id = str(mention.get("example_id", ""))
            span = mention.get("mention_span") or {}
            try:
                start, end = int(span["start"]), int(span["end"])
                query = mention_query(text, sentences, start, end, span.get("text"))
            except (KeyError, TypeError, ValueError) as error:
                raise InputError(path, number, f"mention {example_id!r}: {error}") from None
            gold = mention.get("entity_id") or (labels or {}).get(example_id, [None])[0]
            if not gold:
                raise InputError(
                    path, number, f"mention {example_id!r} has no entity_id and no label"
                )
            examples.append({"id": example_id, "question": query, "answers": [gold.strip()]})
    return examples


def read_entities(path: str | Path) -> list[dict[str, Any]]:
    """Mewsli-X's candidate set: per entity its ``id`` and the ``text`` its tower reads (its
    description's sentences joined and normalised, utils_mewslix's
    preprocess_entity_description)."""
    path = Path(path)
    return [_entity(record, path, number) for number, record in enumerate(read_jsonl(path), 1)]


def _entity(record: Any, path: Path, number: int) -> dict[str, str]:
    description = record.get("description") if isinstance(record, dict) else None
    if not isinstance(description, str) or "entity_id" not in record:
        raise InputError(path, number, "an Entity needs entity_id and description")
    spans = _spans(record, "sentence_spans", path, number)
    text = _normalize(" ".join(description[a:b] for a, b in spans))
    return {"id": str(record["entity_id"]), "text": text}


def read_mention_entity_pairs(path: str | Path, language: str = "en") -> list[dict[str, Any]]:
    """Mewsli-X's training pairs (``wikipedia_pairs-{train,dev}.jsonl``: one MentionEntityPair
    a line, a ``contextual_mention`` and its ``entity``), as XTREME-R's run_retrieval_el.py
    reads them: ``id`` (the mention's example_id, else the line number), ``question`` (the
    mention's query, :func:`mention_query`), ``answer`` (the entity's description, as the
    candidate set's) and ``language``."""
    path = Path(path)
    pairs = []
    for number, record in enumerate(read_jsonl(path), start=1):
        contextual = record.get("contextual_mention") if isinstance(record, dict) else None
        if not isinstance(contextual, dict) or "entity" not in record:
            raise InputError(
                path, number, "a MentionEntityPair needs contextual_mention and entity"
            )
        context, mention = contextual.get("context") or {}, contextual.get("mention") or {}
        text = context.get("text")
        if not text:
            raise InputError(path, number, "the mention's context has no text")
        span = mention.get("mention_span") or {}
        try:
            start, end = int(span["start"]), int(span["end"])
            sentences = _spans(context, "sentence_spans", path, number)
            query = mention_query(text, sentences, start, end, span.get("text"))
        except (KeyError, TypeError, ValueError) as error:
            raise InputError(path, number, f"mention: {error}") from None
        entity = _entity(record["entity"], path, number)
        pairs.append(
            {
                "id": str(mention.get("example_id") or number),
                "question": query,
                "answer": entity["text"],
                "language": language,
            }
        )
    return pairs
