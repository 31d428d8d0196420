"""The retrieval tasks' prediction step: embed with the pretrained encoder, then search.

No fine-tuning: Tatoeba and BUCC measure how well the encoder's own sentence embeddings align
across languages. The pooling and prefix are the model's (``mte_model.json``); the layers are
the task's ``layers`` choices, each reported.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mte.families.retrieval.dual_encoder import EMBEDDING_RECORD
from mte.families.retrieval.neighbours import margin_candidates, resolve_layers, tatoeba_records
from mte.hub.models import MODEL_RECORD, load_tokenizer
from mte.io import read_json
from mte.modelling.architectures import encoder_class
from mte.modelling.device import describe, placement
from mte.modelling.embeddings import encode_layers

log = logging.getLogger("mte")


def load_encoder(
    model_dir: str | Path,
    layer_choices: list,
    device: str,
    precision: str,
    base_model_dir: str | Path | None,
    xtreme_layers: dict[int, int] | None,
    *,
    tokenization: str,
    do_lower_case: bool,
) -> tuple[Any, Any, dict, dict]:
    """The encoder (on ``device``), its tokenizer, how it embeds (pooling, prefix, and the
    autocast type of ``precision`` under ``dtype``) and the resolved layers. A fine-tune
    embeds as its pretrained model does: ``base_model_dir`` holds that model's record. With
    ``do_lower_case`` the tokenizer is loaded as the dual encoder's fine-tune loaded it."""
    model_dir = Path(model_dir)
    own = model_dir / EMBEDDING_RECORD
    if own.is_file():
        # a dual encoder's fine-tune embeds as it was trained (its pooler, no prefix)
        record = read_json(own)
        usage = {key: record[key] for key in ("pooling", "prefix", "layer")}
    else:
        usage = dict(read_json(Path(base_model_dir or model_dir) / MODEL_RECORD)["embedding"])
    where, usage["dtype"] = placement(device, precision)
    log.info("embedding on %s", describe(where, usage["dtype"]))
    # an encoder-decoder's encoder alone (mT5: MT5EncoderModel), else the base model
    model = encoder_class(model_dir).from_pretrained(model_dir).to(where)
    tokenizer = load_tokenizer(model_dir, do_lower_case, tokenization)
    # paper tokenization reads each text stripped, as evaluate_retrieval.py read its lines
    usage["strip"] = tokenization == "paper"
    depth = model.config.num_hidden_layers
    layers = resolve_layers(layer_choices, usage["layer"], depth, xtreme_layers)
    if usage["pooling"] == "pooler" and set(layers.values()) != {depth}:
        raise ValueError(f"{model_dir} embeds with its pooler over the last layer, not {layers}")
    log.info("pooling %s, prefix %r, layers %s", usage["pooling"], usage["prefix"], layers)
    return model, tokenizer, usage, layers


def _embed(model, tokenizer, usage, layers, texts, batch_size, max_length: int = 512) -> dict:
    return encode_layers(
        model,
        tokenizer,
        texts,
        layers,
        pooling=usage["pooling"],
        prefix=usage["prefix"],
        batch_size=batch_size,
        max_length=max_length,
        progress=True,
        dtype=usage["dtype"],
        strip=usage.get("strip", False),
    )


def _encoder(model_dir: str | Path, options: dict[str, Any]) -> tuple[Any, Any, dict, dict]:
    return load_encoder(
        model_dir,
        options["layers"],
        options["device"],
        options["precision"],
        options.get("base_model"),
        options.get("xtreme_layers"),
        tokenization=options["tokenization"],
        do_lower_case=options["do_lower_case"],
    )


def retrieve_tatoeba(
    model_dir: str | Path, splits: dict[str, list[dict[str, Any]]], options: dict[str, Any]
) -> list[dict[str, Any]]:
    """Nearest-neighbour records of one Tatoeba language (see :func:`tatoeba_records`);
    ``splits`` holds the one evaluated split, as :func:`mine_bucc`'s holds every split;
    ``options``: the task's ``layers`` choices, the embedding ``batch_size``, ``device`` and
    ``precision``."""
    (examples,) = splits.values()
    model, tokenizer, usage, layers = _encoder(model_dir, options)
    batch_size = options["batch_size"]
    foreign = _embed(model, tokenizer, usage, layers, [e["src"] for e in examples], batch_size)
    english = _embed(model, tokenizer, usage, layers, [e["tgt"] for e in examples], batch_size)
    records = tatoeba_records(examples, {name: (foreign[name], english[name]) for name in layers})
    for record in records:
        record["layers"] = layers
    return records


