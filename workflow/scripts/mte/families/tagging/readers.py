"""Sequence-tagging readers (CoNLL NER, PAN-X, UD POS) into ``id, tokens, tags``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from mte.errors import InputError, MteError
from mte.tasks.spec import Task
from mte.text import detect_encoding, read_lines, some_examples

DOCSTART = "-DOCSTART-"


def iob1_to_iob2(tags: list[str]) -> list[str]:
    """IOB1 (``I-`` opens a chunk unless it follows one of its type) to IOB2 (``B-`` opens
    every chunk). IOB2 input comes back unchanged."""
    converted = []
    for position, tag in enumerate(tags):
        if tag.startswith("I-"):
            previous = converted[position - 1] if position else "O"
            if previous == "O" or previous[2:] != tag[2:]:
                tag = "B-" + tag[2:]
        converted.append(tag)
    return converted


def _sentences(
    lines: Iterable[tuple[int, list[str]]],
) -> Iterator[tuple[int, list[tuple[int, list[str]]]]]:
    """Group (line number, fields) rows into sentences at blank lines."""
    sentence: list[tuple[int, list[str]]] = []
    for number, fields in lines:
        if not fields:
            if sentence:
                yield sentence[0][0], sentence
                sentence = []
            continue
        sentence.append((number, fields))
    if sentence:
        yield sentence[0][0], sentence


def _unknown_tag(task: Task, path: Path, number: int, tag: str) -> None:
    if tag in task.options.former_labels:
        name, release = task.options.former_labels[tag]
        raise InputError(
            path,
            number,
            f"tag '{tag}' is {release}'s name of the tag {task.title} reads as '{name}' "
            f"({task.reference.split(';')[0]}); rename '{tag}' to '{name}' in the file's tag "
            f"column (the mapping is one to one), or read the release the benchmark uses",
        )
    raise InputError(
        path,
        number,
        f"unknown tag '{tag}' for {task.title} (expected one of {', '.join(task.labels)})",
    )


def _build(
    task: Task, path: Path, rows: list[tuple[int, list[str]]], sentence_id: str, iob1: bool
) -> dict[str, Any]:
    tokens = [fields[0] for _, fields in rows]
    raw = [fields[-1] for _, fields in rows]
    tags = iob1_to_iob2(raw) if iob1 else raw
    for (number, _), tag, written in zip(rows, tags, raw, strict=True):
        if tag not in task.labels:
            _unknown_tag(task, path, number, written)
    return {"id": sentence_id, "tokens": tokens, "tags": tags}


def _examples(
    task: Task, path: Path, rows: Iterable[tuple[int, list[str]]], id_prefix: str, iob1: bool
) -> list[dict[str, Any]]:
    """Sentences of (line number, fields) rows as examples, numbered from 1; none is an error."""
    examples = [
        _build(task, path, sentence, f"{id_prefix}{index}", iob1)
        for index, (_, sentence) in enumerate(_sentences(rows), start=1)
    ]
    return some_examples(examples, path, "sentences")


def read_conll_columns(
    path: str | Path, task: Task, encoding: str | None = None
) -> list[dict[str, Any]]:
    """CoNLL-2002/2003 column files: token first, NER tag last, blank line between sentences.

    ``-DOCSTART-`` lines are dropped; IOB1 tags (eng, deu) become IOB2 (esp and ned are IOB2
    already and pass through unchanged); non-UTF-8 files (Latin-1 / Windows-1252) are read in
    their real encoding.
    """
    path = Path(path)
    encoding = encoding or detect_encoding(path)

    def rows() -> Iterator[tuple[int, list[str]]]:
        for number, line in read_lines(path, encoding):
            fields = line.split()
            if fields and fields[0] == DOCSTART:
                continue
            if len(fields) == 1:
                raise InputError(path, number, f"a token with no tag: {line!r}")
            yield number, fields

    return _examples(task, path, rows(), "", iob1=True)


def read_token_tag_tsv(path: str | Path, task: Task, id_prefix: str = "") -> list[dict[str, Any]]:
    """XTREME's processed PAN-X and UD-POS files: ``token TAB tag``, blank line between
    sentences (a line of white space only, such as a lone TAB, is a blank line).

    A line with a tag but an empty token (``\tPROPN``) is kept as a word with no text: the
    tag is part of the gold sequence that XTREME's evaluation counts (its reader keeps the
    empty word, ``line.split("\t")[0]``), so dropping it would change the gold; the word gets
    the unknown sub-token at tokenisation. :func:`count_empty_tokens` reports how many were
    read, for the job's log and the data's ``.meta.json``.
    """
    path = Path(path)

    def rows() -> Iterator[tuple[int, list[str]]]:
        for number, line in read_lines(path):
            if not line.strip():
                yield number, []
                continue
            fields = line.split("\t")
            if len(fields) != 2:
                raise InputError(
                    path, number, f"expected token TAB tag, found {len(fields)} field(s)"
                )
            if not fields[1]:
                raise InputError(path, number, "a token with an empty tag")
            yield number, fields

    return _examples(task, path, rows(), id_prefix, iob1=False)


def read_conllu(
    path: str | Path, task: Task, id_prefix: str = "", fused_forms: bool = False
) -> list[dict[str, Any]]:
    """CoNLL-U: the FORM and UPOS columns of word lines; comment lines, multiword-token
    ranges (``1-2``) and empty nodes (``5.1``) are skipped.

    ``fused_forms``: as XTREME converts a UD release (:func:`xtreme_fused_words`): each
    multiword token's words become one word, its fused form with its head word's UPOS, and a
    sentence whose forms are all (or all but one) ``_`` is left out.

    The format ends every sentence, the last included, with a blank line; a file whose last
    line is not blank was cut short (mid-sentence, or exactly at a word line) and stops the
    read, naming the last line read.
    """
    path = Path(path)

    def rows() -> Iterator[tuple[int, list[str]]]:
        for sentence in _conllu_sentences(path):
            if fused_forms:
                words = xtreme_fused_words(path, *sentence)
                if words is None:
                    continue
            else:
                words = [(number, fields[1], fields[3]) for number, fields in sentence[0]]
            for number, form, upos in words:
                yield number, [form, upos]
            yield 0, []

    return _examples(task, path, rows(), id_prefix, iob1=False)


def _conllu_sentences(
    path: Path,
) -> Iterator[tuple[list[tuple[int, list[str]]], list[tuple[int, list[str]]]]]:
    """Each sentence's word lines and multiword-token lines, as (line number, 10 fields)."""
    words: list[tuple[int, list[str]]] = []
    ranges: list[tuple[int, list[str]]] = []
    last_number, last_blank = 0, True
    for number, line in read_lines(path):
        last_number, last_blank = number, not line.strip()
        if line.startswith("#"):
            continue
        if not line.strip():
            if words:
                yield words, ranges
            words, ranges = [], []
            continue
        fields = line.split("\t")
        if len(fields) != 10:
            raise InputError(path, number, f"expected 10 CoNLL-U columns, found {len(fields)}")
        if "." in fields[0]:
            continue
        if "-" in fields[0]:
            first, _, last = fields[0].partition("-")
            if not (first.isdigit() and last.isdigit() and int(first) <= int(last)):
                raise InputError(path, number, f"bad multiword-token range {fields[0]!r}")
            ranges.append((number, fields))
            continue
        if not fields[0].isdigit():
            raise InputError(path, number, f"bad word index {fields[0]!r}")
        words.append((number, fields))
    if not last_blank:
        raise InputError(
            path,
            last_number,
            "the file ends without the blank line that closes every CoNLL-U sentence: "
            "it was cut short after this line",
        )


