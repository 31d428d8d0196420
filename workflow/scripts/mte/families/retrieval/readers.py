"""Readers of the retrieval tasks: Tatoeba sentence pairs and BUCC 2018 mining sets.

Tatoeba becomes ``id, src, tgt`` (the foreign sentence and its English translation, one pair per
line of the two files);
BUCC becomes records with a ``side``: ``xx`` and ``en`` sentences (``id, side, text``) and
``gold`` pairs (``id, side, source, target``: an ``xx`` id and the ``en`` id of its translation).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import InputError, MteError
from mte.text import read_lines, some_examples

# the files read with a Tatoeba or BUCC file: the same name with these last suffixes
TATOEBA_SIBLINGS = ("eng",)
BUCC_SIBLINGS = ("en", "gold")


def siblings(path: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """``path`` with each of ``suffixes`` as its last suffix."""
    return [path.with_suffix(f".{suffix}") for suffix in suffixes]


def _sibling(path: Path, suffix: str) -> Path:
    """``tatoeba.deu-eng.deu`` -> ``tatoeba.deu-eng.eng``: another last suffix, same name."""
    (sibling,) = siblings(path, (suffix,))
    if not sibling.is_file():
        raise InputError(sibling, None, f"file not found (the .{suffix} side of {path.name})")
    return sibling


def read_tatoeba(path: str | Path) -> list[dict[str, Any]]:
    """``tatoeba.XXX-eng.XXX`` and its ``.eng`` sibling, one sentence a line, aligned by line."""
    path = Path(path)
    (english_suffix,) = TATOEBA_SIBLINGS
    english_path = _sibling(path, english_suffix)
    foreign = [line for _, line in read_lines(path)]
    english = [line for _, line in read_lines(english_path)]
    if len(foreign) != len(english):
        raise InputError(
            path,
            None,
            f"{len(foreign)} lines, but {english_path.name} has {len(english)}: the two sides "
            "must be aligned line by line",
        )
    if not foreign:
        raise InputError(path, None, "no sentences in file")
    for number, (text, eng) in enumerate(zip(foreign, english, strict=True), start=1):
        if not text.strip() or not eng.strip():
            which = path if not text.strip() else english_path
            raise InputError(which, number, "empty sentence")
    return [
        {"id": str(number), "src": text, "tgt": eng}
        for number, (text, eng) in enumerate(zip(foreign, english, strict=True), start=1)
    ]


def _read_id_sentences(path: Path, side: str) -> list[dict[str, Any]]:
    records, seen = [], set()
    for number, line in read_lines(path):
        sentence_id, tab, text = line.partition("\t")
        if not tab or not sentence_id:
            raise InputError(path, number, "expected 'id TAB sentence'")
        if sentence_id in seen:
            raise InputError(path, number, f"id '{sentence_id}' occurs twice")
        seen.add(sentence_id)
        records.append({"id": sentence_id, "side": side, "text": text})
    return some_examples(records, path, "sentences")


def read_bucc(path: str | Path) -> list[dict[str, Any]]:
    """``xx-en.{split}.xx`` with its ``.en`` and ``.gold`` siblings (BUCC 2018 layout:
    ``id TAB sentence``; gold ``xx-id TAB en-id``). Every gold id must name a sentence."""
    path = Path(path)
    english_path, gold_path = (_sibling(path, suffix) for suffix in BUCC_SIBLINGS)
    foreign = _read_id_sentences(path, "xx")
    english = _read_id_sentences(english_path, "en")
    foreign_ids, english_ids = {r["id"] for r in foreign}, {r["id"] for r in english}
    gold = []
    for number, line in read_lines(gold_path):
        fields = line.split("\t")
        if len(fields) != 2:
            raise InputError(gold_path, number, "expected 'xx-id TAB en-id'")
        source, target = fields
        if source not in foreign_ids:
            raise InputError(gold_path, number, f"'{source}' is not an id of {path.name}")
        if target not in english_ids:
            raise InputError(gold_path, number, f"'{target}' is not an id of {english_path.name}")
        gold.append({"id": f"gold-{number}", "side": "gold", "source": source, "target": target})
    if not gold:
        raise InputError(gold_path, None, "no gold pairs in file")
    return [*foreign, *english, *gold]


def _english_column(row: dict[str, Any], name: str, index: int) -> tuple[str, str]:
    """Which of a hub row's ``source_*``/``target_*`` columns is English, by its ``*_lang``."""
    if row["target_lang"].startswith("en"):
        return row["source_sentence"], row["target_sentence"]
    if row["source_lang"].startswith("en"):
        return row["target_sentence"], row["source_sentence"]
    raise MteError(
        f"{name}: row {index} has no English side ({row['source_lang']}, {row['target_lang']})"
    )


def tatoeba_from_hub(dataset: Any, name: str) -> list[dict[str, Any]]:
    """google/xtreme ``tatoeba.xxx`` (``source_sentence, target_sentence, source_lang,
    target_lang``) into ``id, src, tgt``."""
    examples = []
    for index, row in enumerate(dataset):
        text, english = _english_column(row, name, index)
        examples.append({"id": str(index + 1), "src": text, "tgt": english})
    if not examples:
        raise MteError(f"{name}: no sentence pairs")
    return examples


def bucc_from_hub(dataset: Any, name: str, language: str) -> list[dict[str, Any]]:
    """google/xtreme ``bucc18.xx``: the hub holds only the gold pairs, not the monolingual
    sets around them, so mining among them is easier than the real task (see docs/tasks.md)."""
    records: list[dict[str, Any]] = []
    gold = []
    for index, row in enumerate(dataset):
        text, english = _english_column(row, name, index)
        source, target = f"{language}-{index + 1:09d}", f"en-{index + 1:09d}"
        records.append({"id": source, "side": "xx", "text": text})
        records.append({"id": target, "side": "en", "text": english})
        gold.append({"id": f"gold-{index + 1}", "side": "gold", "source": source, "target": target})
    if not gold:
        raise MteError(f"{name}: no sentence pairs")
    return [*records, *gold]
