"""QA windows and answers as XTREME's ``third_party/run_squad.py`` makes them.

XTREME and XTREME-R fine-tune and predict QA with ``run_squad.py``, whose features come from
``third_party/processors/squad.py`` and whose answers from transformers 2.x's
``compute_predictions_logits`` (the port of BERT's ``run_squad.py``). What differs from Hugging
Face's ``run_qa.py`` (:mod:`mte.families.qa.features`):

- the context is split on whitespace into words first and each word is sub-tokenised on its own;
- the question is cut to ``max_query_length`` sub-tokens;
- ``doc_stride`` is the step between the first context sub-tokens of consecutive windows (windows
  are made while ``len(windows) * doc_stride < len(context sub-tokens)``), not their overlap;
- a training window that does not hold the answer is kept, labelled at the CLS token;
- every window is padded to ``max_length``, so the n-best starts and ends are taken over all its
  positions (padding included) before the invalid ones are dropped;
- a start counts only in the window where its token has the most context on both sides
  (``token_is_max_context``), and the answer's text is the whitespace words it covers, cut to
  the predicted sub-tokens by ``get_final_text``'s character alignment. A question with no valid
  span is answered with the string ``empty``, as that script answers it.
"""

from __future__ import annotations

import logging
from typing import Any, NamedTuple

from mte.families.qa.squad_pieces import detokenizer, word_pieces
from mte.modelling.features import PairTemplate, feature_header, pair_template
from mte.tasks.spec import Task
from mte.text import whitespace_words

log = logging.getLogger(__name__)


def window_spans(n_subtokens: int, capacity: int, doc_stride: int) -> list[tuple[int, int]]:
    """(first context sub-token, length) of each window: starts ``doc_stride`` apart, each
    holding at most ``capacity`` sub-tokens, the last one reaching the context's end."""
    spans: list[tuple[int, int]] = []
    while len(spans) * doc_stride < n_subtokens:
        start = len(spans) * doc_stride
        spans.append((start, min(n_subtokens - start, capacity)))
        if start + capacity >= n_subtokens:  # nothing overflowed: the context ends here
            break
    return spans


def has_max_context(spans: list[tuple[int, int]], index: int, position: int) -> bool:
    """Whether window ``index`` gives the sub-token at ``position`` its most context: the
    largest min(left, right) + 0.01 * window length, the first window on a tie."""
    best_score, best_index = None, None
    for span_index, (start, length) in enumerate(spans):
        end = start + length - 1
        if position < start or position > end:
            continue
        score = min(position - start, end - position) + 0.01 * length
        if best_score is None or score > best_score:
            best_score, best_index = score, span_index
    return best_index == index


def improve_answer_span(
    subtokens: list[str], start: int, end: int, answer_pieces: list[str]
) -> tuple[int, int]:
    """The tightest sub-token span inside [start, end] whose pieces are the answer's own."""
    wanted = " ".join(answer_pieces)
    for new_start in range(start, end + 1):
        for new_end in range(end, new_start - 1, -1):
            if " ".join(subtokens[new_start : new_end + 1]) == wanted:
                return new_start, new_end
    return start, end


def tokenize_run_squad(
    tokenizer: Any,
    examples: list[dict[str, Any]],
    task: Task,
    max_length: int,
    doc_stride: int,
    max_query_length: int,
    training: bool,
    do_lower_case: bool,
) -> dict[str, Any]:
    """Windows of every example as ``squad_convert_example_to_features`` makes them.

    Per window: ``input_ids`` (unpadded; ``pad_to`` pads them), ``token_type_ids`` where the
    model takes them, its example, its first context sub-token (``window_start``), its context
    length, where its context begins (``context_offset``) and which of its context tokens have
    their most context there; per example the words, sub-tokens and each sub-token's word, to
    map an answer back (None for a training split, which is never decoded). For training,
    ``start_positions``/``end_positions`` (the CLS position where the window lacks the answer);
    an example whose answer is not in its words is left out, as ``squad.py`` leaves it out.
    """
    template = pair_template(tokenizer)
    # a window without the answer points at [CLS]; a decoder's at its first position
    cls_id = tokenizer.cls_token_id
    cls_index = template.prefix.index(cls_id) if cls_id in template.prefix else 0
    window = (max_length - template.added, doc_stride, cls_index)
    features = _run_squad_header(tokenizer, examples, task, max_length, template, do_lower_case)
    pieces_of: dict[str, ContextPieces] = {}  # contexts repeat across questions: tokenise once
    questions = tokenizer([e["question"] for e in examples], add_special_tokens=False)
    for index, example in enumerate(examples):
        context = example["context"]
        if context not in pieces_of:
            pieces_of[context] = context_pieces(tokenizer, context)
        pieces = pieces_of[context]
        # what maps a predicted span back to text, kept for prediction only (SQuAD's training
        # set would carry 88k copies for nothing)
        features["doc_words"].append(None if training else pieces.words)
        features["doc_subtokens"].append(None if training else pieces.id_tokens)
        features["subtoken_word"].append(None if training else pieces.subtoken_word)
        answer_span = None
        if training:
            answer_span = _training_answer(tokenizer, example, pieces.words, pieces.char_to_word,
                                           pieces.subtokens, pieces.word_first)  # fmt: skip
            if answer_span is None:
                features["answers_not_found"] += 1
                continue
        question = questions["input_ids"][index][:max_query_length]
        _add_windows(features, template, index, question, pieces.ids, answer_span, window,
                     training)  # fmt: skip
    if features["answers_not_found"]:
        log.warning(
            "%d training questions left out: their answer is not in the context's words",
            features["answers_not_found"],
        )
    return features


