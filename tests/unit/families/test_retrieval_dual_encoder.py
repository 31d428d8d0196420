"""LAReQA's dual encoder (XTREME-R's run_retrieval_qa.py): SQuAD's question-answer pairs, the
in-batch softmax loss worked out by hand, a fine-tune that trains its logit scale and is
read back by the retrieval step's pooler embedding."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch
from transformers import AutoModel, AutoTokenizer

from mte.errors import InputError
from mte.families.retrieval.dual_encoder import (
    EMBEDDING_RECORD,
    DualEncoderHead,
    DualEncoderModel,
    answer_text,
    read_squad_pairs,
    squad_pairs_from_hub,
)
from mte.modelling.embeddings import encode_layers
from mte.modelling.features import save_features
from mte.modelling.hyperparameters import HyperParameters
from mte.registry import TASKS
from mte.steps.featurize import tokenize_examples
from mte.steps.finetune import finetune
from tests.plan_helper import tokenization_options

TASK = TASKS["squad_retrieval"]


def _options(max_length: int, max_query_length: int) -> dict:
    return tokenization_options(TASK.name, max_length=max_length, max_query_length=max_query_length)


CONTEXT = "Paris is big. It has a tower.\nRome is old."
# (id, question, answer text, its start): the tower's sentence; Rome's; an answer starting on
# the space between two sentences (no sentence holds it); an answer whose text is not at its
# offset
QUESTIONS = [
    ("q1", "What does Paris have?", "tower", CONTEXT.index("tower")),
    ("q2", "How is Rome?", "old", CONTEXT.index("old")),
    ("q3", "Where?", "It", CONTEXT.index("It") - 1),
    ("q4", "Which?", "tower", CONTEXT.index("has")),
]


def _squad(path: Path, questions=QUESTIONS, context: str = CONTEXT) -> Path:
    qas = [
        {"id": i, "question": q, "answers": [{"text": t, "answer_start": s}]}
        for i, q, t, s in questions
    ]
    data = {"data": [{"title": "t", "paragraphs": [{"context": context, "qas": qas}]}]}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_pairs_are_questions_with_the_sentence_that_holds_their_answer(tmp_path: Path) -> None:
    pairs = read_squad_pairs(_squad(tmp_path / "train-v1.1.json"))
    # q3 starts in no sentence and q4's text is not at its offset: both left out
    assert [(p["id"], p["sentence"]) for p in pairs] == [
        ("q1", "It has a tower."),
        ("q2", "Rome is old."),
    ]
    # the answer tower reads the sentence, then the paragraph without its line break
    assert answer_text(pairs[0]) == "It has a tower.Paris is big. It has a tower.Rome is old."


def test_an_answer_outside_its_paragraph_names_the_file(tmp_path: Path) -> None:
    path = _squad(tmp_path / "bad.json", [("q9", "Q?", "tower", len(CONTEXT) - 2)])
    with pytest.raises(InputError, match=r"bad\.json.*q9.*outside its paragraph"):
        read_squad_pairs(path)


def test_hub_rows_give_the_pairs_of_the_file(tmp_path: Path) -> None:
    rows = [
        {
            "id": i,
            "title": "t",
            "context": CONTEXT,
            "question": q,
            "answers": {"text": [t], "answer_start": [s]},
        }
        for i, q, t, s in QUESTIONS
    ]
    from_file = read_squad_pairs(_squad(tmp_path / "train-v1.1.json"))
    assert squad_pairs_from_hub(rows, "rajpurkar/squad train") == from_file


@pytest.fixture(scope="module")
def pairs() -> list[dict]:
    sentences = [
        ("Berlin liegt an der Spree.", "Spree"),
        ("Paris liegt an der Seine.", "Seine"),
        ("London liegt an der Themse.", "Themse"),
        ("Wien liegt an der Donau.", "Donau"),
    ]
    return [
        {
            "id": f"p{n}",
            "question": f"An welchem Fluss liegt {sentence.split()[0]}?",
            "sentence": sentence,
            "context": sentence + " Eine Stadt.",
            "language": "en",
        }
        for n, (sentence, _) in enumerate(sentences)
    ]


def test_features_cut_questions_and_answers_apart(tiny_model: Path, pairs: list) -> None:
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    features = tokenize_examples(tokenizer, pairs, TASK, training=False, **_options(12, 5))
    assert features["ids"] == ["p0", "p1", "p2", "p3"]
    assert max(len(ids) for ids in features["input_ids"]) == 5
    assert max(len(ids) for ids in features["answer_input_ids"]) == 12
    full = tokenizer(answer_text(pairs[0]))["input_ids"]
    # cut at the end, the special closing token kept
    assert features["answer_input_ids"][0][:11] == full[:11]
    assert features["answer_input_ids"][0][-1] == full[-1]


def test_the_loss_is_each_questions_softmax_over_the_batchs_answers(
    tiny_model: Path, pairs: list
) -> None:
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    features = tokenize_examples(tokenizer, pairs, TASK, training=False, **_options(32, 16))
    model = DualEncoderModel.from_pretrained(tiny_model).eval()
    assert model.logit_scale.item() == 100.0
    head = DualEncoderHead(TASK)
    batch = head.collate(features, [0, 1, 2, 3], tokenizer.pad_token_id)
    with torch.no_grad():
        output = model(**batch)
        # each tower by itself: the pooler output of the encoder, over unit length
        encoder = AutoModel.from_pretrained(tiny_model).eval()
        pooled = encoder(
            input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]
        ).pooler_output
    questions = pooled / pooled.norm(dim=1, keepdim=True)
    assert torch.allclose(output.questions, questions, atol=1e-5)
    # -log softmax of question i's own answer among the batch's four, times the scale of 100
    similarity = (output.questions @ output.answers.T).tolist()
    losses = [
        -(100 * row[i]) + math.log(sum(math.exp(100 * value) for value in row))
        for i, row in enumerate(similarity)
    ]
    assert output.loss.item() == pytest.approx(sum(losses) / 4, rel=1e-4)


def test_a_fine_tune_trains_the_scale_and_embeds_with_its_pooler(
    tiny_model: Path, pairs: list, tmp_path: Path
) -> None:
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    paths = {}
    for split in ("train", "dev"):
        features = tokenize_examples(tokenizer, pairs, TASK, training=False, **_options(32, 16))
        paths[split] = tmp_path / f"{split}.pt"
        save_features(features, paths[split])
    hp = HyperParameters.from_config(
        {
            "learning_rate": 1e-3,
            "epochs": 2,
            "batch_size": 4,
            "eval_batch_size": 8,
            "max_length": 32,
            "warmup_ratio": 0.0,
            "warmup_steps": 0,
            "weight_decay": 0.0,
            "max_grad_norm": 1.0,
            "freeze_word_embeddings": False,
            "checkpoint_every_steps": 0,
            "model_selection": "last",
            "dev_languages": "training",
        }
    )
    out = tmp_path / "model"
    record = finetune(tiny_model, [paths["train"]], [paths["dev"]], out, tmp_path / "ck", hp, 1)
    # two epochs of one batch: two steps, and a dev score (a share of 4 questions) per epoch
    assert len(record["losses"]) == 2
    assert [entry["epoch"] for entry in record["history"]] == [1, 2]
    assert all(entry["dev_score"] * 4 in (0, 1, 2, 3, 4) for entry in record["history"])
    embedding = json.loads((out / EMBEDDING_RECORD).read_text())
    assert embedding["pooling"] == "pooler" and embedding["prefix"] == ""
    assert embedding["logit_scale"] != 100.0
    # the folder is a plain encoder: AutoModel loads it, pooler included, and the retrieval
    # step's pooler embedding is the trained question tower
    encoder = AutoModel.from_pretrained(out).eval()
    trained = DualEncoderModel.from_pretrained(out).eval()
    texts = [pair["question"] for pair in pairs]
    layer = encoder.config.num_hidden_layers
    vectors = encode_layers(encoder, tokenizer, texts, {"model": layer}, pooling="pooler")
    encoded = tokenizer(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        expected = trained.embed(encoded["input_ids"], encoded["attention_mask"])
    assert torch.allclose(torch.from_numpy(vectors["model"]), expected, atol=1e-5)


def test_the_dev_score_counts_questions_whose_own_answer_is_nearest() -> None:
    head = DualEncoderHead(TASK)
    # answers 0 and 2 are the same text: a question of either finds its answer in both
    features = {"ids": ["a", "b", "c"], "answer_input_ids": [[5, 6], [7], [5, 6]]}
    assert head.dev_score(features, [2, 0, 0]) == pytest.approx(2 / 3)
    assert head.records(features, [2, 0, 0])[0] == {"id": "a", "nearest": "c"}


def test_mewslix_pairs_are_mention_queries_with_their_entitys_description(tmp_path: Path) -> None:
    from mte.families.retrieval.entity_links import read_mention_entity_pairs
    from tests.workflow.tiny_data import mention_entity_pair, write_lines

    path = tmp_path / "wikipedia_pairs-train.jsonl"
    record = mention_entity_pair(0, "Helsinki lies by the sea.", "Helsinki", "Q1")
    write_lines(path, [json.dumps(record)])
    assert read_mention_entity_pairs(path) == [
        {
            "id": "w0",
            # utils_mewslix.preprocess_mention: the mention, then its sentence with it marked
            "question": "Helsinki: { Helsinki } lies by the sea.",
            "answer": "Helsinki is the capital of Finland.",
            "language": "en",
        }
    ]
    assert answer_text(read_mention_entity_pairs(path)[0]) == "Helsinki is the capital of Finland."
    broken = {key: value for key, value in record.items() if key != "entity"}
    write_lines(path, [json.dumps(record), json.dumps(broken)])
    with pytest.raises(InputError, match=r"wikipedia_pairs-train\.jsonl.*line 2.*entity"):
        read_mention_entity_pairs(path)
