"""The first-token last layer: the same logits as the whole layer, for every classifier it
accepts, with padding; other models untouched."""

from __future__ import annotations

import contextlib

import pytest
import torch
import transformers

from mte.families.pairs.heads import ClassificationHead, RegressionHead
from mte.modelling.first_token import FirstTokenLayer, first_token_last_layer
from mte.registry import TASKS

SMALL = {
    "vocab_size": 120,
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 64,
    "max_position_embeddings": 64,
    "num_labels": 3,
}
CLASSIFIERS = [
    ("BertConfig", "BertForSequenceClassification"),
    ("XLMRobertaConfig", "XLMRobertaForSequenceClassification"),
    ("RobertaConfig", "RobertaForSequenceClassification"),
    ("ElectraConfig", "ElectraForSequenceClassification"),
]


def _model(config_class: str, model_class: str, attention: str, **extra) -> torch.nn.Module:
    torch.manual_seed(0)
    config = getattr(transformers, config_class)(**{**SMALL, **extra})
    config._attn_implementation = attention
    return getattr(transformers, model_class)(config).eval()


def _padded_batch() -> dict[str, torch.Tensor]:
    """Five rows of lengths 9, 4, 7, 9, 2 (ids from 5 up: clear of RoBERTa's padding id 1)."""
    lengths = [9, 4, 7, 9, 2]
    generator = torch.Generator().manual_seed(1)
    input_ids = torch.randint(
        5, SMALL["vocab_size"], (len(lengths), max(lengths)), generator=generator
    )
    attention_mask = torch.zeros_like(input_ids)
    for row, length in enumerate(lengths):
        attention_mask[row, :length] = 1
    input_ids = input_ids.masked_fill(attention_mask == 0, 1)
    return {"input_ids": input_ids, "attention_mask": attention_mask}


@pytest.mark.parametrize("attention", ["eager", "sdpa"])
@pytest.mark.parametrize(("config_class", "model_class"), CLASSIFIERS)
def test_same_logits_as_the_whole_last_layer(config_class, model_class, attention) -> None:
    model = _model(config_class, model_class, attention)
    batch = _padded_batch()
    original = model.base_model.encoder.layer[-1]
    with torch.inference_mode():
        whole = model(**batch).logits
        with first_token_last_layer(model) as active:
            assert active
            assert isinstance(model.base_model.encoder.layer[-1], FirstTokenLayer)
            shortcut = model(**batch).logits
    assert model.base_model.encoder.layer[-1] is original  # put back on leaving
    torch.testing.assert_close(shortcut, whole, rtol=1e-5, atol=1e-6)


def test_padding_rows_do_not_leak_into_the_first_token() -> None:
    """Row 1 alone and row 1 padded beside a longer row: the same logits."""
    model = _model("BertConfig", "BertForSequenceClassification", "sdpa")
    batch = _padded_batch()
    alone = {name: tensor[1:2, :4] for name, tensor in batch.items()}
    with torch.inference_mode(), first_token_last_layer(model):
        padded = model(**batch).logits[1]
        single = model(**alone).logits[0]
    torch.testing.assert_close(padded, single, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    ("config_class", "model_class", "extra"),
    [
        # reads every position, not the first
        ("BertConfig", "BertForTokenClassification", {}),
        # another architecture: no BERT-style encoder layers
        ("DistilBertConfig", "DistilBertForSequenceClassification", {"dim": 32, "n_heads": 4}),
        # a decoder attends causally: not the bidirectional layer the shortcut computes
        ("BertConfig", "BertForSequenceClassification", {"is_decoder": True}),
    ],
)
def test_other_models_are_left_alone(config_class, model_class, extra) -> None:
    model = _model(config_class, model_class, "eager", **extra)
    layers_before = list(model.modules())
    with first_token_last_layer(model) as active:
        assert not active
        assert list(model.modules()) == layers_before


def test_the_layer_is_put_back_after_an_error() -> None:
    model = _model("BertConfig", "BertForSequenceClassification", "eager")
    original = model.bert.encoder.layer[-1]
    with pytest.raises(RuntimeError), first_token_last_layer(model):
        raise RuntimeError("interrupted")
    assert model.bert.encoder.layer[-1] is original


@pytest.mark.parametrize("head", [ClassificationHead(TASKS["xnli"]), RegressionHead(TASKS["stsb"])])
def test_heads_predict_what_the_whole_model_predicts(head) -> None:
    num_labels = 1 if isinstance(head, RegressionHead) else 3
    model = _model("XLMRobertaConfig", "XLMRobertaForSequenceClassification", "sdpa")
    model.config.num_labels = num_labels
    model.classifier.out_proj = torch.nn.Linear(SMALL["hidden_size"], num_labels)
    batch = _padded_batch()
    features = {
        "input_ids": [
            row[mask.bool()].tolist()
            for row, mask in zip(batch["input_ids"], batch["attention_mask"], strict=True)
        ]
    }
    with torch.inference_mode():
        logits = model(**batch).logits
    predicted = head.predict(model, features, batch_size=2, pad_id=1)
    if num_labels == 1:
        assert predicted == pytest.approx(logits[:, 0].tolist(), rel=1e-5, abs=1e-6)
    else:
        assert predicted == logits.argmax(-1).tolist()


@pytest.mark.parametrize(("config_class", "model_class"), CLASSIFIERS[:2])
def test_training_gives_the_same_loss_and_gradients(config_class, model_class) -> None:
    """Fine-tuning's use: positions the loss never reads add nothing to any gradient."""
    no_dropout = {"hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0}
    model = _model(config_class, model_class, "sdpa", **no_dropout).train()
    batch = {**_padded_batch(), "labels": torch.tensor([0, 2, 1, 1, 0])}

    def loss_and_gradients(shortcut: bool) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        model.zero_grad()
        with first_token_last_layer(model) if shortcut else contextlib.nullcontext():
            loss = model(**batch).loss
            loss.backward()
        return loss.detach(), {n: p.grad.clone() for n, p in model.named_parameters()}

    whole_loss, whole = loss_and_gradients(False)
    shortcut_loss, shortcut = loss_and_gradients(True)
    torch.testing.assert_close(shortcut_loss, whole_loss, rtol=1e-6, atol=1e-7)
    assert shortcut.keys() == whole.keys()  # the same parameter names: nothing renamed
    for name, gradient in whole.items():
        torch.testing.assert_close(shortcut[name], gradient, rtol=1e-4, atol=1e-6, msg=name)
