"""QA readers on the real MLQA and XQuAD files, and the official QA scores by hand."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest

from mte.errors import InputError, MteError
from mte.families.qa.metrics import normalize_mlqa, normalize_squad, qa_scores
from mte.families.qa.readers import qa_examples_from_hub, read_squad_json

MLQA_COUNTS = {
    "dev-context-en-question-en.json": 1148,
    "dev-context-de-question-de.json": 512,
    "dev-context-es-question-es.json": 500,
    "dev-context-zh-question-zh.json": 504,
    "dev-context-de-question-en.json": 512,
    "dev-context-en-question-de.json": 512,
    "dev-context-en-question-zh.json": 504,
    "dev-context-zh-question-en.json": 504,
}


@pytest.mark.parametrize(("name", "count"), MLQA_COUNTS.items())
def test_mlqa_counts_offsets_and_gold_scores(shared_data: Path, name: str, count: int) -> None:
    examples = read_squad_json(shared_data / "mlqa" / name)
    assert len(examples) == count
    for e in examples:  # the reader checks this too; here it is checked independently
        for text, start in zip(e["answers"]["text"], e["answers"]["answer_start"], strict=True):
            assert e["context"][start : start + len(text)] == text
    language = name.split("-")[2]  # answers are in the context's language

    def normalize(text: str) -> str:
        return normalize_mlqa(text, language)

    gold = [e["answers"]["text"] for e in examples]
    # The official normalisation can empty a gold answer: a bare article such as Spanish "una".
    # Such an answer matches itself exactly but has no token to overlap, so MLQA's script gives
    # it F1 0 (issue 5, settled for the official semantics). Gold-as-prediction scores 100 on
    # every other question.
    emptied = [i for i, answers in enumerate(gold) if not normalize(answers[0])]
    expected_emptied = ["una"] if name == "dev-context-es-question-es.json" else []
    assert [gold[i][0] for i in emptied] == expected_emptied
    kept = [answers for i, answers in enumerate(gold) if i not in emptied]
    assert qa_scores([a[0] for a in kept], kept, normalize) == {"f1": 1.0, "exact_match": 1.0}
    if emptied:
        lost = [gold[i] for i in emptied]
        assert qa_scores([a[0] for a in lost], lost, normalize) == {"f1": 0.0, "exact_match": 1.0}


@pytest.mark.parametrize("language", ["en", "de", "es", "zh", "ru", "ar"])
def test_xquad_counts_and_gold_scores(shared_data: Path, language: str) -> None:
    examples = read_squad_json(shared_data / "xquad" / f"xquad.{language}.json")
    assert len(examples) == 1190
    assert len({e["id"] for e in examples}) == 1190
    gold = [e["answers"]["text"] for e in examples]
    assert qa_scores([a[0] for a in gold], gold, normalize_squad) == {
        "f1": 1.0,
        "exact_match": 1.0,
    }


def test_squad_normalisation_hand_worked() -> None:
    assert normalize_squad("The  Eiffel-Tower, (Paris)!") == "eiffeltower paris"
    # ASCII punctuation only: the Spanish inverted question mark stays
    assert normalize_squad("¿Qué?") == "¿qué"
    # 'the cat sat' vs 'A cat sat down': 2 shared of 2 and 3 tokens, F1 = 0.8; the second
    # question matches its second gold answer exactly
    scores = qa_scores(
        ["the cat sat", "dog"], [["A cat sat down"], ["cat", "dog"]], normalize_squad
    )
    assert scores == pytest.approx({"f1": 0.9, "exact_match": 0.5})
    # an empty prediction scores 0 against a non-empty answer
    assert qa_scores([""], [["Paris"]], normalize_squad) == {"f1": 0.0, "exact_match": 0.0}


def test_mlqa_normalisation_hand_worked() -> None:
    # Unicode punctuation (¿ « » 。) goes too
    assert normalize_mlqa("¿«Qué» pasa?", "es") == "qué pasa"
    assert normalize_mlqa("los gatos y la casa", "es") == "gatos y casa"
    assert normalize_mlqa("Der Hund und das Haus", "de") == "hund und haus"
    assert normalize_mlqa("the cat of a man", "en") == "cat of man"
    assert normalize_mlqa("những con mèo", "vi") == "con mèo"
    # Arabic: every "ال" is replaced, wherever it stands (the official pattern)
    assert normalize_mlqa("الكتاب مالك", "ar") == "كتاب م ك"
    # Hindi and Chinese keep their words; Chinese is split into characters
    assert normalize_mlqa("यह किताब", "hi") == "यह किताब"
    assert normalize_mlqa("北京是首都。Beijing 2008", "zh") == "北 京 是 首 都 beijing 2008"
    # character F1 for Chinese: 北京 vs 北京市 share 2 of 2 and 3 characters
    scores = qa_scores(["北京"], [["北京市"]], lambda t: normalize_mlqa(t, "zh"))
    assert scores["f1"] == pytest.approx(0.8) and scores["exact_match"] == 0.0
    with pytest.raises(ValueError, match="no answer normalisation for language 'ru'"):
        normalize_mlqa("x", "ru")


def test_bad_offsets_and_structure_are_named(tmp_path: Path) -> None:
    path = tmp_path / "xquad.xx.json"
    document = {
        "data": [
            {
                "paragraphs": [
                    {
                        "context": "Paris is big.",
                        "qas": [
                            {
                                "id": "q1",
                                "question": "Where?",
                                "answers": [{"text": "Paris", "answer_start": 1}],
                            }
                        ],
                    }
                ]
            }
        ]
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(InputError, match=r"data\[0\].paragraphs\[0\].qas\[0\] \(id q1\)"):
        read_squad_json(path)
    path.write_text('{"data": [', encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON"):
        read_squad_json(path)
    path.write_text('{"version": 1}', encoding="utf-8")
    with pytest.raises(InputError, match="no 'data' list"):
        read_squad_json(path)


def test_hub_squad_schema() -> None:
    features = datasets.Features(
        {
            "id": datasets.Value("string"),
            "title": datasets.Value("string"),
            "context": datasets.Value("string"),
            "question": datasets.Value("string"),
            "answers": datasets.Sequence(
                {"text": datasets.Value("string"), "answer_start": datasets.Value("int32")}
            ),
        }
    )
    dataset = datasets.Dataset.from_dict(
        {
            "id": ["a1"],
            "title": ["t"],
            "context": ["Berlin ist groß."],
            "question": ["Was?"],
            "answers": [{"text": ["Berlin"], "answer_start": [0]}],
        },
        features=features,
    )
    assert qa_examples_from_hub(dataset, "google/xquad") == [
        {
            "id": "a1",
            "context": "Berlin ist groß.",
            "question": "Was?",
            "answers": {"text": ["Berlin"], "answer_start": [0]},
        }
    ]


def test_tydiqa_from_the_hub_keeps_one_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """google/xtreme's "tydiqa" config mixes the nine languages; the id names each one."""
    from mte.registry import TASKS
    from mte.steps import data

    rows = {
        "id": ["arabic-1-0", "english--6013-0", "finnish-7-1", "english-42-2"],
        "title": ["t"] * 4,
        "context": ["سلام", "Paris is big.", "Helsinki", "Rome is old."],
        "question": ["q"] * 4,
        "answers": [
            {"text": ["سلام"], "answer_start": [0]},
            {"text": ["Paris"], "answer_start": [0]},
            {"text": ["Helsinki"], "answer_start": [0]},
            {"text": ["old"], "answer_start": [8]},
        ],
    }
    loaded = []

    def fake_load(repo, config_name, split, revision=None, hint="", key=""):
        loaded.append((repo.id, config_name, split))
        return datasets.Dataset.from_dict(rows), {"id": repo.id, "config": config_name}

    monkeypatch.setattr(data, "load_from_repo", fake_load)
    task = TASKS["tydiqa"]
    examples, origin = data.materialize(task, {"source": "hub"}, "en", "test")
    assert loaded == [("google/xtreme", "tydiqa", "validation")]
    assert [e["id"] for e in examples] == ["english--6013-0", "english-42-2"]
    assert origin["config"] == "tydiqa"
    with pytest.raises(MteError, match="no questions with an id starting 'swahili-'"):
        data.materialize(task, {"source": "hub"}, "sw", "test")


