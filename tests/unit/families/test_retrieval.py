"""Nearest neighbours, ratio-margin mining and the BUCC threshold, on hand-worked cases."""

from __future__ import annotations

import numpy as np
import pytest

from mte.errors import IntegrityError
from mte.families.retrieval.neighbours import (
    best_threshold,
    margin_candidates,
    mining_prf,
    resolve_layers,
    tatoeba_records,
    xtreme_layer,
)
from mte.registry import TASKS
from tests.scoring_helper import score


def test_margin_scores_and_max_retrieval_by_hand() -> None:
    # cosines (sources x targets): x0: 1.0 0.6 0.8 / x1: 0.0 0.8 0.6
    source = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    target = np.array([[1.0, 0.0], [0.6, 0.8], [0.8, 0.6]], dtype=np.float32)
    # k=2: mean of the 2 best cosines - x0 0.9, x1 0.7; y0 0.5, y1 0.7, y2 0.7
    # forward: x0->y0 1.0/((0.9+0.5)/2) = 10/7, x0->y2 0.8/0.8 = 1; x1->y1 0.8/0.7 = 8/7
    # backward: y0->x0 10/7, y1->x1 8/7, y2->x0 0.8/0.8 = 1
    # best first, each source and target once: (x0, y0) 10/7, (x1, y1) 8/7; (x0, y2) is skipped
    candidates = margin_candidates(source, target, k=2)
    assert [(i, j) for i, j, _ in candidates] == [(0, 0), (1, 1)]
    assert [score for _, _, score in candidates] == pytest.approx([10 / 7, 8 / 7], abs=1e-6)


def test_margin_corrects_a_hub_that_cosine_prefers() -> None:
    # y_hub is close to every source; by cosine x1's nearest is y_hub, by margin its own y1
    source = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], dtype=np.float32)
    hub = np.array([0.7, 0.7, 0.1414], dtype=np.float32)
    own = np.array([0.0, 0.69, 0.7238], dtype=np.float32)
    target = np.stack([hub / np.linalg.norm(hub), own / np.linalg.norm(own)])
    cosines = source @ target.T
    assert cosines[1].argmax() == 0  # cosine: the hub
    candidates = margin_candidates(source, target, k=2)
    assert (1, 1) in [(i, j) for i, j, _ in candidates]


def test_threshold_maximises_dev_f1_halfway_to_the_next_score() -> None:
    scored = [("A", 0.9), ("B", 0.8), ("C", 0.7), ("D", 0.6)]
    gold = {"A", "C", "E"}
    # prefixes: A P=1 R=1/3 F1=0.5; AB F1=0.4; ABC P=2/3 R=2/3 F1=2/3; ABCD F1=4/7
    threshold, f1 = best_threshold(scored, gold)
    assert threshold == pytest.approx(0.65)
    assert f1 == pytest.approx(2 / 3)


def test_mining_prf_counts_pairs_at_or_above_the_threshold() -> None:
    scored = [("A", 0.66), ("B", 0.65), ("C", 0.64)]
    assert mining_prf(scored, {"A", "C"}, 0.65) == pytest.approx(
        {"precision": 0.5, "recall": 0.5, "f1": 0.5}
    )
    assert mining_prf(scored, {"A"}, 0.7) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_layer_choices() -> None:
    """XTREME's --specific_layer counts the hidden states after the embedding output
    (evaluate_retrieval.py keeps all_layer_outputs[-num_layers:]): run_tatoeba.sh's 7 (13 for
    XLM-R large) and run_bucc2018.sh's 7 are hidden states 8 (14) and 8; depths and tasks its
    scripts do not name keep 7 for 12 layers, else the middle."""
    from mte.families.retrieval import AnswerRetrieval, Mining, Retrieval

    tatoeba, bucc = Retrieval.xtreme_layers, Mining.xtreme_layers
    assert (xtreme_layer(12, tatoeba), xtreme_layer(24, tatoeba)) == (8, 14)
    assert (xtreme_layer(12, bucc), xtreme_layer(24, bucc)) == (8, 8)
    assert xtreme_layer(12, AnswerRetrieval.xtreme_layers) == xtreme_layer(12) == 7
    assert xtreme_layer(24) == 12 and xtreme_layer(2, tatoeba) == 1
    assert resolve_layers(["xtreme"], None, 12, tatoeba) == {"xtreme": 8}
    assert resolve_layers(["model", "xtreme", 3], None, 12) == {"model": 12, "xtreme": 7, "3": 3}
    assert resolve_layers(["model"], 9, 12) == {"model": 9}
    with pytest.raises(ValueError, match="outside 0..12"):
        resolve_layers([13], None, 12)


