"""Extractive-QA readers: SQuAD v1 JSON (SQuAD, XQuAD, MLQA, TyDiQA-GoldP) and the hub's
SQuAD schema, into ``id, context, question, answers{text, answer_start}``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mte.errors import InputError, MteError


def _check_answers(path: str | Path, where: str, context: str, answers: dict[str, list]) -> None:
    """Every gold answer_start must point at its answer text in the context."""
    for text, start in zip(answers["text"], answers["answer_start"], strict=True):
        if not isinstance(start, int) or context[start : start + len(text)] != text:
            found = context[start : start + len(text)] if isinstance(start, int) else start
            raise InputError(
                path,
                None,
                f"{where}: answer {text!r} does not start at {start} (found {found!r})",
            )


def read_squad_json(path: str | Path) -> list[dict[str, Any]]:
    """A SQuAD v1 JSON file: ``{"data": [{"paragraphs": [{"context", "qas": [{"id",
    "question", "answers": [{"text", "answer_start"}]}]}]}]}``."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, None, "file not found")
    try:
        document = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as err:
        raise InputError(path, err.lineno, f"not valid JSON: {err.msg}") from err
    except UnicodeDecodeError as err:
        raise InputError(path, None, f"not valid UTF-8 (byte {err.start})") from err
    if not isinstance(document, dict) or not isinstance(document.get("data"), list):
        raise InputError(path, None, "no 'data' list: not a SQuAD-format file")
    examples = []
    for a, article in enumerate(document["data"]):
        for p, paragraph in enumerate(article.get("paragraphs", [])):
            where = f"data[{a}].paragraphs[{p}]"
            try:
                context = paragraph["context"]
                questions = paragraph["qas"]
            except (KeyError, TypeError) as err:
                raise InputError(path, None, f"{where}: missing {err}") from None
            for q, qa in enumerate(questions):
                here = f"{where}.qas[{q}]"
                try:
                    answers = {
                        "text": [answer["text"] for answer in qa["answers"]],
                        "answer_start": [answer["answer_start"] for answer in qa["answers"]],
                    }
                    example = {
                        "id": str(qa["id"]),
                        "context": context,
                        "question": qa["question"],
                        "answers": answers,
                    }
                except (KeyError, TypeError) as err:
                    raise InputError(path, None, f"{here}: missing {err}") from None
                _check_answers(path, f"{here} (id {example['id']})", context, answers)
                examples.append(example)
    if not examples:
        raise InputError(path, None, "no questions in file")
    return examples


def qa_examples_from_hub(dataset: Any, name: str, id_prefix: str = "") -> list[dict[str, Any]]:
    """Map a hub split of the SQuAD schema (``id, context, question, answers{text,
    answer_start}``: rajpurkar/squad, google/xquad, google/xtreme).

    With ``id_prefix``, only the rows whose id starts with it are kept (a config that mixes
    languages, such as google/xtreme's TyDiQA-GoldP).
    """
    examples = []
    for index, row in enumerate(dataset):
        if id_prefix and not str(row["id"]).startswith(id_prefix):
            continue
        answers = {
            "text": list(row["answers"]["text"]),
            "answer_start": [int(s) for s in row["answers"]["answer_start"]],
        }
        context = row["context"]
        for text, start in zip(answers["text"], answers["answer_start"], strict=True):
            if context[start : start + len(text)] != text:
                raise MteError(f"{name}: row {index} answer {text!r} does not start at {start}")
        examples.append(
            {
                "id": str(row["id"]),
                "context": context,
                "question": row["question"],
                "answers": answers,
            }
        )
    if not examples:
        where = f" with an id starting '{id_prefix}'" if id_prefix else ""
        raise MteError(f"{name}: no questions{where}")
    return examples
