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

import functools
import logging
import unicodedata
from typing import Any, NamedTuple

from mte.hub.decoders import is_decoder_tokenizer, running_text_pieces
from mte.modelling.features import PairTemplate, feature_header, pair_template
from mte.tasks.spec import Task
from mte.text import whitespace_words

log = logging.getLogger(__name__)

# run_squad.py's defaults that XTREME's scripts keep (train_qa.sh passes neither)
N_BEST = 20
MAX_ANSWER_TOKENS = 30
# what compute_predictions_logits answers when no span of any window is valid
NO_ANSWER = "empty"
METASPACE = "\u2581"


def detokenizer(tokenizer: Any) -> str:
    """How sub-tokens are joined back into text, as the legacy slow tokenizers'
    ``convert_tokens_to_string`` joins them: ``metaspace`` (SentencePiece: XLM-R, e5) or
    ``wordpiece`` (BERT); a decoder's: ``bytelevel`` (GPT-2's byte-level BPE: Qwen2, Llama 3)
    or ``metaspace_bytes`` (SentencePiece pieces with byte fallback: Llama 2, Gemma)."""
    if is_decoder_tokenizer(tokenizer):
        if tokenizer.convert_tokens_to_string(["\u0120a", "\u0120b", "c"]) == " a bc":
            return "bytelevel"
        joined = tokenizer.convert_tokens_to_string([f"{METASPACE}a", f"{METASPACE}b", "c"])
        if joined.strip() == "a bc":
            return "metaspace_bytes"
    if tokenizer.convert_tokens_to_string([f"{METASPACE}a", f"{METASPACE}b", "c"]) == "a bc":
        return "metaspace"
    if tokenizer.convert_tokens_to_string(["a", "##b", "c"]) == "ab c":
        return "wordpiece"
    raise ValueError(
        f"{type(tokenizer).__name__}: neither a SentencePiece nor a WordPiece tokenizer; the "
        "run_squad windows need one of them to map an answer's sub-tokens back to text"
    )


def detokenize(tokens: list[str], style: str) -> str:
    """XLMRobertaTokenizer's or BertTokenizer's ``convert_tokens_to_string`` (transformers 2.x);
    for a decoder's pieces, their bytes read as UTF-8 (a span may cut a character's bytes: the
    cut part becomes U+FFFD, as a decoder's own ``decode`` makes it)."""
    if style == "metaspace":
        return "".join(tokens).replace(METASPACE, " ").strip()
    if style == "bytelevel":
        table = _byte_level_table()
        raw = bytes(table[char] for token in tokens for char in token if char in table)
        return raw.decode("utf-8", errors="replace").strip()
    if style == "metaspace_bytes":
        raw = b"".join(
            bytes([int(token[3:5], 16)])
            if len(token) == 6 and token.startswith("<0x") and token.endswith(">")
            else token.replace(METASPACE, " ").encode("utf-8")
            for token in tokens
        )
        return raw.decode("utf-8", errors="replace").strip()
    return " ".join(tokens).replace(" ##", "").strip()


@functools.cache
def _byte_level_table() -> dict[str, int]:
    """GPT-2's byte-level alphabet read backwards: the byte each character stands for
    (transformers' own ``bytes_to_unicode``, inverted)."""
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    return {char: byte for byte, char in bytes_to_unicode().items()}


def word_pieces(tokenizer: Any, words: list[str]) -> list[tuple[list[str], list[int]]]:
    """Each word's sub-tokens and their ids, the word tokenised on its own as ``squad.py``
    tokenises it (a decoder's: as the running text cuts it, with its leading space,
    ``running_text_pieces``). The ids are the tokenizer's own, not looked up again from the
    sub-tokens' text: an unknown piece's text is its surface, which has no id of its own."""
    if not words:
        return []
    if is_decoder_tokenizer(tokenizer):
        ids = running_text_pieces(tokenizer, words)
        return [(tokenizer.convert_ids_to_tokens(piece_ids), piece_ids) for piece_ids in ids]
    if getattr(tokenizer, "is_fast", False):
        encoded = tokenizer(words, add_special_tokens=False)
        return [(encoded.tokens(i), encoded["input_ids"][i]) for i in range(len(words))]
    tokens = [tokenizer.tokenize(word) for word in words]
    return [(pieces, tokenizer.convert_tokens_to_ids(pieces)) for pieces in tokens]


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
    do_lower_case: bool = False,
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


# ---- BERT's BasicTokenizer (transformers 2.x), which get_final_text aligns through ----


def basic_tokenize(text: str, do_lower_case: bool) -> list[str]:
    """Control characters dropped, whitespace as spaces, CJK ideographs split apart, lower case
    and accents stripped when ``do_lower_case``, punctuation split off."""
    cleaned = "".join(
        " " if _is_bert_whitespace(c) else c
        for c in text
        if not (ord(c) in (0, 0xFFFD) or _is_bert_control(c))
    )
    spaced = "".join(f" {c} " if _is_cjk(ord(c)) else c for c in cleaned)
    pieces: list[str] = []
    for token in spaced.split():
        if do_lower_case:
            token = "".join(
                c for c in unicodedata.normalize("NFD", token.lower())
                if unicodedata.category(c) != "Mn"
            )  # fmt: skip
        pieces += _split_punctuation(token)
    return " ".join(pieces).split()


def _split_punctuation(token: str) -> list[str]:
    parts: list[str] = []
    new_word = True
    for char in token:
        if _is_bert_punctuation(char):
            parts.append(char)
            new_word = True
        else:
            if new_word:
                parts.append("")
            parts[-1] += char
            new_word = False
    return parts


def _is_bert_whitespace(char: str) -> bool:
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


def _is_bert_control(char: str) -> bool:
    return char not in "\t\n\r" and unicodedata.category(char).startswith("C")


def _is_bert_punctuation(char: str) -> bool:
    cp = ord(char)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(char).startswith("P")


_CJK_RANGES = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)  # fmt: skip


def _is_cjk(cp: int) -> bool:
    return any(low <= cp <= high for low, high in _CJK_RANGES)