def test_tatoeba_neighbours_in_both_directions() -> None:
    examples = [{"id": "1"}, {"id": "2"}]
    foreign = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    english = np.array([[0.6, 0.8], [1.0, 0.0]], dtype=np.float32)
    # f1 -> e2 (1.0 > 0.6), f2 -> e1 (0.8 > 0); e1 -> f2 (0.8 > 0.6), e2 -> f1
    assert tatoeba_records(examples, {"model": (foreign, english)}) == [
        {"id": "1", "xx_to_en": {"model": "2"}, "en_to_xx": {"model": "2"}},
        {"id": "2", "xx_to_en": {"model": "1"}, "en_to_xx": {"model": "1"}},
    ]


def _tatoeba_prediction(i: str, xx_to_en: str, en_to_xx: str) -> dict:
    return {
        "id": i,
        "xx_to_en": {"model": xx_to_en, "xtreme": i},
        "en_to_xx": {"model": en_to_xx, "xtreme": i},
        "layers": {"model": 12, "xtreme": 7},
    }


def test_tatoeba_accuracy_error_rate_and_reverse_direction() -> None:
    gold = [{"id": str(i), "src": "x", "tgt": "y"} for i in range(1, 5)]
    predictions = [
        _tatoeba_prediction("1", "1", "1"),
        _tatoeba_prediction("2", "2", "3"),
        _tatoeba_prediction("3", "3", "3"),
        _tatoeba_prediction("4", "1", "1"),
    ]
    result = score(TASKS["tatoeba"], predictions, gold, "p.jsonl", "g.jsonl")
    # xx->en right for 1, 2, 3 of 4; en->xx right for 1 and 3
    assert result["metrics"] == pytest.approx(
        {"accuracy": 0.75, "error_rate": 0.25, "accuracy_en_to_xx": 0.5}
    )
    assert result["layer"] == 12
    assert result["by_layer"]["xtreme"]["accuracy"] == 1.0


def test_tatoeba_neighbour_outside_the_gold_is_an_integrity_error() -> None:
    gold = [{"id": "1", "src": "x", "tgt": "y"}]
    with pytest.raises(IntegrityError, match="no xx_to_en neighbour at layer 'model'"):
        score(TASKS["tatoeba"], [_tatoeba_prediction("1", "7", "1")], gold, "p.jsonl", "g.jsonl")


def _bucc_split(gold_pairs: list[tuple[str, str]]) -> list[dict]:
    sentences = [{"id": f"de-{i}", "side": "xx", "text": "t"} for i in range(1, 5)]
    sentences += [{"id": f"en-{i}", "side": "en", "text": "t"} for i in range(1, 5)]
    gold = [
        {"id": f"gold-{n}", "side": "gold", "source": s, "target": t}
        for n, (s, t) in enumerate(gold_pairs)
    ]
    return sentences + gold


def _candidate(split: str, source: str, target: str, score: float) -> dict:
    return {
        "split": split,
        "layer": "model",
        "layer_index": 12,
        "source": source,
        "target": target,
        "score": score,
    }


def dev_split(dev: list[dict]) -> dict:
    """What BUCC's scoring reads besides the evaluated split: the dev split's gold."""
    return {"dev_gold": dev, "dev_gold_path": "dev.jsonl", "eval_split": "test"}


def test_bucc_threshold_from_dev_applied_to_test() -> None:
    dev = _bucc_split([("de-1", "en-1"), ("de-3", "en-3"), ("de-4", "en-4")])
    test = _bucc_split([("de-1", "en-1"), ("de-3", "en-3")])
    predictions = [
        # dev: the threshold example above, 0.65
        _candidate("dev", "de-1", "en-1", 0.9),
        _candidate("dev", "de-2", "en-2", 0.8),
        _candidate("dev", "de-3", "en-3", 0.7),
        _candidate("dev", "de-4", "en-2", 0.6),
        # test: two pairs at or above 0.65, one of them right
        _candidate("test", "de-1", "en-1", 0.66),
        _candidate("test", "de-2", "en-2", 0.65),
        _candidate("test", "de-3", "en-3", 0.64),
    ]
    result = score(TASKS["bucc"], predictions, test, "p", "test.jsonl", **dev_split(dev))
    assert result["metrics"] == pytest.approx(
        {"f1": 0.5, "precision": 0.5, "recall": 0.5, "threshold": 0.65}
    )
    assert result["by_layer"]["model"]["dev_f1"] == pytest.approx(2 / 3)


