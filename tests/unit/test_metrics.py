"""Accuracy against values counted by hand."""

import math

import pytest

from mte.stats.metrics import accuracy, card_metrics


def test_accuracy_hand_counted() -> None:
    # 3 of 4 right
    assert accuracy(["a", "b", "c", "a"], ["a", "b", "c", "b"]) == 0.75
    assert accuracy([1], [1]) == 1.0
    assert accuracy([0, 0, 0], [1, 1, 1]) == 0.0


def test_accuracy_refuses_mismatched_or_empty() -> None:
    with pytest.raises(ValueError, match="2 gold labels but 1 predictions"):
        accuracy(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="empty"):
        accuracy([], [])


def test_entity_f1_hand_worked() -> None:
    from mte.families.tagging.metrics import entities, entity_prf

    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    # PER right; LOC predicted as ORG (wrong type); ORG boundaries wrong (two tokens)
    predicted = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "I-ORG"]]
    assert entities(gold[0]) == {("PER", 0, 1), ("LOC", 3, 3)}
    # 1 correct of 3 predicted and 3 gold: P = R = F1 = 1/3
    assert entity_prf(gold, predicted) == pytest.approx(
        {"precision": 1 / 3, "recall": 1 / 3, "f1": 1 / 3}
    )
    # an I- after O opens an entity (conlleval), so IOB1-style input is read as chunks
    assert entities(["I-PER", "I-PER", "O", "I-LOC"]) == {("PER", 0, 1), ("LOC", 3, 3)}
    assert entities(["B-PER", "I-LOC"]) == {("PER", 0, 0), ("LOC", 1, 1)}
    # nothing predicted: precision and F1 are 0, not undefined
    assert entity_prf([["B-PER"]], [["O"]]) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_token_f1_hand_worked() -> None:
    from mte.families.tagging.metrics import token_f1

    gold = [["B-PER", "I-PER", "O", "B-LOC"]]
    predicted = [["B-PER", "O", "B-LOC", "B-LOC"]]
    # non-O: gold 3, predicted 3, correct 2 (B-PER, B-LOC at 3): P = R = F1 = 2/3
    assert token_f1(gold, predicted) == pytest.approx(2 / 3)


def test_pos_metrics_hand_worked() -> None:
    from mte.families.tagging.metrics import tagging_metrics
    from mte.registry import TASKS

    gold = [["NOUN", "VERB", "DET"], ["PRON"]]
    predicted = [["NOUN", "NOUN", "DET"], ["PRON"]]
    metrics = tagging_metrics(TASKS["udpos"], gold, predicted)
    assert metrics["accuracy"] == 0.75  # 3 of 4 tokens
    assert 0 <= metrics["seqeval_f1"] <= 1


def _random_labels(seed: int, size: int, labels: list[str]) -> tuple[list[str], list[str]]:
    import numpy as np

    rng = np.random.default_rng(seed)
    gold = rng.choice(labels, size).tolist()
    # predictions that agree with gold more often than chance, as a trained model's do
    guess = [g if rng.random() < 0.6 else str(rng.choice(labels)) for g in gold]
    return gold, guess


@pytest.mark.parametrize("seed", range(5))
def test_confusion_metrics_equal_glues_scikit_learn_scorer(seed: int) -> None:
    # GLUE's scorer (and the HF `glue` metric) call scikit-learn's matthews_corrcoef and f1_score
    from sklearn.metrics import accuracy_score, f1_score
    from sklearn.metrics import matthews_corrcoef as sklearn_mcc

    from mte.stats.metrics import binary_f1, matthews_corrcoef

    gold, guess = _random_labels(seed, 200 + 37 * seed, ["0", "1"])
    assert matthews_corrcoef(gold, guess) == pytest.approx(sklearn_mcc(gold, guess), abs=1e-12)
    assert binary_f1(gold, guess) == pytest.approx(f1_score(gold, guess, pos_label="1"), abs=1e-12)
    assert accuracy(gold, guess) == pytest.approx(accuracy_score(gold, guess), abs=1e-12)
    # the multi-class form (three labels) and the degenerate one (one class predicted)
    gold, guess = _random_labels(seed, 150, ["a", "b", "c"])
    assert matthews_corrcoef(gold, guess) == pytest.approx(sklearn_mcc(gold, guess), abs=1e-12)
    assert matthews_corrcoef(gold, ["a"] * len(gold)) == sklearn_mcc(gold, ["a"] * len(gold)) == 0
    assert binary_f1(["0", "0"], ["0", "0"]) == 0.0  # no positive at all, as scikit-learn's 0