class ContextPieces(NamedTuple):
    """A context as squad.py tokenises it: its whitespace words (and each character's word),
    their sub-tokens, ids and the ids' own tokens, each sub-token's word and each word's first
    sub-token."""

    words: list[str]
    char_to_word: list[int]
    subtokens: list[str]
    ids: list[int]
    id_tokens: list[str]
    subtoken_word: list[int]
    word_first: list[int]


def context_pieces(tokenizer: Any, context: str) -> ContextPieces:
    words, char_to_word = whitespace_words(context)
    subtokens, ids, subtoken_word, word_first = [], [], [], []
    for word_index, (pieces, piece_ids) in enumerate(word_pieces(tokenizer, words)):
        word_first.append(len(subtokens))
        subtokens += pieces
        ids += piece_ids
        subtoken_word += [word_index] * len(pieces)
    # an answer's text is read from its ids' tokens, as squad.py reads feature.tokens
    id_tokens = tokenizer.convert_ids_to_tokens(ids)
    return ContextPieces(words, char_to_word, subtokens, ids, id_tokens, subtoken_word, word_first)


def _run_squad_header(
    tokenizer: Any,
    examples: list[dict[str, Any]],
    task: Task,
    max_length: int,
    template: PairTemplate,
    do_lower_case: bool,
) -> dict[str, Any]:
    """The features before any window: what every window and example list starts from."""
    features: dict[str, Any] = {
        **feature_header(tokenizer, examples, task, max_length, ()),
        "windows": "run_squad",
        "pad_to": max_length,
        "detokenizer": detokenizer(tokenizer),
        "do_lower_case": do_lower_case,
        "contexts": [e["context"] for e in examples],
        "answers": [e["answers"]["text"] for e in examples],
        "doc_words": [],
        "doc_subtokens": [],
        "subtoken_word": [],
        "input_ids": [],
        "window_example": [],
        "window_start": [],
        "window_length": [],
        "context_offset": [],
        "max_context": [],
        "start_positions": [],
        "end_positions": [],
        "answers_not_found": 0,
    }
    if template.segments is not None:
        features["token_type_ids"] = []
    return features


def _add_windows(
    features: dict[str, Any],
    template: PairTemplate,
    index: int,
    question: list[int],
    ids: list[int],
    answer_span: tuple[int, int] | None,
    window: tuple[int, int, int],
    training: bool,
) -> None:
    """Example ``index``'s windows over its context ``ids``, each after ``question``
    (``window``: the sub-tokens a window holds besides the specials, the stride and the CLS
    position); for training the answer's positions in each (CLS where a window lacks it)."""
    capacity_base, doc_stride, cls_index = window
    offset = template.context_offset(len(question))
    spans = window_spans(len(ids), capacity_base - len(question), doc_stride)
    for span_index, (start, length) in enumerate(spans):
        window_ids = ids[start : start + length]
        features["input_ids"].append(template.ids(question, window_ids))
        if template.segments is not None:
            features["token_type_ids"].append(template.segment_ids(question, window_ids))
        features["window_example"].append(index)
        features["window_start"].append(start)
        features["window_length"].append(length)
        features["context_offset"].append(offset)
        features["max_context"].append(
            None
            if training
            else [has_max_context(spans, span_index, start + j) for j in range(length)]
        )
        if answer_span is not None:
            first, last = answer_span
            if first >= start and last <= start + length - 1:
                features["start_positions"].append(first - start + offset)
                features["end_positions"].append(last - start + offset)
            else:
                features["start_positions"].append(cls_index)
                features["end_positions"].append(cls_index)


def _training_answer(
    tokenizer: Any,
    example: dict[str, Any],
    words: list[str],
    char_to_word: list[int],
    subtokens: list[str],
    word_first: list[int],
) -> tuple[int, int] | None:
    """The first gold answer's sub-token span, or None where ``squad.py`` cannot find it."""
    answers = example["answers"]
    if not answers["text"] or not char_to_word:
        return None
    text, start_char = answers["text"][0], answers["answer_start"][0]
    if not 0 <= start_char < len(char_to_word):
        return None
    first_word = char_to_word[start_char]
    last_word = char_to_word[min(start_char + len(text) - 1, len(char_to_word) - 1)]
    if " ".join(words[first_word : last_word + 1]).find(" ".join(text.split())) == -1:
        return None
    first = word_first[first_word]
    last = word_first[last_word + 1] - 1 if last_word < len(words) - 1 else len(subtokens) - 1
    return improve_answer_span(subtokens, first, last, tokenizer.tokenize(text))
