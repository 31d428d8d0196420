"""The tiny models the tests build (mte.hub.tiny_models): the same files on every build."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from mte.hub.tiny_models import WORDPIECE_SPECIALS, build_tiny_model, demo_texts


def test_the_tiny_mbert_vocabulary_is_the_same_on_every_build(tmp_path: Path) -> None:
    # the tokenizers library's WordPiece trainer gave three vocabularies in three builds
    sums = set()
    for build in ("a", "b"):
        build_tiny_model(tmp_path / build, demo_texts(), seed=0, shape="mbert")
        sums.add(hashlib.sha256((tmp_path / build / "tokenizer.json").read_bytes()).hexdigest())
    assert len(sums) == 1
    saved = json.loads((tmp_path / "a" / "tokenizer.json").read_text(encoding="utf-8"))
    vocabulary = saved["model"]["vocab"]
    pieces = sorted(vocabulary, key=vocabulary.get)
    assert len(pieces) == 2000 and len(set(pieces)) == 2000
    assert tuple(pieces[: len(WORDPIECE_SPECIALS)]) == WORDPIECE_SPECIALS
    # a word seen once is split into pieces, as WordPiece splits a rare word
    assert any(piece.startswith("##") and len(piece) > 3 for piece in pieces)