# ud-conversion-tools' conllu_to_conll.py (XTREME's third_party copy): the UPOS that heads a
# multiword token's words when several are equally high in the tree, best first, per language
# of the file's name (lang_treebank-ud-split.conllu); Spanish, French and Italian have their own
HEAD_UPOS_PRECEDENCE = {
    "default": "VERB NOUN PROPN PRON ADJ NUM ADV INTJ AUX ADP DET PART CCONJ SCONJ X PUNCT".split(),
    "es": "VERB AUX PRON ADP DET".split(),
    "fr": "VERB AUX PRON NOUN ADJ ADV ADP DET PART SCONJ CONJ".split(),
    "it": "VERB AUX ADV PRON ADP DET INTJ".split(),
}


def xtreme_fused_words(
    path: Path, words: list[tuple[int, list[str]]], ranges: list[tuple[int, list[str]]]
) -> list[tuple[int, str, str]] | None:
    """One sentence as XTREME's download_data.sh converts it: conllu_to_conll.py
    --replace_subtokens_with_fused_forms, then utils_preprocess.udpos_preprocess.

    A multiword token's words become one: the word with the fewest ancestors in the sentence's
    graph (heads and enhanced dependencies alike) or, several being as high, the one whose UPOS
    comes first in :data:`HEAD_UPOS_PRECEDENCE` (the first of them on a tie), takes the fused
    form and keeps its UPOS; the others are dropped. Returns (line, form, UPOS) per word, or
    None for a sentence udpos_preprocess leaves out: forms all ``_``, or all but one. Forms lose
    zero-width non-joiners and spaces, as udpos_preprocess writes them.
    (A tie between UPOS tags missing from the list stops XTREME's tool; here they rank last.)
    """
    language = path.name.split("_")[0]
    precedence = HEAD_UPOS_PRECEDENCE.get(language, HEAD_UPOS_PRECEDENCE["default"])
    rank = {tag: r for r, tag in enumerate(precedence)}
    parents: dict[Any, set] = {}
    for _, fields in words:
        heads = parents.setdefault(int(fields[0]), set())
        heads.add(int(fields[6]) if fields[6].isdigit() else fields[6])
        for relation in fields[8].split("|") if fields[8] != "_" else []:
            head = relation.split(":")[0]
            if head.isdigit():
                heads.add(int(head))
    upos = {int(fields[0]): fields[3] for _, fields in words}
    replaced: dict[int, str] = {}
    dropped: set[int] = set()
    for number, fields in sorted(ranges, key=lambda r: int(r[1][0].split("-")[0])):
        first, last = (int(i) for i in fields[0].split("-"))
        span = list(range(first, last + 1))
        if any(i not in upos for i in span):
            raise InputError(path, number, f"multiword token {fields[0]} covers a missing word")
        depth = [len(_ancestors(parents, i)) for i in span]
        highest = [i for i, d in zip(span, depth, strict=True) if d == min(depth)]
        head = min(highest, key=lambda i: rank.get(upos[i], len(precedence)))
        replaced[head] = fields[1]
        dropped.update(set(span) - {head})
    kept = [
        (number, replaced.get(int(fields[0]), fields[1]).strip(), fields[3].strip())
        for number, fields in words
        if int(fields[0]) not in dropped
    ]
    empty = sum(form == "_" for _, form, _ in kept)
    if empty and empty >= len(kept) - 1:
        return None
    return [(n, "".join(form.replace("\u200c", "").split(" ")), tag) for n, form, tag in kept]


