"""Sentence breaks of a SQuAD paragraph where its file gives none: the sed-style breaker that
XTREME-R's LAReQA fine-tune uses on SQuAD v1.1 (``third_party/processors/sb_sed.py``,
``infer_sentence_breaks``), whose rules this module states again.

The paragraph is one line (its line breaks read as spaces); ordered rewrite rules put a line
break where a sentence ends (a stop, then a capital or a digit), take it out again after
titles, abbreviations and initials, put it back before common sentence openings, and mend a
few SQuAD-specific cases. Each resulting line, stripped, is a sentence; its span starts after
the line's leading whitespace. The order of the rules is part of their meaning: a later rule
sees the breaks an earlier one made.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_CLOSE_QUOTE, _OPEN_QUOTE, _BULLET = "\u201d", "\u201c", "\u2022"

# (pattern, replacement), applied in this order; "\n" in a result is a sentence break
_RULES: tuple[tuple[str, str], ...] = (
    # a stop (with closing quotes, brackets, spaces), whitespace, then an optional opening
    # quote or bracket and a capital letter or digit
    (rf"""([.?!][)'" {_CLOSE_QUOTE}]*)\s(\s*[\['"({_OPEN_QUOTE}]?[A-Z0-9])""", r"\1\n\2"),
    # Wikipedia's editorial marks after a stop: ".[citation needed] Next", ".[n 8] Next"
    (r"""([.?!]['"]?)((\[[a-zA-Z0-9 ?]+\])+)\s(\s*['"(]?[A-Z0-9])""", r"\1\2\n\4"),
    # an elided quotation: "such things [...] But"
    (r"(\[\.\.\.\]\s*)\s(\[?[A-Z])", r"\1\n\2"),
    # no break after titles, literary, month and place abbreviations, or "a.m. Eastern"
    (r"\b(Mrs?|Ms|Dr|Prof|Fr|Rev|Msgr|Sta?)\.\n", r"\1. "),
    (r"\b(Lt|Gen|Col|Maj|Adm|Capt|Sgt|Rep|Gov|Sen|Pres)\.\n", r"\1. "),
    (r"\b(e\.g|i\.?e|vs?|pp?|cf|a\.k\.a|approx|app|es[pt]|tr)\.\n", r"\1. "),
    (r"\b(Jan|Aug|Oct|Nov|Dec)\.\n", r"\1. "),
    (r"\b(Mt|Ft)\.\n", r"\1. "),
    (r"\b([ap]\.m)\.\n(Eastern|EST)\b", r"\1. \2"),
    # nor within a name with three, two or one initials before the surname
    (r'\b([A-Z]\.)[ \n]([A-Z]\.)[ \n]([A-Z]\.)[ \n]("?[A-Z][a-z])', r"\1 \2 \3 \4"),
    (r'\b([A-Z]\.)[ \n]([A-Z]\.)[ \n]("?[A-Z][a-z])', r"\1 \2 \3"),
    (r'\b([A-Z]\.[A-Z]\.)\n("?[A-Z][a-z])', r"\1 \2"),
    (r'\b([A-Z]\.)\n("?[A-Z][a-z])', r"\1 \2"),
    # but a break before common sentence openings, even where a rule above took it out
    (r"""([.!?]['")]*) (The|This|That|These|It) """, r"\1\n\2 "),
    (r"(\.) (Meanwhile|However)", r"\1\n\2"),
    (r"(\.) (In|On|By|During|After|Under|Although|Yet|As |Several|According to) ", r"\1\n\2 "),
    # no break in numbered parts, born/died/circa, "et al. (2005)", "H.R. 2000"
    (r"\b([Aa]rt|[Nn]o|Opp?|ch|Sec|cl|Rec|Ecl|Cor|Lk|Jn|Vol)\.\n([0-9IVX]+)\b", r"\1. \2"),
    (r"\b([bdrc]|ca|fl)\.\n([A-Z0-9])", r"\1. \2"),
    (r"\b(et al)\.\n(\(?[0-9]{4}\b)", r"\1. \2"),
    (r"\b(H\.R\.)\n([0-9])", r"\1 \2"),
    # SQuAD's own titles and abbreviations
    (r"(I Am\.\.\.)\n(Sasha Fierce|World Tour)", r"\1 \2"),
    (r"(Warner Bros\.)\n(Records|Entertainment)", r"\1 \2"),
    (r"(U\.S\.)\n(\(?\d\d+)", r"\1 \2"),
    (r"\b(Rs\.)\n(\d)", r"\1 \2"),
    # and its sentences that end in an abbreviation or start in lower case
    (r"\b(Jay Z\.) ([A-Z])", r"\1\n\2"),
    (r"\b(Washington, D\.C\.) ([A-Z])", r"\1\n\2"),
    (r"\b(for 4\.\)) ([A-Z])", r"\1\n\2"),
    (r"\b(Wii U\.) ([A-Z])", r"\1\n\2"),
    (r"\. (iPod|iTunes)", r".\n\1"),
    (r" (\[\.\.\.\]\n)", r"\n\1"),
    (r"(\.Sc\.)\n", r"\1 "),
    (rf" ({_BULLET} [A-Z])", r"\n\1"),
)
_COMPILED = tuple((re.compile(pattern), replacement) for pattern, replacement in _RULES)
_LINE_START = re.compile(r"^\s*", re.M)


def broken_lines(text: str) -> str:
    """``text`` as one line per sentence (line breaks in it read as spaces first)."""
    lines = text.replace("\n", " ")
    for pattern, replacement in _COMPILED:
        lines = pattern.sub(replacement, lines)
    return lines


def sentence_breaks(text: str) -> Iterator[tuple[int, int]]:
    """The ``(start, end)`` character span of each sentence of ``text``, in order: the
    sentence is ``text[start:end]``, without the whitespace around it."""
    lines = broken_lines(text)
    # each line's first character after its leading whitespace (the rules replace single
    # characters by line breaks, so offsets in ``lines`` are offsets in ``text``)
    starts = [match.end() for match in _LINE_START.finditer(lines)]
    sentences = [line.strip() for line in lines.split("\n")]
    if len(starts) != len(sentences):
        raise ValueError(f"sentence breaking lost track of the lines of {text[:60]!r}")
    for start, sentence in zip(starts, sentences, strict=True):
        yield start, start + len(sentence)