def test_n_best_ties_keep_the_earlier_token_as_xtreme_does() -> None:
    """Equal logits (common under bf16): XTREME's _get_best_indexes sorts stably, so of 25
    context words with the same start and end logits the n-best (20) are the first 20, and
    the first valid pair in that order, the first word alone, is the answer; any other
    choice among the ties (torch.topk's order is not defined) answers another word."""
    import torch

    from mte.families.qa.heads import QuestionAnsweringHead
    from mte.registry import TASKS

    words = [f"w{i:02d}" for i in range(25)]
    context = " ".join(words)
    offsets = [None, None, None]  # <s> question </s>
    offsets += [(4 * i, 4 * i + 3) for i in range(len(words))] + [None]
    features = {
        "ids": ["q"],
        "input_ids": [[0] * len(offsets)],
        "window_example": [0],
        "offsets": [offsets],
        "contexts": [context],
        "answers": [["w00"]],
    }
    logits = torch.full((1, len(offsets)), -9.0)
    logits[0, 3 : 3 + len(words)] = 1.0  # every context word the same start and end logit
    head = QuestionAnsweringHead(TASKS["xquad"])
    collected = head.start(features)
    outputs = {"start_logits": logits, "end_logits": logits.clone()}
    head.read(features, [0], outputs, collected)
    assert head.finish(features, collected) == ["w00"]
    assert head.confidence == [2.0]
