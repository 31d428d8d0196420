"""The files of an XTREME or XTREME-R leaderboard submission, read as the authors' evaluate.py
reads them (google-research/xtreme, README "Leaderboard Submission"; `mock_test_data/` shows
each kind), and what a family's score of one such file is.

evaluate.py's readers: ``read_label`` (one value a line, each line stripped: labels, Tatoeba's
indices, BUCC's tab-separated pairs), ``read_tag`` (one tag a line, each sentence ended by an
empty line; a last sentence without one still counts), ``read_squad`` (a JSON object; a file
with ``data`` is SQuAD's layout) and ``read_xcopa`` (JSON Lines, each line's ``label``). The
readers here take the same bytes to the same values, and name the file and line of anything
that is not of the format.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mte.errors import InputError, IntegrityError
from mte.stats.metrics import SufficientStatistics


@dataclass(frozen=True)
class SubmissionScore:
    """One test language of a submission scored as evaluate.py scores it: ``metrics`` by
    evaluate.py's names, in percent as it prints them; ``rows`` the per-example statistics of
    ``statistics`` behind them (None where the metric has none: BUCC), ``sources`` the
    statistics' metric each of evaluate.py's names is (``f1`` -> ``seqeval_f1``)."""

    metrics: dict[str, float]
    n: int
    statistics: SufficientStatistics | None = None
    rows: np.ndarray | None = None
    sources: dict[str, str] = field(default_factory=dict)


def _text_lines(path: str | Path) -> list[str]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(path, None, "no such file") from None
    except UnicodeDecodeError as err:
        raise InputError(path, None, f"not UTF-8 ({err.reason} at byte {err.start})") from None
    if not text:
        return []
    # Python's file iteration, which evaluate.py uses, splits at "\n" only
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def read_values(path: str | Path) -> list[str]:
    """evaluate.py's ``read_label``: every line, stripped (an empty line is a value too)."""
    return [line.strip() for line in _text_lines(path)]


def read_tagged(path: str | Path) -> list[list[str]]:
    """evaluate.py's ``read_tag``: sentences of one tag a line, each ended by an empty line."""
    sentences, sentence = [], []
    for line in _text_lines(path):
        line = line.strip()
        if line:
            sentence.append(line)
        else:
            sentences.append(sentence)
            sentence = []
    if sentence:
        sentences.append(sentence)
    return sentences


def read_json_object(path: str | Path) -> Any:
    """evaluate.py's ``read_squad``: the file's JSON, its ``data`` where it has one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(path, None, "no such file") from None
    except json.JSONDecodeError as err:
        raise InputError(path, err.lineno, f"not JSON ({err.msg})") from None
    if isinstance(data, dict) and "data" in data:
        return data["data"]
    return data


def read_jsonl_labels(path: str | Path) -> list[Any]:
    """evaluate.py's ``read_xcopa``: each line a JSON object, its ``label``."""
    labels = []
    for number, line in enumerate(_text_lines(path), start=1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(path, number, f"not JSON ({err.msg})") from None
        if not isinstance(record, dict) or "label" not in record:
            raise InputError(path, number, "a line needs a 'label'")
        labels.append(record["label"])
    return labels


def same_count(labels: list, predictions: list, labels_path, predictions_path, what: str) -> None:
    """evaluate.py asserts one prediction per label for these tasks; so does the project."""
    if len(labels) != len(predictions):
        raise IntegrityError(
            f"{predictions_path}: {len(predictions)} {what}, but {labels_path} has "
            f"{len(labels)}: a submission's file must give one per test item, in its order"
        )


def same_keys(labels: dict, predictions: dict, labels_path, predictions_path) -> None:
    """Every labelled id predicted, and no other: evaluate.py scores a missing answer 0 and
    ignores an unknown id; the project scores no file that does not match its labels one to
    one (docs/submission.md)."""
    missing = [key for key in labels if key not in predictions]
    extra = [key for key in predictions if key not in labels]
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"{len(missing)} id(s) of {labels_path} not predicted: {missing[:5]}")
        if extra:
            parts.append(f"{len(extra)} predicted id(s) not in {labels_path}: {extra[:5]}")
        raise IntegrityError(f"{predictions_path}: " + "; ".join(parts))


def lines_text(values: list[Any]) -> str:
    """One value a line, as ``read_values`` reads them back."""
    return "".join(f"{value}\n" for value in values)


def json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def jsonl_text(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def accuracy_score(labels: list, predictions: list) -> SubmissionScore:
    """evaluate.py's ``accuracy``: the share of items whose prediction equals the label, with
    a (hit, 1) row per item behind its interval."""
    from mte.stats.metrics import Means, hit_rows

    rows = hit_rows([p == label for p, label in zip(predictions, labels, strict=True)])
    value = Means("accuracy").value("accuracy", rows) if len(rows) else 0.0
    return SubmissionScore(
        {"accuracy": 100 * value},
        len(labels),
        Means("accuracy"),
        rows,
        {"accuracy": "accuracy"},
    )
