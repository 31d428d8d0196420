"""LAReQA's pool and answers (XQuAD-R) and Mewsli-X's reciprocal ranks, worked out by hand on
small files of the releases' schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mte.errors import InputError
from mte.families.retrieval.answers import (
    answer_pool,
    question_average_precisions,
    read_xquad_r,
)
from mte.families.retrieval.entity_links import entity_link_reciprocal_ranks, read_entity_links


def _xquad_r(path: Path, paragraphs: list[tuple[str, list[list[int]], list[tuple[str, int]]]]):
    """A file of the XQuAD-R schema: paragraphs (context, sentence_breaks, (id, answer_start))."""
    data = {
        "data": [
            {
                "paragraphs": [
                    {
                        "context": context,
                        "sentence_breaks": breaks,
                        "qas": [
                            {"id": qid, "question": f"q {qid}?", "answers": [{"answer_start": at}]}
                            for qid, at in questions
                        ],
                    }
                    for context, breaks, questions in paragraphs
                ]
            }
        ]
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_pool_holds_every_kept_paragraphs_sentences_and_each_question_its_answers(
    tmp_path: Path,
) -> None:
    en = _xquad_r(
        tmp_path / "en.json",
        [
            # sentences "A b." (0-4) and "C d." (5-9); q1's answer starts at 6: sentence 1
            ("A b. C d.", [[0, 4], [5, 9]], [("q1", 6), ("q2", 0)]),
            # a paragraph whose only question starts in no sentence: no candidates
            ("E f.  ", [[0, 4]], [("q3", 5)]),
            ("G h.", [[0, 4]], [("q4", 0)]),
        ],
    )
    de = _xquad_r(tmp_path / "de.json", [("X y. Z w.", [[0, 4], [5, 9]], [("q1", 5)])])
    questions = {"en": read_xquad_r(en, "en"), "de": read_xquad_r(de, "de")}
    assert [q["answer_positions"] for q in questions["en"]] == [[1], [0], [], [0]]
    candidates, answers = answer_pool(questions)
    # named {lang}_{paragraph number in the file}_{sentence}; paragraph 2 has none
    assert [c["id"] for c in candidates] == ["en_1_0", "en_1_1", "en_3_0", "de_1_0", "de_1_1"]
    assert [c["sentence"] for c in candidates] == ["A b.", "C d.", "G h.", "X y.", "Z w."]
    # q1's answers in every language: its English and its German answer sentence
    assert answers == {"q1": ["en_1_1", "de_1_1"], "q2": ["en_1_0"], "q4": ["en_3_0"]}


def test_a_question_with_two_answers_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "en.json"
    paragraph = {
        "context": "A.",
        "sentence_breaks": [[0, 2]],
        "qas": [{"id": "q", "question": "?", "answers": [{"answer_start": 0}] * 2}],
    }
    path.write_text(json.dumps({"data": [{"paragraphs": [paragraph]}]}), encoding="utf-8")
    with pytest.raises(InputError, match="one answer per question, found 2") as caught:
        read_xquad_r(path, "en")
    assert str(path) in str(caught.value)


def test_question_average_precisions_by_hand() -> None:
    # answers a and b; ranked b x a: (1/1 + 2/3) / 2; second question: c at place 2: 1/2
    values = question_average_precisions([["b", "x", "a"], ["x", "c"]], [["a", "b"], ["c"]])
    assert values == pytest.approx([5 / 6, 1 / 2])


def test_mewslix_reciprocal_ranks_by_hand_and_a_missing_prediction_scores_zero(
    tmp_path: Path,
) -> None:
    gold = tmp_path / "test-en.json"
    gold.write_text(json.dumps({"m1": ["Q1 "], "m2": ["Q2"], "m3": ["Q3"]}), encoding="utf-8")
    predicted = tmp_path / "pred-en.json"
    predicted.write_text(json.dumps({"m1": ["Q9", "Q8", "Q1"], "m2": ["Q2"], "m4": ["Q4"]}))
    result = entity_link_reciprocal_ranks(read_entity_links(gold), read_entity_links(predicted))
    # the gold label is stripped (utils_mewslix.evaluate); m1 at place 3; m3 not predicted
    assert result["reciprocal_ranks"] == pytest.approx([1 / 3, 1.0, 0.0])
    assert (result["missing"], result["unexpected"]) == (1, 1)


def test_a_prediction_file_that_is_not_a_mapping_of_lists_names_itself(tmp_path: Path) -> None:
    path = tmp_path / "pred.json"
    path.write_text(json.dumps({"m1": "Q1"}), encoding="utf-8")
    with pytest.raises(InputError, match="mention 'm1': expected a list") as caught:
        read_entity_links(path)
    assert str(path) in str(caught.value)


def test_measure_answers_leaves_out_a_question_without_answers_and_scores_each_layer() -> None:
    from mte.families.retrieval.answers import measure_answers
    from mte.registry import TASKS

    layers = {"model": 12, "xtreme": 7}

    def record(answers: list[str], model: list[str], xtreme: list[str]) -> dict:
        rankings = {"model": model, "xtreme": xtreme}
        return {"answers": answers, "rankings": rankings, "layers": layers}

    pairs = [
        # answers a, b: ranked a x b at the model's layer -> (1 + 2/3) / 2; b a at XTREME's -> 1
        ({"id": "q1"}, record(["a", "b"], ["a", "x", "b"], ["b", "a"])),
        # answer c at place 2 -> 1/2 at both layers
        ({"id": "q2"}, record(["c"], ["x", "c"], ["x", "c"])),
        # its answer lies in no sentence: no answers in the pool, left out
        ({"id": "q3"}, record([], ["a"], ["a"])),
    ]
    score = measure_answers(TASKS["lareqa"], pairs, "predictions.jsonl")
    assert (score["n"], score["left_out"], score["layer"]) == (2, 1, 12)
    assert score["metrics"]["map_at_20"] == pytest.approx(((1 + 2 / 3) / 2 + 1 / 2) / 2)
    assert score["by_layer"]["xtreme"]["map_at_20"] == pytest.approx((1.0 + 1 / 2) / 2)
    assert score["example_stats"][:, 0] == pytest.approx([5 / 6, 1 / 2])


def test_a_mention_query_as_utils_mewslix_writes_it_by_hand() -> None:
    from mte.families.retrieval.entity_links import mention_query

    text = "Rain today.\nThe {bus} strike  hit Helsinki at noon."
    sentences = [(0, 11), (12, len(text))]
    start = text.index("Helsinki")
    # its sentence only; the mention first, then marked; "{bus}" escaped to "(bus)"; the double
    # space made one
    assert mention_query(text, sentences, start, start + 8) == (
        "Helsinki: The (bus) strike hit { Helsinki } at noon."
    )
    with pytest.raises(ValueError, match="no sentence holds the mention"):
        mention_query(text, sentences, 5, 15)  # across the two sentences


def test_mentions_of_xtreme_rs_layout_take_their_labels_from_wikinews_labels(
    tmp_path: Path,
) -> None:
    from mte.registry import TASKS, family_of

    text = "Helsinki is cold."
    article = {
        "context": {"language": "fi", "text": text, "sentence_spans": [{"start": 0, "end": 17}]},
        "mentions": [{"example_id": "m1", "mention_span": {"start": 0, "end": 8}}],
    }
    (tmp_path / "wikinews_mentions").mkdir()
    (tmp_path / "wikinews_labels").mkdir()
    mentions = tmp_path / "wikinews_mentions" / "test-fi.jsonl"
    mentions.write_text(json.dumps(article) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="mention 'm1' has no entity_id and no label"):
        family_of(TASKS["mewslix"]).read_files(TASKS["mewslix"], [mentions], "fi", "test")
    labels = tmp_path / "wikinews_labels" / "test-fi.json"
    labels.write_text(json.dumps({"m1": ["Q1757"]}), encoding="utf-8")
    family = family_of(TASKS["mewslix"])
    assert family.companion_files(TASKS["mewslix"], mentions) == [labels]
    examples = family.read_files(TASKS["mewslix"], [mentions], "fi", "test")
    assert examples == [
        {"id": "m1", "question": "Helsinki: { Helsinki } is cold.", "answers": ["Q1757"]}
    ]


def test_an_entity_reads_as_its_description_sentences(tmp_path: Path) -> None:
    from mte.families.retrieval.entity_links import read_entities

    path = tmp_path / "candidate_set_entities.jsonl"
    description = "Helsinki is a city.\nIt is  in Finland. Extra"
    record = {
        "entity_id": "Q1757",
        "description": description,
        "sentence_spans": [{"start": 0, "end": 19}, {"start": 20, "end": 38}],
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    # the sentences joined by a space, the double space made one; what no span covers dropped
    assert read_entities(path) == [{"id": "Q1757", "text": "Helsinki is a city. It is in Finland."}]
