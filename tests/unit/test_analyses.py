"""The analyses against values worked out by hand on small score files."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from mte.families.pairs.scoring import confusion_matrix
from mte.families.tagging.metrics import accuracy_by_tag, entity_prf, entity_prf_by_type
from mte.registry import TASKS
from mte.steps.analyses import (
    analyses,
    analyses_document,
    card_recipe,
    confusion,
    correlation,
    entity_types,
    groups,
    tag_accuracy,
    tag_confusions,
    wikipedia_correlation,
)
from mte.tasks.language_metadata import Language
from tests.scoring_helper import score


def record(language: str, accuracy: float, seed: int = 1, **more) -> dict:
    return {
        "task": "xnli",
        "model": "m",
        "setting": "zero-shot",
        "seed": seed,
        "language": language,
        "metrics": {"accuracy": accuracy},
        **more,
    }


def sized(code: str, articles: int | None) -> Language:
    return Language(code, None, None, None, None, articles, "2023-03-20" if articles else None, {})


def test_correlation_over_four_languages_by_hand() -> None:
    # sizes 10, 100, 1000, 10000 articles: log10 x = 1, 2, 3, 4; scores y = .2, .4, .5, .9
    # dx = -1.5 -.5 .5 1.5, dy = -.3 -.1 0 .4: sum dx*dy = 1.1, sum dx^2 = 5, sum dy^2 = .26,
    # r = 1.1 / sqrt(1.3) = 0.964764; the ranks agree throughout: Spearman's rho = 1. Over
    # four languages no p-value is given (with 2 degrees of freedom it would be 1 - r =
    # 0.035: "significant", and meaningless)
    metadata = {c: sized(c, n) for c, n in zip("abcd", (10, 100, 1000, 10000), strict=True)}
    metadata["e"] = sized("e", None)  # no size: left out, and named
    records = [record(c, y) for c, y in zip("abcde", (0.2, 0.4, 0.5, 0.9, 0.7), strict=True)]
    (row,) = wikipedia_correlation(records, metadata).to_dict("records")
    assert row["n"] == 4
    assert row["pearson_r"] == pytest.approx(1.1 / math.sqrt(1.3), abs=1e-12)
    assert math.isnan(row["pearson_p"]) and math.isnan(row["spearman_p"])
    assert row["spearman_rho"] == pytest.approx(1.0)
    assert row["without_size"] == "e"


def test_p_values_start_at_ten_languages() -> None:
    """x = 1..10 and y rising then falling symmetrically (1 2 3 4 5 5 4 3 2 1): every
    product dx * dy has its mirror of opposite sign, so r = 0 and rho = 0, and both two-sided
    p-values are 1; over nine of the points (fewer than ten) none is given."""
    xs = [float(x) for x in range(1, 11)]
    ys = [1.0, 2.0, 3.0, 4.0, 5.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    found = correlation(xs, ys)
    assert found["pearson_r"] == pytest.approx(0.0, abs=1e-12)
    assert found["spearman_rho"] == pytest.approx(0.0, abs=1e-12)
    assert found["pearson_p"] == pytest.approx(1.0) and found["spearman_p"] == pytest.approx(1.0)
    fewer = correlation(xs[:9], ys[:9])
    assert not math.isnan(fewer["pearson_r"])
    assert math.isnan(fewer["pearson_p"]) and math.isnan(fewer["spearman_p"])


def test_seeds_are_averaged_before_correlating() -> None:
    metadata = {c: sized(c, n) for c, n in zip("abc", (10, 100, 1000), strict=True)}
    records = [record("a", 0.1, 1), record("a", 0.3, 2), record("b", 0.5), record("c", 0.4)]
    # a's mean is .2: x = 1 2 3, y = .2 .5 .4; dx = -1 0 1, dy = -.166.. .133.. .033..
    # r = (.1667 + .0333) / sqrt(2 * (.02778 + .01778 + .00111)) = .2 / sqrt(.09333) = .654654
    (row,) = wikipedia_correlation(records, metadata).to_dict("records")
    assert row["pearson_r"] == pytest.approx(0.2 / math.sqrt(0.28 / 3), abs=1e-9)


def test_fewer_than_three_points_give_no_correlation() -> None:
    assert all(math.isnan(v) for v in correlation([1.0, 2.0], [0.1, 0.3]).values())


def test_family_and_script_means_and_gaps_by_hand() -> None:
    # the shipped metadata: en, de Indo-European (Latin); sw, yo Atlantic-Congo (Latin)
    records = [record("en", 0.9), record("de", 0.8), record("sw", 0.5), record("yo", 0.3)]
    families = groups(records, "family").set_index("family")
    assert families.loc["Indo-European", "n"] == 2
    assert families.loc["Indo-European", "mean"] == pytest.approx(0.85)
    assert families.loc["Indo-European", "transfer_gap"] == pytest.approx(0.1)  # en - de
    assert families.loc["Atlantic-Congo", "mean"] == pytest.approx(0.4)
    assert families.loc["Atlantic-Congo", "transfer_gap"] == pytest.approx(0.5)  # (.4 + .6) / 2
    scripts = groups(records, "script").set_index("script")
    assert scripts.loc["Latn", "languages"] == "de en sw yo"
    assert scripts.loc["Latn", "transfer_gap"] == pytest.approx((0.1 + 0.4 + 0.6) / 3)


def test_entity_f1_per_type_on_two_sentences_by_hand() -> None:
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "B-LOC", "I-LOC"]]
    predicted = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O", "B-LOC", "O"]]
    # gold: PER(0-1), LOC(3) | ORG(0), LOC(2-3); predicted: PER(0-1), ORG(3) | ORG(0), LOC(2)
    by_type = entity_prf_by_type(gold, predicted)
    assert by_type["PER"] == pytest.approx(
        {"precision": 1, "recall": 1, "f1": 1, "right": 1, "predicted": 1, "gold": 1}
    )
    # LOC(2) is not LOC(2-3): no LOC right, one predicted, two gold
    assert by_type["LOC"] == pytest.approx(
        {"precision": 0, "recall": 0, "f1": 0, "right": 0, "predicted": 1, "gold": 2}
    )
    # ORG: right in sentence 2, predicted in both, gold once: P 1/2, R 1, F1 2/3
    assert by_type["ORG"] == pytest.approx(
        {"precision": 0.5, "recall": 1, "f1": 2 / 3, "right": 1, "predicted": 2, "gold": 1}
    )
    # the types' counts add up to the micro-averaged measure: 2 right of 4 predicted, 4 gold
    assert entity_prf(gold, predicted)["f1"] == pytest.approx(0.5)
    table = entity_types([record("de", 0.5, breakdown={"entity_types": by_type})])
    assert list(table["type"]) == ["LOC", "ORG", "PER"]


def test_pos_accuracy_per_tag_and_confusions_by_hand() -> None:
    gold = [["NOUN", "VERB", "NOUN"], ["DET", "NOUN"]]
    predicted = [["NOUN", "NOUN", "NOUN"], ["DET", "VERB"]]
    breakdown = accuracy_by_tag(gold, predicted)
    assert breakdown["tags"]["NOUN"] == pytest.approx({"words": 3, "right": 2, "accuracy": 2 / 3})
    assert breakdown["tags"]["VERB"] == {"words": 1, "right": 0, "accuracy": 0.0}
    assert breakdown["tags"]["DET"] == {"words": 1, "right": 1, "accuracy": 1.0}
    assert breakdown["confusions"] == [
        {"gold": "NOUN", "predicted": "VERB", "count": 1},
        {"gold": "VERB", "predicted": "NOUN", "count": 1},
    ]
    records = [record("de", 0.6, breakdown=breakdown)]
    assert len(tag_accuracy(records)) == 3 and len(tag_confusions(records)) == 2


def test_confusion_matrix_by_hand() -> None:
    labels = ("entailment", "neutral", "contradiction")
    gold = ["entailment", "entailment", "neutral", "contradiction", "contradiction"]
    predicted = ["entailment", "neutral", "neutral", "contradiction", "entailment"]
    matrix = confusion_matrix(labels, gold, predicted)
    assert matrix["matrix"] == [[1, 1, 0], [0, 1, 0], [1, 0, 1]]
    table = confusion([record("de", 0.6, breakdown={"confusion": matrix})])
    cell = table[(table["gold"] == "contradiction") & (table["predicted"] == "entailment")]
    assert list(cell["count"]) == [1]
    assert table["count"].sum() == 5


def _question(qid: str, *answers: str) -> dict:
    return {
        "id": qid,
        "context": "",
        "question": "",
        "answers": {"text": list(answers), "answer_start": [0] * len(answers)},
    }


def test_the_seed_card_recipe_on_three_questions_beside_squad_exact_match() -> None:
    gold = [
        _question("1", "Paris"),
        _question("2", "Eiffel Tower"),
        _question("3", "Denver Broncos", "Broncos"),
    ]
    predictions = [
        {"id": "1", "answer": "Paris"},
        {"id": "2", "answer": "the Eiffel Tower"},  # SQuAD drops "the": official EM 1
        {"id": "3", "answer": "Broncos"},  # the second reference: official EM 1
    ]
    result = score(TASKS["xquad"], predictions, gold, "p", "g", "en")
    assert result["metrics"] == pytest.approx({"f1": 1.0, "exact_match": 1.0})
    # the card compares each string with its one gold string (the first reference) as it is:
    # only question 1 is equal; 3 non-empty answers and 3 golds: P = R = F1 = 1/3
    assert result["breakdown"]["card_recipe"] == pytest.approx(
        {
            "branch": "MLQA",
            "examples": 3,
            "matched": 1,
            "predicted": 3,
            "gold": 3,
            "exact_match": 1 / 3,
            "precision": 1 / 3,
            "recall": 1 / 3,
            "f1": 1 / 3,
        }
    )
    table = card_recipe([{**record("en", 0), "task": "xquad", **result}])
    row = table.iloc[0]
    assert row["branch"] == "MLQA" and row["official_metric"] == "f1"
    assert row["official"] == pytest.approx(1.0) and row["f1"] == pytest.approx(1 / 3)
    assert row["accuracy"] is None  # the MLQA branch has no accuracy


def test_the_seed_card_recipe_scores_ner_token_by_token() -> None:
    def sentence(sid: str, tags: list[str]) -> dict:
        return {"id": sid, "tokens": ["w"] * len(tags), "tags": tags}

    gold = [
        sentence("1", ["B-PER", "I-PER", "O"]),
        sentence("2", ["B-LOC", "O", "B-ORG"]),
        sentence("3", ["O", "O"]),
    ]
    predicted = [
        {"id": "1", "tags": ["B-PER", "I-PER", "O"]},  # PER right
        {"id": "2", "tags": ["B-LOC", "O", "O"]},  # LOC right, ORG missed
        {"id": "3", "tags": ["B-ORG", "O"]},  # an ORG where there is none
    ]
    result = score(TASKS["panx"], predicted, gold, "p", "g", "de")
    # seqeval: 2 of 3 predicted entities right, 2 of 3 gold found: F1 2/3
    assert result["metrics"]["f1"] == pytest.approx(2 / 3)
    # the card: 8 tags, 6 equal (3 + 2 + 1), every tag non-empty (an O too): 6/8 throughout
    recipe = result["breakdown"]["card_recipe"]
    assert (recipe["branch"], recipe["matched"], recipe["predicted"], recipe["gold"]) == (
        "NER",
        6,
        8,
        8,
    )
    for name in ("exact_match", "precision", "recall", "f1"):
        assert recipe[name] == pytest.approx(0.75)


def test_the_seed_card_recipe_is_accuracy_for_three_chosen_answers() -> None:
    gold = [
        {"id": str(n), "choices": ["a", "b"], "label": label} for n, label in enumerate([0, 1, 1])
    ]
    predicted = [{"id": str(n), "label": label} for n, label in enumerate([0, 1, 0])]
    result = score(TASKS["xcopa"], predicted, gold, "p", "g", "et")
    # 2 of 3 chosen answers equal their gold: the card's other branch, and the official accuracy
    assert result["metrics"] == pytest.approx({"accuracy": 2 / 3})
    assert result["breakdown"]["card_recipe"] == pytest.approx(
        {"branch": "XNLI", "examples": 3, "matched": 2, "accuracy": 2 / 3}
    )


def test_the_seed_card_recipe_is_left_out_where_the_card_names_no_output() -> None:
    stsb = TASKS["stsb"]
    gold = [{"id": "1", "text_a": "", "text_b": "", "label": 3.5}]
    result = score(stsb, [{"id": "1", "score": 3.5}], gold, "p", "g", "en")
    assert "card_recipe" not in (result.get("breakdown") or {})
    # POS: the card has no POS task
    gold = [{"id": "1", "tokens": ["w", "v"], "tags": ["NOUN", "VERB"]}]
    result = score(TASKS["udpos"], [{"id": "1", "tags": ["NOUN", "NOUN"]}], gold, "p", "g", "de")
    assert "card_recipe" not in (result.get("breakdown") or {})
    assert card_recipe([record("de", 0.5)]).empty


def test_the_report_page_lists_each_analysis_and_the_sources() -> None:
    from mte.tables.render import html

    records = [record("en", 0.9), record("de", 0.8), record("sw", 0.5), record("yo", 0.3)]
    page = html(analyses_document(analyses(records), "demo"))
    assert "Mean score and transfer gap per language family" in page
    assert "Glottolog 5.1" in page and "CLDR 47" in page


def test_the_page_draws_each_tasks_confusions_as_a_matrix_and_puts_words_left() -> None:
    from mte.steps.analyses import _grid, confusion_matrices

    counts = pd.DataFrame(
        [
            {"task": "xnli", "model": "m", "setting": "zero-shot", "seed": 1, "language": "de",
             "gold": gold, "predicted": predicted, "count": count}
            for gold, predicted, count in [
                ("entailment", "entailment", 5), ("entailment", "contradiction", 1),
                ("contradiction", "entailment", 2), ("contradiction", "contradiction", 4),
            ]
        ]
    )  # fmt: skip
    ((title, grid),) = confusion_matrices(counts)
    assert title.endswith(": xnli")
    assert grid.header[-2:] == ["entailment", "contradiction"] and grid.text_columns == 5
    # a row per gold label, its counts under the predicted labels
    assert grid.rows == [
        ["m", "zero-shot", "1", "de", "entailment", "5", "1"],
        ["m", "zero-shot", "1", "de", "contradiction", "2", "4"],
    ]
    families = pd.DataFrame(
        [{"task": "xnli", "model": "m", "setting": "zero-shot", "family": "Indo-European",
          "languages": "de en", "n": 2, "mean": 0.5, "transfer_gap": 0.1}]
    )  # fmt: skip
    grid = _grid(families)
    # the languages are words: left-aligned with the keys, before the numbers
    assert grid.header[: grid.text_columns] == ["task", "model", "setting", "family", "languages"]
    correlation = pd.DataFrame(
        [{"task": "xnli", "model": "m", "setting": "zero-shot", "n": 3, "without_size": ""}]
    )
    assert _grid(correlation).rows == [["xnli", "m", "zero-shot", "none", "3"]]
