"""Line-level reading shared by the text-format readers (encodings, BOMs, line ends), SQuAD's
whitespace words (processors/squad.py's, which XTREME's QA and LAReQA scripts share), and BERT's
basic tokenizer (transformers 2.x's BasicTokenizer, which run_squad.py's get_final_text aligns
answers through: mte.families.qa.squad_answers)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

from mte.errors import InputError


def read_lines(path: str | Path, encoding: str = "utf-8") -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` without the line end; a BOM on line 1 is dropped.

    CRLF and LF both end a line. Bytes that are not valid in ``encoding`` raise an
    :class:`InputError` naming the line, never a silent replacement character.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(path, None, "file not found")
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode(encoding)
            except UnicodeDecodeError as err:
                raise InputError(
                    path, number, f"not valid {encoding} (byte {err.start}): {err.reason}"
                ) from err
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]
            yield number, line.rstrip("\r\n")


def some_examples(examples: list, path: str | Path, what: str = "examples") -> list:
    """``examples`` read from ``path``; a file that held none is an :class:`InputError`."""
    if not examples:
        raise InputError(path, None, f"no {what} in file")
    return examples


def split_tsv(path: str | Path, number: int, line: str, columns: int) -> list[str]:
    """Split a tab-separated line that must have exactly ``columns`` fields.

    Fields are split on TAB only: the benchmarks' TSV files are not CSV-quoted, and their
    text contains unbalanced quotes that a CSV parser would swallow across lines.
    """
    fields = line.split("\t")
    if len(fields) != columns:
        raise InputError(
            path, number, f"expected {columns} tab-separated fields, found {len(fields)}"
        )
    return fields


def detect_encoding(path: str | Path) -> str:
    """``utf-8`` when the whole file decodes as UTF-8, else ``cp1252`` (a superset of the
    printable Latin-1 range the CoNLL-2002/2003 files use), else ``latin-1``."""
    data = Path(path).read_bytes()
    for encoding in ("utf-8", "cp1252"):
        try:
            data.decode(encoding)
            return encoding
        except UnicodeDecodeError:
            continue
    return "latin-1"


def _is_squad_whitespace(char: str) -> bool:
    # processors/squad.py's _is_whitespace: these five only (a no-break space stays in a word)
    return char in " \t\r\n" or ord(char) == 0x202F


def whitespace_words(context: str) -> tuple[list[str], list[int]]:
    """The context's whitespace-separated words and, per character, the index of the word it
    belongs to (a space belongs to the word before it), as ``SquadExample`` splits a context."""
    words: list[str] = []
    char_to_word: list[int] = []
    after_space = True
    for char in context:
        if _is_squad_whitespace(char):
            after_space = True
        else:
            if after_space:
                words.append(char)
            else:
                words[-1] += char
            after_space = False
        char_to_word.append(len(words) - 1)
    return words, char_to_word


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