def _unique_texts(records: list[dict[str, Any]], side: str) -> tuple[list[str], list[list[str]]]:
    """The distinct sentences of one side and the ids each stands for. BUCC repeats some
    sentences under several ids: XTREME mines distinct sentences (third_party/utils_retrieve.py,
    text_load_unify and unique_embeddings in mine_bitext), then drops every mined pair with a
    sentence that stands for more than one id (read_sent2id deletes repeated sentences before
    read_candidate2score maps text pairs to id pairs)."""
    ids_of: dict[str, list[str]] = {}
    for record in records:
        if record["side"] == side:
            ids_of.setdefault(record["text"], []).append(record["id"])
    return list(ids_of), list(ids_of.values())


def mine_bucc(
    model_dir: str | Path, splits: dict[str, list[dict[str, Any]]], options: dict[str, Any]
) -> list[dict[str, Any]]:
    """Margin-scored candidate pairs of every split and layer choice:
    ``{split, layer, source, target, score}`` (ids of the ``xx`` and ``en`` sentences);
    ``options`` as :func:`retrieve_tatoeba`'s."""
    model, tokenizer, usage, layers = _encoder(model_dir, options)
    batch_size = options["batch_size"]
    out = []
    for split, records in splits.items():
        source_texts, source_ids = _unique_texts(records, "xx")
        target_texts, target_ids = _unique_texts(records, "en")
        source = _embed(model, tokenizer, usage, layers, source_texts, batch_size)
        target = _embed(model, tokenizer, usage, layers, target_texts, batch_size)
        for name in layers:
            candidates = margin_candidates(source[name], target[name])
            # a sentence under several ids names no one pair: XTREME scores none of its pairs
            kept = [
                (i, j, score)
                for i, j, score in candidates
                if len(source_ids[i]) == 1 and len(target_ids[j]) == 1
            ]
            log.info(
                "%s, layer %s: %d candidate pairs (%d more dropped: a sentence of the pair "
                "occurs under several ids)",
                split,
                name,
                len(kept),
                len(candidates) - len(kept),
            )
            out += [
                {
                    "split": split,
                    "layer": name,
                    "layer_index": layers[name],
                    "source": source_ids[i][0],
                    "target": target_ids[j][0],
                    "score": score,
                }
                for i, j, score in kept
            ]
    return out


def embed_answer_pool(
    model_dir: str | Path, per_language: dict[str, list[dict[str, Any]]], options: dict[str, Any]
) -> dict[str, Any]:
    """LAReQA's pool, embedded once: ``candidates`` (ids, in the pool's order), ``answers``
    (question id -> candidate ids), ``layers`` and ``vectors`` (layer name -> one unit row per
    candidate). Each candidate is read as its sentence and paragraph (``answer_text``), cut at
    XTREME-R's answer length."""
    from mte.families.retrieval.answers import ANSWER_MAX_LENGTH, answer_pool, answer_text

    candidates, answers = answer_pool(per_language)
    log.info(
        "pool: %d candidates of %d languages, %d questions with an answer",
        len(candidates),
        len(per_language),
        len(answers),
    )
    model, tokenizer, usage, layers = _encoder(model_dir, options)
    texts = [answer_text(candidate) for candidate in candidates]
    vectors = _embed(
        model, tokenizer, usage, layers, texts, options["batch_size"], ANSWER_MAX_LENGTH
    )
    return {
        "candidates": [candidate["id"] for candidate in candidates],
        "languages": sorted({candidate["language"] for candidate in candidates}),
        "answers": answers,
        "layers": layers,
        "vectors": vectors,
    }


