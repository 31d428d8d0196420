"""Answers of XTREME's ``third_party/run_squad.py`` windows (mte.families.qa.squad_windows):
transformers 2.x's ``compute_predictions_logits`` with ``version_2_with_negative`` off - the
n-best starts and ends of each window, a start counted only where its token has the most
context, the answer's text the whitespace words it covers cut to the predicted sub-tokens by
``get_final_text``'s character alignment through BERT's basic tokenizer (mte.text), and
``empty`` for a question with no valid span."""

from __future__ import annotations

from typing import Any

from mte.families.qa.squad_pieces import detokenize
from mte.text import basic_tokenize

# run_squad.py's defaults that XTREME's scripts keep (train_qa.sh passes neither)
N_BEST = 20
MAX_ANSWER_TOKENS = 30
# what compute_predictions_logits answers when no span of any window is valid
NO_ANSWER = "empty"


# ---- decoding: compute_predictions_logits with version_2_with_negative off ----


def best_indexes(logits: list[float], n: int) -> list[int]:
    """The ``n`` positions of the largest logits, the earlier position first on a tie."""
    return sorted(range(len(logits)), key=lambda i: logits[i], reverse=True)[:n]


def window_best_span(
    starts: list[float],
    ends: list[float],
    n_tokens: int,
    context_offset: int,
    context_length: int,
    max_context: list[bool],
) -> tuple[float, int, int] | None:
    """(score, start, end) of a window's best valid span among its n-best starts and ends
    over all positions: both in the context, the start where its token has its most context,
    end not before start, at most ``MAX_ANSWER_TOKENS`` long; the first such pair in n-best
    order on a tie."""
    found = None
    last_context = context_offset + context_length - 1
    for start in best_indexes(starts, N_BEST):
        if start >= n_tokens or not context_offset <= start <= last_context:
            continue
        if not max_context[start - context_offset]:
            continue
        for end in best_indexes(ends, N_BEST):
            if end >= n_tokens or not context_offset <= end <= last_context:
                continue
            if end < start or end - start + 1 > MAX_ANSWER_TOKENS:
                continue
            score = starts[start] + ends[end]
            if found is None or score > found[0]:
                found = (score, start, end)
    return found


def span_answer(features: dict[str, Any], window: int, start: int, end: int) -> str:
    """The answer text of a window's span: the words it covers, cut to its sub-tokens."""
    example = features["window_example"][window]
    first = features["window_start"][window] + start - features["context_offset"][window]
    last = first + end - start
    pieces = features["doc_subtokens"][example][first : last + 1]
    predicted = " ".join(detokenize(pieces, features["detokenizer"]).split())
    word_of = features["subtoken_word"][example]
    words = features["doc_words"][example][word_of[first] : word_of[last] + 1]
    return final_text(predicted, " ".join(words), features["do_lower_case"])


def final_text(predicted: str, original: str, do_lower_case: bool) -> str:
    """``get_final_text``: ``original`` cut to the characters of ``predicted``, aligned through
    BERT's basic tokenisation of ``original``; ``original`` whole where the alignment fails."""
    tokenized = " ".join(basic_tokenize(original, do_lower_case))
    start = tokenized.find(predicted)
    if start == -1:
        return original
    end = start + len(predicted) - 1
    original_chars, original_at = _without_spaces(original)
    tokenized_chars, tokenized_at = _without_spaces(tokenized)
    if len(original_chars) != len(tokenized_chars):
        return original
    stripped_of = {at: i for i, at in enumerate(tokenized_at)}
    if start not in stripped_of or end not in stripped_of:
        return original
    return original[original_at[stripped_of[start]] : original_at[stripped_of[end]] + 1]


def _without_spaces(text: str) -> tuple[str, list[int]]:
    kept = [i for i, char in enumerate(text) if char != " "]
    return "".join(text[i] for i in kept), kept
