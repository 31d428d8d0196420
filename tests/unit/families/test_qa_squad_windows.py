"""XTREME's run_squad.py windows and answers (mte.families.qa.squad_windows, .squad_answers,
.squad_pieces; BERT's basic tokenizer in mte.text), worked by hand on a WordPiece vocabulary
where every word is one sub-token. Parity with XTREME's own processors/squad.py and transformers
2.4.1's compute_predictions_logits on MLQA and XQuAD was measured outside the project (issue
32's note)."""

from __future__ import annotations

import pytest
import torch
from transformers import BertTokenizer

import mte.text as text
from mte.errors import ConfigError
from mte.families.qa import squad_answers as sa
from mte.families.qa import squad_pieces as sp
from mte.families.qa import squad_windows as sw
from mte.families.qa.heads import QuestionAnsweringHead
from mte.registry import get_task

WORDS = "a b c d e f g h i j".split()
CONTEXT = " ".join(WORDS)


@pytest.fixture(scope="module")
def tokenizer() -> BertTokenizer:
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "q", *WORDS, "##x"]
    return BertTokenizer(
        vocab={token: i for i, token in enumerate(vocab)},
        do_lower_case=False,
        strip_accents=False,
    )


def _example(answer: str = "e", start: int | None = None) -> dict:
    at = CONTEXT.index(answer) if start is None else start
    return {
        "id": "q1",
        "question": "q",
        "context": CONTEXT,
        "answers": {"text": [answer], "answer_start": [at]},
    }


def _features(tokenizer, training: bool, max_length: int = 9, examples=None) -> dict:
    return sw.tokenize_run_squad(
        tokenizer, examples or [_example()], get_task("xquad"), max_length, 2, 64, training, False
    )


def test_whitespace_words_split_on_squads_five_spaces_only() -> None:
    words, char_to_word = text.whitespace_words("a  b\u00a0c\u202fd")
    assert words == ["a", "b\u00a0c", "d"]
    assert char_to_word == [0, 0, 0, 1, 1, 1, 1, 2]


def test_window_starts_are_doc_stride_apart_until_one_reaches_the_end() -> None:
    # 10 sub-tokens, 5 per window, starts 2 apart: 0, 2, 4 overflow; 6 reaches the end
    assert sw.window_spans(10, 5, 2) == [(0, 5), (2, 5), (4, 5), (6, 4)]
    assert sw.window_spans(5, 5, 2) == [(0, 5)]
    assert sw.window_spans(0, 5, 2) == []


def test_max_context_is_the_most_central_window_the_first_on_a_tie() -> None:
    spans = [(0, 5), (2, 5), (4, 5)]
    # position 4: min(4, 0), min(2, 2), min(0, 4), each + 0.05: the second window
    assert [sw.has_max_context(spans, i, 4) for i in range(3)] == [False, True, False]
    # position 3: min(3, 1) = min(1, 3) = 1 in the first two: the first
    assert [sw.has_max_context(spans, i, 3) for i in range(3)] == [True, False, False]


def test_windows_labels_and_segments_worked_by_hand(tokenizer) -> None:
    """[CLS] q [SEP] + 5 context sub-tokens + [SEP] in 9; the answer e (word 4) at 4 - start +
    3 where a window holds it, at CLS (0) where it does not; the last window is kept."""
    features = _features(tokenizer, training=True)
    ids = tokenizer.convert_tokens_to_ids
    assert features["input_ids"][1] == ids(["[CLS]", "q", "[SEP]", *"cdefg", "[SEP]"])
    assert features["token_type_ids"][1] == [0, 0, 0, 1, 1, 1, 1, 1, 1]
    assert features["window_start"] == [0, 2, 4, 6]
    assert features["window_length"] == [5, 5, 5, 4]
    assert features["context_offset"] == [3, 3, 3, 3]
    assert features["start_positions"] == [7, 5, 3, 0]
    assert features["end_positions"] == [7, 5, 3, 0]
    # window 1 holds positions 2..6: 2 is central in window 0 (min 2 against 0), 3 ties window
    # 0 (min 1, 1: the first wins), 4 is its own, 5 ties window 2 (it wins), 6 is window 2's
    assert features["max_context"][1] is None  # kept for prediction only
    assert _features(tokenizer, training=False)["max_context"][1] == [
        False, False, True, True, False,
    ]  # fmt: skip
    assert features["pad_to"] == 9 and features["detokenizer"] == "wordpiece"