def _ancestors(parents: dict[Any, set], node: Any) -> set:
    """Every node from which ``node`` can be reached (networkx.ancestors of the graph)."""
    seen: set = set()
    stack = [node]
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    seen.discard(node)
    return seen


def count_empty_tokens(examples: Iterable[dict[str, Any]]) -> int:
    """How many words of tagged examples have no text (kept; see :func:`read_token_tag_tsv`)."""
    return sum(token == "" for example in examples for token in example["tokens"])


def read_tagging(paths: list[Path], task: Task) -> list[dict[str, Any]]:
    """Read one or more files of a tagging split (UD languages with several treebanks are
    concatenated, as XTREME does); the layout follows from each file's name."""
    examples: list[dict[str, Any]] = []
    for path in paths:
        prefix = f"{path.name}:" if len(paths) > 1 else ""
        if path.suffix == ".conllu":
            fused = task.options.conllu_multiword == "fused"
            examples += read_conllu(path, task, prefix, fused_forms=fused)
        elif path.suffix == ".tsv":
            examples += read_token_tag_tsv(path, task, prefix)
        else:
            examples += [{**e, "id": prefix + e["id"]} for e in read_conll_columns(path, task)]
    return examples


def tagging_examples_from_hub(dataset: Any, task: Task) -> list[dict[str, Any]]:
    """Map a hub tagging split (``tokens`` and a sequence of ``ClassLabel`` tags) into
    ``id, tokens, tags``; tag ids go through the dataset's own label names."""
    names = dataset.features[task.options.hub_tag_column].feature.names
    unknown = sorted(set(names) - set(task.labels))
    if unknown:
        raise MteError(
            f"{task.hub_id}: tag names {unknown} are not tags of {task.title} "
            f"({', '.join(task.labels)})"
        )
    examples = []
    for index, row in enumerate(dataset):
        tags = [names[i] for i in row[task.options.hub_tag_column]]
        if len(tags) != len(row["tokens"]):
            raise MteError(
                f"{task.hub_id}: row {index} has {len(row['tokens'])} tokens but {len(tags)} tags"
            )
        example_id = str(row["id"]) if "id" in row else str(index + 1)
        examples.append({"id": example_id, "tokens": list(row["tokens"]), "tags": tags})
    return examples