def _search_pool(
    model_dir: str | Path, texts: list[str], options: dict[str, Any], max_length: int
) -> tuple[dict, dict[str, list[list[str]]]]:
    """Embed ``texts`` (the queries) and search the pool ``options["pool"]`` holds (``index``
    and ``vectors`` as the pool job wrote them) exactly: the index, and per layer choice the
    ids of each query's nearest candidates, best first."""
    import numpy as np

    from mte.families.retrieval.answers import TOP_K
    from mte.stats.ranking import top_k

    index = read_json(options["pool"]["index"])
    with np.load(options["pool"]["vectors"]) as stored:
        pool = {name: stored[name] for name in index["layers"]}
    model, tokenizer, usage, layers = _encoder(model_dir, options)
    if layers != index["layers"]:
        raise ValueError(f"the pool was embedded at layers {index['layers']}, not {layers}")
    vectors = _embed(model, tokenizer, usage, layers, texts, options["batch_size"], max_length)
    candidates = index["candidates"]
    rankings = {
        name: [[candidates[i] for i in row] for row in top_k(vectors[name], pool[name], TOP_K)]
        for name in layers
    }
    return index, rankings


def retrieve_answers(
    model_dir: str | Path, splits: dict[str, list[dict[str, Any]]], options: dict[str, Any]
) -> list[dict[str, Any]]:
    """One question language's rankings: per question ``id``, the pool's ``answers`` to it and,
    per layer choice, the ids of the 20 candidates nearest to it (``rankings``), searched
    exactly over the pool that ``options["pool"]`` holds (as :func:`embed_answer_pool` built
    it: ``index`` and ``vectors``)."""
    from mte.families.retrieval.answers import QUESTION_MAX_LENGTH

    (questions,) = splits.values()
    texts = [question["question"] for question in questions]
    index, rankings = _search_pool(model_dir, texts, options, QUESTION_MAX_LENGTH)
    # a question whose answer lies in no sentence has no answers (utils_lareqa leaves it out)
    answers = [
        index["answers"].get(question["id"], []) if question["answer_positions"] else []
        for question in questions
    ]
    return _ranked_records(questions, answers, index, rankings)


def _ranked_records(
    queries: list[dict[str, Any]], answers: list[list[str]], index: dict, rankings: dict
) -> list[dict[str, Any]]:
    """Per query its ``id``, its ``answers`` and per layer choice its ranking."""
    return [
        {
            "id": query["id"],
            "answers": relevant,
            "rankings": {name: found[row] for name, found in rankings.items()},
            "layers": index["layers"],
        }
        for row, (query, relevant) in enumerate(zip(queries, answers, strict=True))
    ]


def embed_entity_pool(
    model_dir: str | Path, pool_file: str | Path, options: dict[str, Any]
) -> dict[str, Any]:
    """Mewsli-X's candidate set, embedded once: ``candidates`` (entity ids, in the file's
    order), ``layers`` and ``vectors``; each entity read as its description (XTREME-R's
    preprocess_entity_description), cut at 64 sub-tokens."""
    from mte.families.retrieval.entity_links import MAX_LENGTH, read_entities

    entities = read_entities(pool_file)
    log.info("pool: %d candidate entities", len(entities))
    model, tokenizer, usage, layers = _encoder(model_dir, options)
    texts = [entity["text"] for entity in entities]
    vectors = _embed(model, tokenizer, usage, layers, texts, options["batch_size"], MAX_LENGTH)
    return {
        "candidates": [entity["id"] for entity in entities],
        "layers": layers,
        "vectors": vectors,
    }


def retrieve_entities(
    model_dir: str | Path, splits: dict[str, list[dict[str, Any]]], options: dict[str, Any]
) -> list[dict[str, Any]]:
    """One language's mentions: per mention ``id``, its gold entity (``answers``) and per
    layer choice the 20 nearest entities of the candidate set (``rankings``)."""
    from mte.families.retrieval.entity_links import MAX_LENGTH

    (mentions,) = splits.values()
    texts = [mention["question"] for mention in mentions]
    index, rankings = _search_pool(model_dir, texts, options, MAX_LENGTH)
    return _ranked_records(mentions, [mention["answers"] for mention in mentions], index, rankings)
