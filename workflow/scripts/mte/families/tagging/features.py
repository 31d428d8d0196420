"""Tagged sentences into model features: windows of sub-tokens, each word's label on one."""

from __future__ import annotations

from typing import Any

from mte.errors import InputError
from mte.hub.decoders import is_decoder_tokenizer, running_text_pieces, single_template
from mte.hub.sentencepiece import native_pieces
from mte.modelling.features import feature_header, pair_template
from mte.tasks.spec import Task


def sentence_pieces(tokenizer: Any, sentences: list[list[str]]) -> list[list[list[int]]]:
    """Sub-token ids of each word of each sentence, as the tokenizer splits a pre-split
    sentence (a decoder's: as it cuts the sentence's running text, each word with its leading
    space, :func:`running_text_pieces`); under paper tokenization with native pieces, every
    word of every sentence in one pass of the SentencePiece library (the same ids).

    A word that tokenizes to nothing (e.g. a control character the normaliser deletes) gets
    the unknown token, so that every word has a position to carry its label and prediction.
    """
    if is_decoder_tokenizer(tokenizer):
        return [running_text_pieces(tokenizer, sentence) for sentence in sentences]
    native = native_pieces(tokenizer)
    if native is not None:
        words = native.encode([word for sentence in sentences for word in sentence])
        found, start = [], 0
        for sentence in sentences:
            found.append(words[start : start + len(sentence)])
            start += len(sentence)
    else:
        found = [_word_pieces(tokenizer, sentence) for sentence in sentences]
    for pieces in found:
        for index, word_pieces in enumerate(pieces):
            if not word_pieces:
                pieces[index] = [tokenizer.unk_token_id]
    return found


def _word_pieces(tokenizer: Any, words: list[str]) -> list[list[int]]:
    """One sentence's words, each a list of sub-token ids (see :func:`sentence_pieces`)."""
    encoded = tokenizer(words, is_split_into_words=True, add_special_tokens=False)
    pieces: list[list[int]] = [[] for _ in words]
    for token_id, word in zip(encoded["input_ids"], encoded.word_ids(), strict=True):
        if word is not None:
            pieces[word].append(token_id)
    return pieces


def _empty_piece_ids(tokenizer: Any) -> set[int]:
    """Ids of pieces with no surface form: the bare SentencePiece word marker."""
    marker = tokenizer.convert_tokens_to_ids("\u2581")
    return {marker} if marker is not None and marker != tokenizer.unk_token_id else set()


def separators(tokenizer: Any, tokenization: str) -> list[int]:
    """What closes a tagged sentence: ``</s>``, or with ``paper`` tokenization and a tokenizer
    that puts two separators between a pair's segments (XLM-R's, RoBERTa's) two of them, as
    XTREME's run_tag.py passes ``sep_token_extra`` for its xlmr and roberta model types; a
    decoder's, what its tokenizer puts after a sequence (mostly nothing)."""
    if is_decoder_tokenizer(tokenizer):
        return single_template(tokenizer)[1]
    single = [tokenizer.sep_token_id]
    if tokenization != "paper":
        return single
    return single * 2 if pair_template(tokenizer).middle == single * 2 else single


def tokenize_tagging(
    tokenizer: Any,
    examples: list[dict[str, Any]],
    task: Task,
    max_length: int,
    label_subword: str,
    tokenization: str,
) -> dict[str, Any]:
    """Encode tagged sentences into windows of at most ``max_length`` sub-tokens.

    Each word's label sits on one sub-token (the first, or with ``first_nonempty`` the first
    that is not a bare word marker); other sub-tokens get -100 and are ignored by the loss. A
    sentence longer than a window is split between words into consecutive windows, so every
    word is labelled and predicted exactly once: the cut of XTREME's ``utils_preprocess.py``,
    which ``scripts/preprocess_panx.sh`` and ``preprocess_udpos.sh`` run before ``run_tag.py``.
    A single word longer than a whole window becomes the unknown token under ``paper``
    tokenization, as there; under ``fast`` it keeps the sub-tokens that fit. A window ends as
    :func:`separators` says.
    """
    tag_index = {tag: index for index, tag in enumerate(task.labels)}
    empty = _empty_piece_ids(tokenizer) if label_subword == "first_nonempty" else set()
    closing = separators(tokenizer, tokenization)
    # [CLS], or what a decoder's tokenizer puts before a sequence (<s>, <bos> or nothing)
    opening = (
        single_template(tokenizer)[0]
        if is_decoder_tokenizer(tokenizer)
        else [tokenizer.cls_token_id]
    )
    paper = tokenization == "paper"
    room = max_length - len(opening) - len(closing)  # <s> ... </s> (</s>)
    features: dict[str, Any] = {
        **feature_header(tokenizer, examples, task, max_length, task.labels),
        "label_subword": label_subword,
        "word_labels": [],
        "input_ids": [],
        "labels": [],
        "window_example": [],
        "window_positions": [],
    }
    split_sentences = 0
    for index, example in enumerate(examples):
        if len(example["tokens"]) != len(example["tags"]):
            raise InputError("<examples>", index + 1, "tokens and tags differ in number")
    every_sentence = sentence_pieces(tokenizer, [example["tokens"] for example in examples])
    for index, (example, pieces) in enumerate(zip(examples, every_sentence, strict=True)):
        word_labels = [tag_index[tag] for tag in example["tags"]]
        features["word_labels"].append(word_labels)
        windows, current, used = [], [], 0
        for word, word_pieces in enumerate(pieces):
            if len(word_pieces) > room:
                word_pieces = [tokenizer.unk_token_id] if paper else word_pieces[:room]
            pieces[word] = word_pieces
            if current and used + len(word_pieces) > room:
                windows.append(current)
                current, used = [], 0
            current.append(word)
            used += len(word_pieces)
        if current or not pieces:
            windows.append(current)
        split_sentences += len(windows) > 1
        for words in windows:
            input_ids = list(opening)
            labels = [-100] * len(opening)
            positions = []
            for word in words:
                word_pieces = pieces[word]
                offset = next((i for i, piece in enumerate(word_pieces) if piece not in empty), 0)
                positions.append(len(input_ids) + offset)
                labels += [-100] * len(word_pieces)
                labels[positions[-1]] = word_labels[word]
                input_ids += word_pieces
            input_ids += closing
            labels += [-100] * len(closing)
            features["input_ids"].append(input_ids)
            features["labels"].append(labels)
            features["window_example"].append(index)
            features["window_positions"].append(positions)
    features["split_sentences"] = split_sentences
    return features