def test_bucc_candidate_outside_its_split_is_an_integrity_error() -> None:
    dev, test = _bucc_split([("de-1", "en-1")]), _bucc_split([("de-1", "en-1")])
    predictions = [_candidate("dev", "de-1", "en-1", 1.0), _candidate("test", "de-9", "en-1", 1.0)]
    with pytest.raises(IntegrityError, match=r"pair \('de-9', 'en-1'\) is not a pair"):
        score(TASKS["bucc"], predictions, test, "p", "test.jsonl", **dev_split(dev))


def test_bucc_drops_pairs_of_sentences_that_occur_under_several_ids(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """XTREME mines distinct sentences, then deletes a sentence repeated under several ids
    (third_party/utils_retrieve.py, read_sent2id): its mined pair names no one id pair. Here
    b stands for de-2 and de-3, C for en-3 and en-4; a-A is the one pair left."""
    import numpy as np

    import mte.families.retrieval.search as retrieve

    vectors = {
        "a": [1.0, 0.0, 0.0], "A": [1.0, 0.0, 0.0],
        "b": [0.0, 1.0, 0.0], "B": [0.0, 1.0, 0.0],
        "c": [0.0, 0.0, 1.0], "C": [0.0, 0.0, 1.0],
    }  # fmt: skip
    monkeypatch.setattr(retrieve, "load_encoder", lambda *a, **k: (None, None, {}, {"model": 0}))
    monkeypatch.setattr(
        retrieve,
        "_embed",
        lambda model, tok, usage, layers, texts, bs: {
            "model": np.array([vectors[t] for t in texts], dtype=np.float32)
        },
    )
    records = [
        {"id": "de-1", "side": "xx", "text": "a"},
        {"id": "de-2", "side": "xx", "text": "b"},
        {"id": "de-3", "side": "xx", "text": "b"},
        {"id": "de-4", "side": "xx", "text": "c"},
        {"id": "en-1", "side": "en", "text": "A"},
        {"id": "en-2", "side": "en", "text": "B"},
        {"id": "en-3", "side": "en", "text": "C"},
        {"id": "en-4", "side": "en", "text": "C"},
    ]
    options = {"layers": ["model"], "batch_size": 8, "device": "cpu", "precision": "fp32"}
    options.update(tokenization="paper", do_lower_case=False)  # the plan's, always given
    mined = retrieve.mine_bucc("unused", {"test": records}, options)
    assert [(m["source"], m["target"]) for m in mined] == [("de-1", "en-1")]


def _duplicated_keys() -> tuple[np.ndarray, np.ndarray]:
    """80 queries and 40 keys of which every key appears twice (rows 2i and 2i+1 equal): each
    query's best cosine is reached by exactly two keys, a lower and a higher index."""
    rng = np.random.default_rng(7)
    distinct = rng.integers(-3, 4, size=(20, 6)).astype(np.float32)
    distinct /= np.linalg.norm(distinct, axis=1, keepdims=True)
    keys = np.repeat(distinct, 2, axis=0)
    queries = distinct[rng.integers(0, 20, size=80)]
    return queries, keys


def test_tatoeba_nearest_neighbour_ties_go_to_the_lower_index() -> None:
    """Duplicate English sentences: the foreign sentence's neighbour is the first of the two
    equal ones (as a stable sort of the similarities, best first, lists them)."""
    queries, keys = _duplicated_keys()
    examples = [{"id": str(i)} for i in range(len(keys))]
    records = tatoeba_records(examples[: len(keys)], {"model": (keys, keys)})
    # each key i is its own nearest neighbour's twin: the lower of 2i and 2i+1, always 2i
    assert [record["xx_to_en"]["model"] for record in records] == [
        str(i - i % 2) for i in range(len(keys))
    ]
    expected = np.argsort(-(queries @ keys.T), axis=1, kind="stable")[:, 0]
    assert (expected % 2 == 0).all()
    from mte.families.retrieval.neighbours import nearest

    assert nearest(queries, keys).tolist() == expected.tolist()


def test_margin_ties_go_to_the_lower_index() -> None:
    """BUCC's margin over duplicate target sentences: each source's best target among its k
    nearest is the lower index of the two equal ones, as the top-k lists a stable sort's."""
    queries, keys = _duplicated_keys()
    source = queries[:20]
    candidates = margin_candidates(source, keys, k=4)
    proposed = {i: j for i, j, _ in candidates}
    by_cosine = np.argsort(-(source @ keys.T), axis=1, kind="stable")[:, 0]
    for i, j in proposed.items():
        # a forward proposal: the lower twin; a backward one from the lower twin (taken first)
        assert j % 2 == 0, (i, j, by_cosine[i])
