"""The metrics of tagging: CoNLL's entity precision, recall and F1 (chunks as conlleval and
seqeval's default mode delimit them), token-level F1, POS token accuracy, and the seqeval F1 that
XTREME's script reports for POS."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from mte.stats.metrics import Counts, SufficientStatistics, _divide, _f1, same_length
from mte.tasks.spec import Task


def _split_tag(tag: str) -> tuple[str, str]:
    """``B-PER`` -> (``B``, ``PER``); ``O`` -> (``O``, ``""``)."""
    if tag == "O":
        return "O", ""
    prefix, _, kind = tag.partition("-")
    return prefix, kind


def _chunk_ends(prev: str, prev_kind: str, tag: str, kind: str) -> bool:
    # conlleval's endOfChunk
    return (
        prev in ("E", "S")
        or (prev in ("B", "I") and tag in ("B", "S", "O"))
        or (prev != "O" and prev_kind != kind)
    )


def _chunk_starts(prev: str, prev_kind: str, tag: str, kind: str) -> bool:
    # conlleval's startOfChunk: an I- after O or after another type opens a chunk too
    return (
        tag in ("B", "S")
        or (prev in ("E", "S", "O") and tag in ("E", "I"))
        or (tag != "O" and prev_kind != kind)
    )


def entities(tags: Sequence[str]) -> set[tuple[str, int, int]]:
    """The chunks ``(type, first, last)`` of one sentence's IOB/IOBES tags, as conlleval (and
    seqeval's default mode, which XTREME uses) delimit them."""
    return _chunks(tags, _split_tag)


def _chunks(
    tags: Sequence[str], split_tag: Callable[[str], tuple[str, str]]
) -> set[tuple[str, int, int]]:
    """conlleval's chunks of ``tags``, each tag read as (prefix, type) by ``split_tag``."""
    chunks = set()
    prev, prev_kind, begin = "O", "", 0
    for position, tag in enumerate([*tags, "O"]):
        current, kind = split_tag(tag)
        if _chunk_ends(prev, prev_kind, current, kind):
            chunks.add((prev_kind, begin, position - 1))
        if _chunk_starts(prev, prev_kind, current, kind):
            begin = position
        prev, prev_kind = current, kind
    return chunks


class EntityCounts(Counts):
    """Per sentence: entities right (type and both boundaries), predicted, and gold; CoNLL's
    micro-averaged entity precision, recall and F1 over all sentences."""

    def rows(self, gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]) -> np.ndarray:
        same_length(gold, predicted)
        rows = []
        for gold_tags, guess_tags in zip(gold, predicted, strict=True):
            gold_chunks, guess_chunks = entities(gold_tags), entities(guess_tags)
            rows.append((len(gold_chunks & guess_chunks), len(guess_chunks), len(gold_chunks)))
        return np.array(rows, float).reshape(-1, 3)


class TokenCounts(Counts):
    """Per sentence: tokens not tagged ``O`` whose predicted tag (prefix and type) equals the
    gold one, predicted tags other than ``O``, gold tags other than ``O`` (token-level F1)."""

    def rows(self, gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]) -> np.ndarray:
        same_length(gold, predicted)
        return np.array(
            [
                (
                    sum(g == p != "O" for g, p in zip(gold_tags, guess_tags, strict=True)),
                    sum(p != "O" for p in guess_tags),
                    sum(g != "O" for g in gold_tags),
                )
                for gold_tags, guess_tags in zip(gold, predicted, strict=True)
            ],
            float,
        ).reshape(-1, 3)


def entity_prf(
    gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]
) -> dict[str, float]:
    """Micro-averaged entity precision, recall and F1 over all sentences (CoNLL's measure):
    a predicted entity counts only when its type and both boundaries match a gold entity."""
    statistics = EntityCounts()
    return statistics.values(statistics.rows(gold, predicted))


def token_f1(gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]) -> float:
    """Token-level micro F1 over the tokens not tagged ``O``."""
    statistics = TokenCounts()
    return statistics.value("f1", statistics.rows(gold, predicted))


def seqeval_2020_chunks(sentences: Sequence[Sequence[str]]) -> set[tuple[str, int, int]]:
    """The chunks ``(type, first, last)`` that seqeval 0.0.12's ``get_entities`` takes from a
    list of sentences: joined with an ``O`` after each, a tag's first character its prefix and
    the tag up to its last ``-`` cut off its type (``NOUN`` a chunk ``N`` of type ``NOUN``,
    ``B-PER`` one ``B`` of type ``PER``), conlleval's ends and starts.

    Why 0.0.12: it was seqeval's release from June 2019 until 30 September 2020, so XTREME's
    runs of 2020 and the values its evaluate_test.py asserts for UD-POS come from it. Its
    0.0.16 and later (1.2.2 today) type a tag without ``-`` by what follows its first
    character: ``CCONJ`` and ``SCONJ`` both ``CONJ``, and ``X`` by ``_`` as ``O``, so that an
    ``X`` chunk runs on through the sentence's end (docs/submission.md measures the
    difference)."""
    joined = [tag for sentence in sentences for tag in [*sentence, "O"]]
    return _chunks(joined, lambda tag: (tag[0], tag.split("-")[-1]))


