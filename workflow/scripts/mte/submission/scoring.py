"""A submission folder scored as the authors' evaluate.py scores it, with the project's
statistics beside every score: the per-language metrics, each task's averages and its
``avg_metric`` (QA: the mean of EM and F1), the groups and ``all_task`` where all their tasks
are there; a percentile bootstrap interval of each (languages resampled apart, the same
resamples for every metric of a language and for both submissions), and an approximate
randomization test of each against a second submission scored on the same labels."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mte.errors import InputError
from mte.families._leaderboard_files import SubmissionScore
from mte.registry import family_of, get_task
from mte.stats.statistics import (
    bootstrap_replicates,
    paired_randomization_weighted,
    percentile_interval,
    resample_seed,
)
from mte.submission.versions import Leaderboard


@dataclass(frozen=True)
class Statistics:
    resamples: int = 1000
    confidence: float = 0.95
    seed: int = 12345
    trials: int = 10000


@dataclass
class TaskScores:
    """One task of a submission: per language its score."""

    task: str
    languages: dict[str, SubmissionScore] = field(default_factory=dict)

    def metric_names(self) -> list[str]:
        return list(next(iter(self.languages.values())).metrics)


def _folders(path: Path) -> set[str]:
    if not path.is_dir():
        raise InputError(path, None, "not a folder")
    return {p.name for p in path.iterdir() if p.is_dir()}


def score_folder(
    predictions: Path, labels: Path, board: Leaderboard, partial: bool = False
) -> tuple[dict[str, TaskScores], list[str]]:
    """Every task whose folder both hold, every language of the leaderboard's list (evaluate.py
    stops at the first missing file; ``partial`` scores the languages there and lists the
    others). Returns the scores and the missing files."""
    predictions, labels = Path(predictions), Path(labels)
    both = _folders(predictions) & _folders(labels)
    scored, missing = {}, []
    for task_name in board.tasks:
        folder = board.folders[task_name]
        if folder not in both:
            continue
        task = get_task(task_name)
        scores = TaskScores(task_name)
        for language in board.languages[task_name]:
            name = board.file_name(task_name, language)
            files = (predictions / folder / name, labels / folder / name)
            absent = [str(f) for f in files if not f.is_file()]
            if absent:
                if not partial:
                    raise InputError(absent[0], None, "is not available (evaluate.py needs it)")
                missing += absent
                continue
            scores.languages[language] = family_of(task).score_submission(
                task, files[1], files[0], language
            )
        if scores.languages:
            scored[task_name] = scores
    return scored, missing


def _average_weights(board: Leaderboard, task: str, scores: TaskScores) -> dict[str, float]:
    """evaluate.py's avg_metric as a weighted sum of the metrics of one language: QA's mean of
    EM and F1, else F1, accuracy or mAP@20."""
    names = scores.metric_names()
    if any(task in tasks for group, tasks in board.groups if group == "qa"):
        return {"exact_match": 0.5, "f1": 0.5}
    for name in ("f1", "accuracy", "map@20"):
        if name in names:
            return {name: 1.0}
    raise ValueError(f"{task}: no metric evaluate.py averages among {names}")


def detailed_scores(board: Leaderboard, scored: dict[str, TaskScores]) -> dict[str, dict]:
    """evaluate.py's ``detailed_scores``: per task per metric per language, ``avg_<metric>``
    and ``avg_metric``."""
    detailed = {}
    for task, scores in scored.items():
        result: dict[str, Any] = {}
        for name in scores.metric_names():
            result[name] = {lang: s.metrics[name] for lang, s in scores.languages.items()}
        for name in scores.metric_names():
            values = list(result[name].values())
            result[f"avg_{name}"] = sum(values) / len(values)
        weights = _average_weights(board, task, scores)
        result["avg_metric"] = sum(w * result[f"avg_{name}"] for name, w in weights.items())
        detailed[board.folders[task]] = result
    return detailed


def group_members(board: Leaderboard, present: Any) -> dict[str, list[str]]:
    """evaluate.py's ``overall_scores`` keys and their task folders: ``all_task`` where every
    task of the leaderboard is ``present`` (folders), and each group whose tasks all are."""
    folders = [board.folders[t] for t in board.tasks]
    members = {"all_task": folders} if set(folders) == set(present) else {}
    for group, tasks in board.groups:
        names = [board.folders[t] for t in tasks if t in board.folders]
        if names and all(n in present for n in names):
            members[group] = names
    return members


def group_scores(board: Leaderboard, detailed: dict[str, dict]) -> dict[str, float]:
    """evaluate.py's ``overall_scores``: the mean ``avg_metric`` of each group's tasks."""
    return {
        group: sum(detailed[n]["avg_metric"] for n in names) / len(names)
        for group, names in group_members(board, detailed).items()
    }


def _replicates(score: SubmissionScore, name: str, language: str, stats: Statistics):
    if score.statistics is None or score.rows is None or not len(score.rows):
        return None
    seed = resample_seed(False, stats.seed, language)
    source = score.sources[name]
    return 100 * bootstrap_replicates(score.statistics, source, score.rows, stats.resamples, seed)


def intervals(
    board: Leaderboard, scored: dict[str, TaskScores], stats: Statistics
) -> dict[str, Any]:
    """The bootstrap interval of every score: per language and metric, the averages over
    languages (each language resampled apart), ``avg_metric``, the groups and ``all_task``;
    None where a score has no per-example statistics (BUCC)."""
    result: dict[str, Any] = {}
    task_replicates: dict[str, np.ndarray | None] = {}
    for task, scores in scored.items():
        folder = board.folders[task]
        entry: dict[str, Any] = {}
        per_metric: dict[str, list] = {}
        for language, score in scores.languages.items():
            for name in score.metrics:
                drawn = _replicates(score, name, language, stats)
                per_metric.setdefault(name, []).append(drawn)
                entry.setdefault(name, {})[language] = _interval(drawn, stats)
        averaged = {
            name: (None if any(d is None for d in drawn) else np.mean(drawn, axis=0))
            for name, drawn in per_metric.items()
        }
        for name, drawn in averaged.items():
            entry[f"avg_{name}"] = _interval(drawn, stats)
        weights = _average_weights(board, task, scores)
        if all(averaged.get(name) is not None for name in weights):
            task_replicates[folder] = sum(w * averaged[name] for name, w in weights.items())
        else:
            task_replicates[folder] = None
        entry["avg_metric"] = _interval(task_replicates[folder], stats)
        result[folder] = entry
    for group, names in group_members(board, task_replicates).items():
        drawn = [task_replicates[n] for n in names]
        mean = None if any(d is None for d in drawn) else sum(drawn) / len(drawn)
        result[group] = _interval(mean, stats)
    return result


def _interval(replicates, stats: Statistics) -> list[float] | None:
    if replicates is None:
        return None
    return list(percentile_interval(replicates, stats.confidence))


def paired_tests(
    board: Leaderboard,
    scored: dict[str, TaskScores],
    other: dict[str, TaskScores],
    stats: Statistics,
) -> dict[str, Any]:
    """The approximate randomization test of this submission against ``other`` (scored on the
    same labels): per task and language of the averaged metric, per task of ``avg_metric``, and
    of each group and ``all_task`` both have; the difference in points and the p-value; a
    p-value of None where a score has no per-example statistics (BUCC)."""
    result: dict[str, Any] = {}
    # per task: each language's test set and difference, weighted as avg_metric weighs it
    per_task: dict[str, list[tuple[Any, float]]] = {}
    for task, scores in scored.items():
        if task not in other:
            continue
        folder = board.folders[task]
        weights = _average_weights(board, task, scores)
        languages = [lang for lang in scores.languages if lang in other[task].languages]
        parts, by_language = [], {}
        for language in languages:
            a, b = scores.languages[language], other[task].languages[language]
            difference = sum(w * (a.metrics[n] - b.metrics[n]) for n, w in weights.items())
            test_set = None
            if a.statistics is not None and a.rows is not None and b.rows is not None:
                source_weights = {a.sources[n]: w for n, w in weights.items()}
                test_set = (a.statistics, source_weights, a.rows, b.rows)
            by_language[language] = _test([(test_set, difference)], stats)
            parts.append((_scaled(test_set, 1 / len(languages)), difference / len(languages)))
        per_task[folder] = parts
        result[folder] = {"languages": by_language, "avg_metric": _test(parts, stats)}
    for group, names in group_members(board, per_task).items():
        result[group] = _test(
            [(_scaled(s, 1 / len(names)), d / len(names)) for n in names for s, d in per_task[n]],
            stats,
        )
    return result


def _scaled(test_set, factor: float):
    if test_set is None:
        return None
    kind, weights, a, b = test_set
    return (kind, {m: w * factor for m, w in weights.items()}, a, b)


def _test(parts: list[tuple[Any, float]], stats: Statistics) -> dict[str, Any]:
    """The observed difference (points: the sum of ``parts``' differences) and, where every
    test set has statistics, the p-value of the randomization test over them."""
    difference = sum(d for _, d in parts)
    if not parts or any(s is None for s, _ in parts):
        return {"difference": difference, "p_value": None}
    tested = paired_randomization_weighted([s for s, _ in parts], stats.trials, stats.seed)
    return {"difference": difference, "p_value": tested["p_value"]}


def evaluate_submission(
    predictions: Path,
    labels: Path,
    board: Leaderboard,
    stats: Statistics,
    against: Path | None = None,
    partial: bool = False,
) -> dict[str, Any]:
    """The report mte-evaluate prints and writes: evaluate.py's output (``scores``: the
    groups, then each task's detailed scores), the intervals, the missing files under
    ``partial``, and the paired tests against ``against``."""
    scored, missing = score_folder(predictions, labels, board, partial)
    if not scored:
        raise InputError(
            predictions, None, f"no task folder of the {board.name} leaderboard in both folders"
        )
    detailed = detailed_scores(board, scored)
    report: dict[str, Any] = {
        "xtreme_version": board.name,
        "predictions": str(predictions),
        "labels": str(labels),
        "scores": {**group_scores(board, detailed), **detailed},
        "intervals": intervals(board, scored, stats),
        "statistics": {
            "resamples": stats.resamples,
            "confidence": stats.confidence,
            "seed": stats.seed,
        },
        "missing": missing,
    }
    if against is not None:
        other, _ = score_folder(against, labels, board, partial)
        report["against"] = {
            "predictions": str(against),
            "trials": stats.trials,
            "tests": paired_tests(board, scored, other, stats),
        }
    return report
