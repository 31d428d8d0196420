"""LAReQA's answer retrieval (Roy et al. 2020): its XQuAD-R (google-research-datasets/lareqa
``xquad-r/{lang}.json``), SQuAD v1.1 JSON whose paragraphs carry ``sentence_breaks``
(character spans of its sentences). As XTREME-R's ``third_party/utils_lareqa.py`` reads it: a
question's answer is the sentence whose span holds the answer's start (a question whose start
lies in no sentence is left out of the pool and the scores); a paragraph's sentences are
candidates once one of its questions is kept, each named ``{lang}_{paragraph number in the
file, from 1}_{sentence position}``; the answers of a question are the candidates of every
language whose sentence equals that language's answer sentence, in the paragraph of the
question with the same id (XQuAD-R's ids are shared across its 11 languages).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mte.errors import InputError, IntegrityError
from mte.io import read_json
from mte.stats.metrics import Means
from mte.stats.ranking import average_precision_at_k

# the cut-off of LAReQA's mAP (XTREME-R's third_party/evaluate_retrieval.py: k=20)
TOP_K = 20
# the longest question and answer (sentence and paragraph) in sub-tokens, as XTREME-R's
# scripts/train_lareqa.sh passes them to third_party/run_retrieval_qa.py
QUESTION_MAX_LENGTH = 96
ANSWER_MAX_LENGTH = 256


def read_xquad_r(path: str | Path, language: str) -> list[dict[str, Any]]:
    """One language's questions: ``id`` (shared across languages), ``question``,
    ``paragraph`` (its number in the file), ``context``, ``sentences`` (the paragraph's, in
    order) and ``answer_positions`` (the sentences equal to the answer's). Every question of
    the file is returned; ``answer_positions`` is empty where the answer's start lies in no
    sentence (such a question is left out of the pool and the scores, as utils_lareqa skips
    it)."""
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        raise InputError(path, 1, "not SQuAD JSON: no top-level 'data' list")
    questions: list[dict[str, Any]] = []
    paragraph_number = 0
    for article in data["data"]:
        for paragraph in article.get("paragraphs", []):
            paragraph_number += 1
            where = f"paragraph {paragraph_number}"
            context = paragraph.get("context")
            breaks = paragraph.get("sentence_breaks")
            if not isinstance(context, str) or not isinstance(breaks, list):
                raise InputError(path, 1, f"{where}: needs 'context' and 'sentence_breaks'")
            try:
                spans = [(int(start), int(end)) for start, end in breaks]
            except (TypeError, ValueError) as error:
                raise InputError(path, 1, f"{where}: bad sentence_breaks ({error})") from None
            sentences = [context[start:end] for start, end in spans]
            for qa in paragraph.get("qas", []):
                answers = qa.get("answers") or []
                if len(answers) != 1:
                    raise InputError(
                        path,
                        1,
                        f"{where}, question {qa.get('id')!r}: XQuAD-R has one answer per "
                        f"question, found {len(answers)}",
                    )
                start = int(answers[0]["answer_start"])
                sentence = next(
                    (context[a:b] for a, b in spans if a <= start < b),
                    None,
                )
                positions = [i for i, text in enumerate(sentences) if text == sentence]
                questions.append(
                    {
                        "id": str(qa["id"]),
                        "question": qa["question"],
                        "language": language,
                        "paragraph": paragraph_number,
                        "context": context,
                        "sentences": sentences,
                        "answer_positions": positions if sentence is not None else [],
                    }
                )
    return questions


def candidate_id(language: str, paragraph: int, position: int) -> str:
    """A candidate's name, as utils_lareqa's ``Candidate.uid``."""
    return f"{language}_{paragraph}_{position}"


def answer_pool(
    per_language: dict[str, list[dict[str, Any]]],
) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """The pool of every language (``per_language``: language -> its questions, in the
    pool's order) and each question id's answers in it: ``(candidates, answers)``; a
    candidate is ``id, language, sentence, context``. Questions without an answer sentence
    add nothing."""
    candidates: dict[str, dict[str, Any]] = {}
    answers: dict[str, list[str]] = {}
    for language, questions in per_language.items():
        for question in questions:
            if not question["answer_positions"]:
                continue
            for position, sentence in enumerate(question["sentences"]):
                uid = candidate_id(language, question["paragraph"], position)
                candidates.setdefault(
                    uid,
                    {
                        "id": uid,
                        "language": language,
                        "sentence": sentence,
                        "context": question["context"],
                    },
                )
            named = answers.setdefault(question["id"], [])
            for position in question["answer_positions"]:
                uid = candidate_id(language, question["paragraph"], position)
                if uid not in named:
                    named.append(uid)
    return list(candidates.values()), answers


def question_average_precisions(
    rankings: list[list[str]], answers: list[list[str]], k: int = TOP_K
) -> list[float]:
    """AP@k of each question: ``rankings[i]`` its retrieved candidate ids, best first,
    ``answers[i]`` the ids that answer it."""
    if len(rankings) != len(answers):
        raise ValueError(f"{len(rankings)} rankings for {len(answers)} questions")
    return [
        average_precision_at_k(set(relevant), ranking, k)
        for ranking, relevant in zip(rankings, answers, strict=True)
    ]


def answer_text(candidate: dict[str, Any]) -> str:
    """What the answer tower reads of a candidate: its sentence, then its paragraph, as one
    string without line breaks (XTREME-R's run_retrieval_qa.py)."""
    return (candidate["sentence"] + candidate["context"]).replace("\n", "")


def measure_answers(task, pairs: list, predictions_path: str | Path) -> dict[str, Any]:
    """mAP@20 of one question language for every layer choice (the first gives the headline
    figure); each question's AP is its per-example statistic. A question whose answer lies in
    no sentence has no answers in the pool and is left out, as utils_lareqa leaves it out."""
    layers = pairs[0][1].get("layers") or {}
    if not layers:
        raise IntegrityError(f"{predictions_path}: first record names no layers")
    kept = [(gold, prediction) for gold, prediction in pairs if prediction.get("answers")]
    if not kept:
        raise IntegrityError(f"{predictions_path}: no question has an answer in the pool")
    metric = task.primary_metric
    by_layer, first_rows = {}, None
    for name, index in layers.items():
        rankings = []
        for gold, prediction in kept:
            ranking = (prediction.get("rankings") or {}).get(name)
            if not isinstance(ranking, list):
                raise IntegrityError(
                    f"{predictions_path}: id {gold['id']!r} has no ranking at layer '{name}'"
                )
            rankings.append(ranking)
        values = question_average_precisions(rankings, [p["answers"] for _, p in kept])
        rows = Means(metric).rows(values, [1.0] * len(values))
        first_rows = rows if first_rows is None else first_rows
        by_layer[name] = {"layer": index, metric: Means(metric).value(metric, rows)}
    first = next(iter(by_layer.values()))
    return {
        "n": len(kept),
        "metrics": {metric: first[metric]},
        "layer": first["layer"],
        "by_layer": by_layer,
        "left_out": len(pairs) - len(kept),
        "example_stats": first_rows,
    }