def test_a_training_answer_not_in_the_words_is_left_out(tokenizer) -> None:
    examples = [
        _example(),
        {**_example("c"), "id": "q2", "answers": {"text": ["zz"], "answer_start": [4]}},
    ]
    features = _features(tokenizer, training=True, examples=examples)
    assert features["answers_not_found"] == 1
    assert set(features["window_example"]) == {0}


def test_improve_answer_span_tightens_to_the_answers_pieces() -> None:
    pieces = ["the", "steve", "smith", "'", "s"]
    assert sw.improve_answer_span(pieces, 1, 4, ["steve", "smith"]) == (1, 2)
    assert sw.improve_answer_span(pieces, 1, 4, ["jo"]) == (1, 4)


def test_final_text_aligns_through_basic_tokenisation() -> None:
    # get_final_text's own example: the "'s" is cut where the alignment finds the prediction
    assert sa.final_text("steve smith", "Steve Smith's", True) == "Steve Smith"
    # cased, "steve smith" is not in "Steve Smith ' s": the words whole
    assert sa.final_text("steve smith", "Steve Smith's", False) == "Steve Smith's"
    # CJK ideographs are split apart: "在 北 京 市", the prediction at 2..4 -> characters 1..2
    assert sa.final_text("北 京", "在北京市", False) == "北京"
    assert text.basic_tokenize("Héllo,\u3000wörld\x00!", True) == ["hello", ",", "world", "!"]


def test_detokenize_as_the_legacy_slow_tokenizers() -> None:
    assert sp.detokenize(["\u2581New", "\u2581Yor", "k"], "metaspace") == "New York"
    assert sp.detokenize(["##a", "b", "##c"], "wordpiece") == "##a bc"


def test_best_indexes_keep_the_earlier_position_on_a_tie() -> None:
    assert sa.best_indexes([1.0, 3.0, 3.0, 2.0], 3) == [1, 2, 3]


def _decode(features, starts: list[list[float]], ends: list[list[float]]) -> str:
    head = QuestionAnsweringHead(get_task("xquad"))
    collected = head.start(features)
    width = features["pad_to"]
    pad = [[0.0] * (width - len(row)) for row in starts]
    outputs = {
        "start_logits": torch.tensor([r + p for r, p in zip(starts, pad, strict=True)]),
        "end_logits": torch.tensor([r + p for r, p in zip(ends, pad, strict=True)]),
    }
    # windows in reverse order: a prediction reads batches in length order, not window order
    order = list(reversed(range(len(starts))))
    head.read(features, order, {k: v[order] for k, v in outputs.items()}, collected)
    return head.finish(features, collected)[0]


def test_answers_by_hand(tokenizer) -> None:
    """Window 0: the start e (7) scores most but e has its most context in window 1, so d..e
    (5 + 5) is its best; window 1: e..e (6 + 6) beats it; tied (6 + 4), the earlier window."""
    features = _features(tokenizer, training=False)
    zeros = [[0.0] * 9 for _ in range(4)]
    starts, ends = [r[:] for r in zeros], [r[:] for r in zeros]
    starts[0][7], starts[0][6], ends[0][7] = 10.0, 5.0, 5.0
    starts[1][5], ends[1][5] = 6.0, 6.0
    assert _decode(features, starts, ends) == "e"
    ends[1][5] = 4.0
    assert _decode(features, starts, ends) == "d e"


def test_no_valid_span_in_the_n_best_answers_empty(tokenizer) -> None:
    """Padded to 40, the 20 best starts and ends all lie in the padding: no valid span."""
    features = _features(tokenizer, training=False, max_length=40)
    assert features["window_start"] == [0]  # 10 sub-tokens fit one window of 40
    padding = [[0.0] * 14 + [1.0] * 26]
    assert _decode(features, padding, padding) == sa.NO_ANSWER == "empty"


def test_run_squad_config_checks_the_stride_against_the_window() -> None:
    from mte.config.checks import check_config
    from tests.unit.test_config import BASE

    task = {
        "source": "hub",
        "eval_split": "test",
        "windows": "run_squad",
        "max_query_length": 64,
        "doc_stride": 317,
        "hyperparameters": {"max_length": 384},
    }
    config = {**BASE, "tasks": {"squad": task, "xquad": {"source": "hub", "eval_split": "test"}}}
    with pytest.raises(ConfigError, match="between 1 and 316") as caught:
        check_config(config)
    assert caught.value.key == "tasks.squad.doc_stride"