@pytest.mark.parametrize("seed", range(5))
def test_pearson_from_moments_equals_scipy(seed: int) -> None:
    import numpy as np
    from scipy.stats import pearsonr

    from mte.stats.metrics import pearson

    rng = np.random.default_rng(seed)
    gold = rng.uniform(0, 5, 300).round(1)  # STS-B's scale
    guess = gold + rng.normal(0, 1.0 + seed, 300)
    assert pearson(gold, guess) == pytest.approx(pearsonr(gold, guess).statistic, abs=1e-12)
    # constant predictions: undefined, as scipy (and so GLUE) says
    assert math.isnan(pearson(gold, np.full(300, 2.5)))


def test_each_point_value_is_its_statistics_summed_then_measured() -> None:
    """The point metric and the resampled one are one definition: the point value equals the
    resampling function applied to the sum of the per-example rows."""
    import numpy as np

    from mte.families.pairs.metrics import sentence_metrics
    from mte.families.tagging.metrics import tagging_metrics, tagging_statistics
    from mte.registry import TASKS, family_of

    gold, guess = _random_labels(1, 120, ["0", "1"])
    for name in ("mrpc", "cola", "qqp"):
        task = TASKS[name]
        kind = family_of(task).sufficient_statistics(task)
        rows = kind.rows(gold, guess)
        for metric, value in sentence_metrics(task, kind, gold, guess).items():
            assert value == family_of(task).statistic(task, metric)(rows.sum(0))
    tags = [["B-PER", "I-PER", "O"], ["O", "B-LOC"], ["B-ORG", "O"]]
    guess_tags = [["B-PER", "O", "O"], ["O", "B-LOC"], ["B-LOC", "O"]]
    task = TASKS["panx"]
    rows = tagging_statistics(task).rows(tags, guess_tags)
    assert np.array_equal(rows, [[0, 1, 1], [1, 1, 1], [0, 1, 1]])
    for metric in ("precision", "recall", "f1"):
        value = tagging_metrics(task, tags, guess_tags)[metric]
        assert value == pytest.approx(1 / 3) == family_of(task).statistic(task, metric)(rows.sum(0))


# The seed evaluation card's compute_metrics (../shared/seeds, "Scoring recipe"), worked by hand
# from its lines: em = equal pairs / len(golds); tp = equal pairs; prec = tp / max(1, non-empty
# preds); rec = tp / max(1, non-empty golds); f1 = 2 * prec * rec / max(1e-9, prec + rec).


def test_the_card_recipe_mlqa_branch_on_three_answers_by_hand() -> None:
    recipe = card_metrics(
        ["Paris", "the Eiffel Tower", ""], ["Paris", "Eiffel Tower", "1889"], "MLQA"
    )
    # 1 equal pair of 3; 2 non-empty predictions, 3 non-empty golds: P 1/2, R 1/3,
    # F1 2 * (1/6) / (5/6) = 0.4
    assert recipe == pytest.approx(
        {
            "branch": "MLQA",
            "examples": 3,
            "matched": 1,
            "predicted": 2,
            "gold": 3,
            "exact_match": 1 / 3,
            "precision": 0.5,
            "recall": 1 / 3,
            "f1": 0.4,
        }
    )


def test_the_card_recipe_ner_branch_counts_an_o_tag_as_a_prediction() -> None:
    # three tokens: B-PER right, O right, B-LOC taken for O
    recipe = card_metrics(["B-PER", "O", "O"], ["B-PER", "O", "B-LOC"], "NER")
    # every tag is non-empty, so precision = recall = exact match = token accuracy = 2/3
    assert recipe["predicted"] == recipe["gold"] == 3 and recipe["matched"] == 2
    for name in ("exact_match", "precision", "recall", "f1"):
        assert recipe[name] == pytest.approx(2 / 3)


def test_the_card_recipe_other_branch_is_accuracy_of_labels() -> None:
    recipe = card_metrics(
        ["entailment", "neutral", "neutral"], ["entailment", "neutral", "contradiction"], "XNLI"
    )
    assert recipe == {"branch": "XNLI", "examples": 3, "matched": 2, "accuracy": 2 / 3}