class PosCounts(SufficientStatistics):
    """Per sentence: correct tokens, tokens, and the chunks right, predicted and gold of
    seqeval's F1 over POS tags (the metric of XTREME's POS table: its run_tag.py and
    evaluate.py call seqeval's default ``f1_score``, which reads a tag's first letter as a chunk
    prefix), with the chunks of seqeval 0.0.12, XTREME's (:func:`seqeval_2020_chunks`).

    seqeval joins the sentences with an ``O`` after each and takes the chunks of the whole;
    those chunks are counted here, each in the sentence where it ends, so that the sums are
    seqeval's counts exactly and the bootstrap resamples sentences."""

    metrics = ("accuracy", "seqeval_f1")

    def rows(self, gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]) -> np.ndarray:
        same_length(gold, predicted)
        rows = np.zeros((len(gold), 5))
        sentence_of = []
        for index, (gold_tags, guess_tags) in enumerate(zip(gold, predicted, strict=True)):
            same_length(gold_tags, guess_tags)
            rows[index, 0] = sum(g == p for g, p in zip(gold_tags, guess_tags, strict=True))
            rows[index, 1] = len(gold_tags)
            sentence_of += [index] * (len(gold_tags) + 1)  # its tags and the O after them
        gold_chunks = seqeval_2020_chunks(gold)
        guess_chunks = seqeval_2020_chunks(predicted)
        for column, chunks in (
            (2, gold_chunks & guess_chunks),
            (3, guess_chunks),
            (4, gold_chunks),
        ):
            for _, _, last in chunks:
                rows[sentence_of[last], column] += 1
        return rows

    def _accuracy(self, sums: np.ndarray) -> np.ndarray:
        return _divide(sums[..., 0], sums[..., 1])

    def _seqeval_f1(self, sums: np.ndarray) -> np.ndarray:
        return _f1(_divide(sums[..., 2], sums[..., 3]), _divide(sums[..., 2], sums[..., 4]))


class SeqevalPosCounts(PosCounts):
    """:class:`PosCounts` read as the three figures evaluate.py prints for UD-POS: seqeval's
    precision, recall and F1 over the tags."""

    metrics = ("seqeval_precision", "seqeval_recall", "seqeval_f1")

    def _seqeval_precision(self, sums: np.ndarray) -> np.ndarray:
        return _divide(sums[..., 2], sums[..., 3])

    def _seqeval_recall(self, sums: np.ndarray) -> np.ndarray:
        return _divide(sums[..., 2], sums[..., 4])


def tagging_statistics(task: Task) -> EntityCounts | PosCounts:
    """NER: entity counts; POS: token accuracy and seqeval's chunk counts."""
    return EntityCounts() if task.options.scheme == "entities" else PosCounts()


def tagging_metrics(
    task: Task, gold: list[list[str]], predicted: list[list[str]]
) -> dict[str, float]:
    """The task's metrics: NER entity P/R/F1 plus token-level F1; POS token accuracy and the
    seqeval F1 of XTREME's POS table (:class:`PosCounts`), each with per-sentence statistics."""
    statistics = tagging_statistics(task)
    primary = statistics.values(statistics.rows(gold, predicted))
    if task.options.scheme == "entities":
        return {**primary, "token_f1": token_f1(gold, predicted)}
    return primary


def _prf(right: int, predicted: int, gold: int) -> dict[str, float | int]:
    precision = right / predicted if predicted else 0.0
    recall = right / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "right": right,
        "predicted": predicted,
        "gold": gold,
    }


def entity_prf_by_type(
    gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]
) -> dict[str, dict[str, float | int]]:
    """CoNLL's entity precision, recall and F1 for each entity type alone (conlleval's and
    seqeval's per-type rows): an entity is right when its type and both boundaries match; a
    type appears when it is gold or predicted somewhere."""
    same_length(gold, predicted)
    counts: dict[str, list[int]] = {}
    for gold_tags, guess_tags in zip(gold, predicted, strict=True):
        gold_chunks, guess_chunks = entities(gold_tags), entities(guess_tags)
        for kind, *_ in gold_chunks | guess_chunks:
            counts.setdefault(kind, [0, 0, 0])
        for kind, *_ in gold_chunks & guess_chunks:
            counts[kind][0] += 1
        for kind, *_ in guess_chunks:
            counts[kind][1] += 1
        for kind, *_ in gold_chunks:
            counts[kind][2] += 1
    return {kind: _prf(*counts[kind]) for kind in sorted(counts)}


def accuracy_by_tag(
    gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]], confusions: int = 10
) -> dict[str, object]:
    """Per gold tag: its words and the share tagged right; and the ``confusions`` most frequent
    (gold, predicted) pairs of different tags with their counts (ties in tag order)."""
    same_length(gold, predicted)
    words: dict[str, int] = {}
    right: dict[str, int] = {}
    wrong: dict[tuple[str, str], int] = {}
    for gold_tags, guess_tags in zip(gold, predicted, strict=True):
        for g, p in zip(gold_tags, guess_tags, strict=True):
            words[g] = words.get(g, 0) + 1
            if g == p:
                right[g] = right.get(g, 0) + 1
            else:
                wrong[(g, p)] = wrong.get((g, p), 0) + 1
    tags = {
        tag: {
            "words": words[tag],
            "right": right.get(tag, 0),
            "accuracy": right.get(tag, 0) / words[tag],
        }
        for tag in sorted(words)
    }
    ranked = sorted(wrong.items(), key=lambda item: (-item[1], item[0]))[:confusions]
    return {
        "tags": tags,
        "confusions": [{"gold": g, "predicted": p, "count": n} for (g, p), n in ranked],
    }
