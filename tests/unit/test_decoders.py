"""Decoder language models under the encoders' protocol (mte.hub.decoders,
mte.modelling.decoder_heads): pad and pair separator, words cut as running text, byte-level
answers, last-token pooling and the stand-in heads, on the tiny Llama, Qwen2 and Gemma shapes."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from mte.families.qa.squad_pieces import detokenize, detokenizer
from mte.families.tagging.features import tokenize_tagging
from mte.hub.decoders import is_decoder_tokenizer, running_text_pieces, single_template
from mte.hub.models import load_tokenizer
from mte.modelling.decoder_heads import ChoiceScorer, SpanScorer, head_model_class
from mte.modelling.embeddings import last_token
from mte.registry import TASKS

WORDS = ["Hello", "Ünïcode", "wörld", ",", "x"]


@pytest.fixture(scope="module")
def decoders(tiny_llama: Path, tiny_qwen2: Path, tiny_gemma: Path) -> dict[str, Path]:
    return {"llama": tiny_llama, "qwen2": tiny_qwen2, "gemma": tiny_gemma}


def test_a_decoder_tokenizer_gets_a_pad_token_and_separated_pairs(decoders) -> None:
    llama = load_tokenizer(decoders["llama"])
    assert is_decoder_tokenizer(llama)
    # Llama 2 has no pad token: its end of sequence pads
    assert llama.pad_token == "</s>"
    assert llama.padding_side == "right"
    qwen2 = load_tokenizer(decoders["qwen2"])
    first = qwen2("Hello world", add_special_tokens=False)["input_ids"]
    second = qwen2("and more", add_special_tokens=False)["input_ids"]
    # Qwen2's template joins a pair with nothing: the end-of-text token separates them
    assert qwen2("Hello world", "and more")["input_ids"] == [
        *first,
        qwen2.eos_token_id,
        *second,
    ]
    gemma = load_tokenizer(decoders["gemma"])
    # Gemma's own template already opens the second segment with <bos>: kept
    tokens = gemma.convert_ids_to_tokens(gemma("Hello", "more")["input_ids"])
    assert tokens[0] == "<bos>" and tokens.count("<bos>") == 2 and "<eos>" not in tokens
    assert single_template(gemma) == ([gemma.bos_token_id], [])
    assert single_template(qwen2) == ([], [])


@pytest.mark.parametrize("shape", ["llama", "qwen2", "gemma"])
def test_words_are_cut_as_the_running_text(decoders, shape: str) -> None:
    tokenizer = load_tokenizer(decoders[shape])
    pieces = running_text_pieces(tokenizer, WORDS)
    running = tokenizer(" ".join(WORDS), add_special_tokens=False)["input_ids"]
    # the words' sub-tokens, in order, are the sentence's: nothing lost, nothing added
    assert [i for word in pieces for i in word] == running
    tokens = [tokenizer.convert_ids_to_tokens(word) for word in pieces]
    space = "\u0120" if shape == "qwen2" else "\u2581"
    # every word after the first opens with the space before it (Ġ or ▁), the leading-space
    # convention a word cut alone would lose; Llama's prepended ▁ opens the first word too
    assert all(word[0].startswith(space) for word in tokens[1:])
    assert tokens[0][0].startswith(space) == (shape == "llama")


def test_a_word_tokenised_alone_would_lose_its_space(decoders) -> None:
    # why running_text_pieces exists: Qwen2's pre-split words lose their Ġ
    tokenizer = load_tokenizer(decoders["qwen2"])
    alone = tokenizer(["big"], is_split_into_words=True, add_special_tokens=False)
    in_text = running_text_pieces(tokenizer, ["a", "big"])[1]
    assert tokenizer.convert_ids_to_tokens(in_text)[0].startswith("\u0120")
    assert not tokenizer.convert_ids_to_tokens(alone["input_ids"])[0].startswith("\u0120")


def test_decoder_tagging_labels_each_words_first_sub_token(decoders) -> None:
    tokenizer = load_tokenizer(decoders["gemma"])
    example = {"id": "s", "tokens": WORDS, "tags": ["O", "B-LOC", "I-LOC", "O", "O"]}
    features = tokenize_tagging(tokenizer, [example], TASKS["panx"], 64, "first", "paper")
    ids, labels = features["input_ids"][0], features["labels"][0]
    pieces = running_text_pieces(tokenizer, WORDS)
    # <bos>, then the words' sub-tokens, and nothing after (Gemma closes nothing)
    assert ids == [tokenizer.bos_token_id, *(i for word in pieces for i in word)]
    starts = [1 + sum(len(word) for word in pieces[:n]) for n in range(len(WORDS))]
    assert features["window_positions"][0] == starts
    tag_index = {tag: i for i, tag in enumerate(TASKS["panx"].labels)}
    assert [labels[p] for p in starts] == [tag_index[t] for t in example["tags"]]
    assert sum(label != -100 for label in labels) == len(WORDS)


def test_byte_level_and_byte_fallback_answers_read_back_as_text(decoders) -> None:
    # hand-made pieces: GPT-2's byte alphabet writes ö (C3 B6) as "Ã¶" and a space as "Ġ"
    assert detokenize(["\u0120w", "\u00c3\u00b6", "rld"], "bytelevel") == "wörld"
    # byte fallback's pieces are bytes; ▁ is a space
    assert detokenize(["\u2581", "<0xC3>", "<0xA9>", "t\u00e9"], "metaspace_bytes") == "été"
    # a span that cuts a character's bytes keeps what it holds (U+FFFD for the cut part)
    assert detokenize(["<0xC3>"], "metaspace_bytes") == "\ufffd"
    styles = {shape: detokenizer(load_tokenizer(path)) for shape, path in decoders.items()}
    assert styles == {"llama": "metaspace_bytes", "qwen2": "bytelevel", "gemma": "metaspace_bytes"}
    for shape, path in decoders.items():
        tokenizer = load_tokenizer(path)
        ids = tokenizer(" ".join(WORDS), add_special_tokens=False)["input_ids"]
        text = detokenize(tokenizer.convert_ids_to_tokens(ids), styles[shape])
        assert text == " ".join(WORDS), shape


def test_last_token_pooling_reads_each_rows_last_real_token() -> None:
    hidden = torch.arange(2 * 4 * 3, dtype=torch.float).view(2, 4, 3)
    mask = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 1]])
    assert last_token(hidden, mask).tolist() == [hidden[0, 1].tolist(), hidden[1, 3].tolist()]


def test_stand_in_heads_where_transformers_has_none(decoders) -> None:
    # no decoder has a *ForMultipleChoice class; Gemma has no *ForQuestionAnswering
    assert head_model_class("AutoModelForMultipleChoice", decoders["llama"]) is ChoiceScorer
    assert head_model_class("AutoModelForQuestionAnswering", decoders["gemma"]) is SpanScorer
    qa = head_model_class("AutoModelForQuestionAnswering", decoders["qwen2"])
    assert qa.__name__ == "AutoModelForQuestionAnswering"


def test_choice_scorer_scores_each_choice_as_its_own_sequence(decoders) -> None:
    torch.manual_seed(0)
    tokenizer = load_tokenizer(decoders["llama"])
    model = ChoiceScorer.from_pretrained(decoders["llama"], pad_token_id=tokenizer.pad_token_id)
    model.eval()
    rows = [tokenizer(text)["input_ids"] for text in ("a cat", "the dog runs", "hi", "so")]
    width = max(map(len, rows))
    ids = torch.full((4, width), tokenizer.pad_token_id)
    mask = torch.zeros((4, width), dtype=torch.long)
    for r, row in enumerate(rows):
        ids[r, : len(row)], mask[r, : len(row)] = torch.tensor(row), 1
    labels = torch.tensor([1, 0])
    with torch.no_grad():
        out = model(ids.view(2, 2, width), mask.view(2, 2, width), labels=labels)
        # each choice alone, unpadded: the one-label classifier's score of its last token
        alone = [model.scorer(input_ids=torch.tensor([row])).logits.item() for row in rows]
    assert out.logits.shape == (2, 2)
    assert out.logits.flatten().tolist() == pytest.approx(alone, abs=1e-5)
    by_hand = -sum(
        out.logits[i].log_softmax(-1)[label].item() for i, label in enumerate(labels)
    ) / len(labels)
    assert out.loss.item() == pytest.approx(by_hand, abs=1e-6)


def test_span_scorer_saves_and_loads_its_head(decoders, tmp_path: Path) -> None:
    torch.manual_seed(0)
    model, info = SpanScorer.from_pretrained(decoders["gemma"], output_loading_info=True)
    assert {"qa_outputs.weight", "qa_outputs.bias"} <= set(info["missing_keys"])
    ids = torch.tensor([[2, 10, 11, 12, 13]])
    mask = torch.ones_like(ids)
    model.eval()
    with torch.no_grad():
        before = model(ids, mask)
        model.save_pretrained(tmp_path)
        again = SpanScorer.from_pretrained(tmp_path).eval()(ids, mask)
        trained = model(
            ids, mask, start_positions=torch.tensor([1]), end_positions=torch.tensor([3])
        )
    assert torch.equal(before.start_logits, again.start_logits)
    assert torch.equal(before.end_logits, again.end_logits)
    start = -before.start_logits.log_softmax(-1)[0, 1]
    end = -before.end_logits.log_softmax(-1)[0, 3]
    assert trained.loss.item() == pytest.approx(((start + end) / 2).item(), abs=1e-6)