def test_the_card_recipe_keeps_its_code_where_empty_outputs_are_equal() -> None:
    # the card counts an equal pair of empty strings as a hit but leaves empty outputs out of
    # its denominators: tp 2, non-empty predictions 1 and golds 1, so precision = recall = 2 and
    # F1 = 2 * 4 / 4 = 2, as its code computes (no gold answer of MLQA is empty)
    recipe = card_metrics(["", "", "x"], ["", "", "y"], "MLQA")
    assert recipe["exact_match"] == pytest.approx(2 / 3)
    assert recipe["precision"] == recipe["recall"] == recipe["f1"] == pytest.approx(2.0)
    # nothing equal: tp 0, so precision and recall 0, and F1 0 over max(1e-9, 0)
    assert card_metrics(["", "a"], ["b", "c"], "MLQA")["f1"] == 0.0


def test_the_card_recipe_refuses_outputs_that_do_not_pair() -> None:
    with pytest.raises(ValueError, match="2 predictions for 3 gold outputs"):
        card_metrics(["a", "b"], ["a", "b", "c"], "MLQA")
    with pytest.raises(ValueError, match="no gold outputs"):
        card_metrics([], [], "XNLI")


def test_pos_seqeval_f1_by_hand_and_as_seqeval_counts_it() -> None:
    """XTREME's POS metric is seqeval's F1 over UPOS tags, which reads ``NOUN`` as a chunk
    ``N``-``OUN``: ``NOUN NOUN VERB`` is two chunks (OUN 0-1, ERB 2-2), ``NOUN VERB VERB``
    two others (OUN 0-0, ERB 1-2), so two tags of three are right and F1 is 0. The
    per-sentence rows sum to seqeval's own f1_score on random tag sequences without X and
    SCONJ, where seqeval 0.0.12 (XTREME's) and the installed 1.2.2 agree (1.2.2 types X as O,
    and CCONJ and SCONJ alike as CONJ); X by hand below."""
    import random
    import warnings

    from seqeval.metrics import f1_score

    from mte.families.tagging.metrics import tagging_metrics, tagging_statistics
    from mte.registry import TASKS

    task = TASKS["udpos"]
    assert task.primary_metric == "seqeval_f1"
    metrics = tagging_metrics(task, [["NOUN", "NOUN", "VERB"]], [["NOUN", "VERB", "VERB"]])
    assert metrics == {"accuracy": pytest.approx(2 / 3), "seqeval_f1": 0.0}
    # gold DET NOUN NOUN: ET 0-0, OUN 1-2; predicted DET ADJ NOUN: ET 0-0, DJ 1-1, OUN 2-2:
    # one right of three predicted and two gold, P 1/3, R 1/2, F1 2 * 1/6 / (5/6) = 0.4
    metrics = tagging_metrics(task, [["DET", "NOUN", "NOUN"]], [["DET", "ADJ", "NOUN"]])
    assert metrics["seqeval_f1"] == pytest.approx(0.4)

    rng = random.Random(0)
    tags = [tag for tag in task.labels if tag not in ("X", "SCONJ")]
    for _ in range(200):
        gold = [[rng.choice(tags) for _ in range(rng.randint(1, 6))] for _ in range(3)]
        guess = [[t if rng.random() < 0.6 else rng.choice(tags) for t in s] for s in gold]
        rows = tagging_statistics(task).rows(gold, guess)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            expected = f1_score(gold, guess)
        assert tagging_statistics(task).value("seqeval_f1", rows) == pytest.approx(expected)


def test_pos_seqeval_f1_types_x_as_seqeval_0_0_12_did_for_xtreme() -> None:
    """seqeval 0.0.12 (June 2019 to September 2020: XTREME's runs) types ``X`` as ``X``; 0.0.16
    and later as ``_``, the type of the ``O`` that ends each sentence, so that an X chunk runs
    on. Gold ``X | X`` against ``X | NOUN``: 0.0.12 finds the chunks X 0-0 and X 2-2 against
    X 0-0 and NOUN 2-2, one right of two and two, F1 1/2; 1.2.2 finds no gold chunk at all
    (one ``_`` chunk that never ends) and F1 0. XTREME's evaluate_test.py asserts 0.0.12's
    values (docs/submission.md)."""
    import warnings

    from seqeval.metrics import f1_score

    from mte.families.tagging.metrics import seqeval_2020_chunks, tagging_metrics
    from mte.registry import TASKS

    gold, guess = [["X"], ["X"]], [["X"], ["NOUN"]]
    assert seqeval_2020_chunks(gold) == {("X", 0, 0), ("X", 2, 2)}
    assert seqeval_2020_chunks(guess) == {("X", 0, 0), ("NOUN", 2, 2)}
    assert tagging_metrics(TASKS["udpos"], gold, guess)["seqeval_f1"] == pytest.approx(0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert f1_score(gold, guess) == 0.0  # the installed seqeval's reading
