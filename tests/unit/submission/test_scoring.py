"""mte-evaluate's scores of hand-written submission folders, each value worked out by hand from
evaluate.py's definitions (accuracy, seqeval F1, SQuAD/MLQA EM and F1, BUCC's pair F1, Mewsli-X's
MRR@20), its averages and groups, the intervals, the paired test, and the refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mte.commands.evaluate import main
from mte.errors import InputError, IntegrityError
from mte.submission.scoring import Statistics, evaluate_submission
from mte.submission.versions import leaderboard

STATS = Statistics(resamples=200, trials=500)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _squad(answers: dict[str, list[str]]) -> str:
    qas = [
        {"id": key, "question": "q", "answers": [{"text": t, "answer_start": 0} for t in texts]}
        for key, texts in answers.items()
    ]
    return json.dumps({"data": [{"title": "", "paragraphs": [{"context": "c", "qas": qas}]}]})


LABELS = {
    "xnli/test-de.tsv": "entailment\nneutral\ncontradiction\nneutral\n",
    "xnli/test-fr.tsv": "entailment\nentailment\n",
    # two sentences: PER (0-1) and LOC (3); ORG (0)
    "panx/test-de.tsv": "B-PER\nI-PER\nO\nB-LOC\n\nB-ORG\nO\n\n",
    "mlqa/test-de.json": _squad({"a": ["die Katze"], "b": ["zwei Hunde", "2 Hunde"]}),
    "bucc2018/test-de.tsv": "de-1\ten-1\nde-2\ten-2\nde-3\ten-3\nde-4\ten-4\n",
    "tatoeba/test-de.tsv": "0\n1\n2\n3\n4\n",
    "mewslix/test-de.json": json.dumps({"m1": ["Q1"], "m2": ["Q2"], "m3": ["Q3"]}),
}
PREDICTIONS = {
    "xnli/test-de.tsv": "entailment\nneutral\nneutral\nneutral\n",  # 3 of 4
    "xnli/test-fr.tsv": "entailment\ncontradiction\n",  # 1 of 2
    # PER right, LOC predicted as ORG, ORG missed, one extra MISC: 1 right, 3 predicted, 3 gold
    "panx/test-de.tsv": "B-PER\nI-PER\nO\nB-ORG\n\nO\nB-MISC\n\n",
    # "Katze" vs "die Katze": MLQA's German normalisation drops "die": EM 1, F1 1; "zwei Hunde
    # bellen" against "zwei Hunde": EM 0, F1 2*(2/3*1)/(2/3+1) = 0.8
    "mlqa/test-de.json": json.dumps({"a": "Katze", "b": "zwei Hunde bellen"}),
    # 2 right of 3 found; 4 gold
    "bucc2018/test-de.tsv": "de-1\ten-1\nde-2\ten-3\nde-3\ten-3\n",
    "tatoeba/test-de.tsv": "0\n1\n4\n3\n2\n",  # 3 of 5
    # ranks 1, 2, none: (1 + 1/2 + 0) / 3
    "mewslix/test-de.json": json.dumps({"m1": ["Q1", "Q9"], "m2": ["Q8", "Q2"], "m3": ["Q7"]}),
}


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    return _write(tmp_path / "predictions", PREDICTIONS), _write(tmp_path / "labels", LABELS)


def _evaluate(folders, board="xtreme", **options):
    predictions, labels = folders
    return evaluate_submission(
        predictions, labels, leaderboard(board), STATS, partial=True, **options
    )


def test_every_metric_is_the_hand_worked_value(folders) -> None:
    scores = _evaluate(folders)["scores"]
    assert scores["xnli"]["accuracy"] == {"de": 75.0, "fr": 50.0}
    assert scores["xnli"]["avg_accuracy"] == 62.5
    assert scores["panx"]["f1"]["de"] == pytest.approx(100 / 3)
    assert scores["panx"]["precision"]["de"] == pytest.approx(100 / 3)
    assert scores["mlqa"]["exact_match"]["de"] == pytest.approx(50.0)
    assert scores["mlqa"]["f1"]["de"] == pytest.approx(90.0)
    assert scores["mlqa"]["avg_metric"] == pytest.approx(70.0)  # (EM + F1) / 2
    precision, recall = 2 / 3, 2 / 4
    bucc_f1 = 2 * precision * recall / (precision + recall)
    assert scores["bucc2018"]["f1"]["de"] == pytest.approx(100 * bucc_f1)
    assert scores["bucc2018"]["recall"]["de"] == pytest.approx(50.0)
    assert scores["tatoeba"]["accuracy"]["de"] == pytest.approx(60.0)


def test_groups_need_all_their_tasks(folders) -> None:
    scores = _evaluate(folders)["scores"]
    # retrieval: BUCC and Tatoeba both there; classification lacks PAWS-X; no all_task
    assert scores["retrieval"] == pytest.approx(
        (100 * (2 * (2 / 3) * 0.5 / (2 / 3 + 0.5)) + 60) / 2
    )
    assert "classification" not in scores and "all_task" not in scores


def test_mewslix_is_the_mean_reciprocal_rank_at_20(folders) -> None:
    scores = _evaluate(folders, board="xtreme-r")["scores"]
    assert scores["mewslix"]["map@20"]["de"] == pytest.approx(100 * 1.5 / 3)


def test_intervals_bracket_the_scores_and_bucc_has_none(folders) -> None:
    report = _evaluate(folders)
    spans = report["intervals"]
    low, high = spans["xnli"]["avg_metric"]
    assert low <= 62.5 <= high and low < high
    assert spans["bucc2018"]["avg_metric"] is None
    assert spans["retrieval"] is None  # BUCC's F1 has no per-example statistics


def test_a_submission_against_itself_differs_by_nothing(folders) -> None:
    predictions, labels = folders
    report = _evaluate(folders, against=predictions)
    test = report["against"]["tests"]["xnli"]["avg_metric"]
    assert test == {"difference": 0.0, "p_value": 1.0}


def test_a_paired_test_sees_a_better_submission(folders, tmp_path: Path) -> None:
    better = _write(
        tmp_path / "better", {**PREDICTIONS, "xnli/test-de.tsv": LABELS["xnli/test-de.tsv"]}
    )
    report = _evaluate(folders, against=better)
    test = report["against"]["tests"]["xnli"]
    # de: 75 against 100, fr equal: the average is 12.5 points lower
    assert test["avg_metric"]["difference"] == pytest.approx(-12.5)
    assert test["languages"]["de"]["difference"] == pytest.approx(-25.0)
    assert 0 < test["avg_metric"]["p_value"] <= 1


def test_a_missing_file_stops_as_evaluate_py_does(folders) -> None:
    predictions, labels = folders
    with pytest.raises(InputError, match="xnli/test-en.tsv: is not available"):
        evaluate_submission(predictions, labels, leaderboard("xtreme"), STATS)


def test_answers_must_match_the_labels_one_to_one(folders) -> None:
    predictions, _ = folders
    (predictions / "mlqa" / "test-de.json").write_text(json.dumps({"a": "Katze"}))
    with pytest.raises(IntegrityError, match="1 id\\(s\\) of .* not predicted: \\['b'\\]"):
        _evaluate(folders)


def test_a_tag_file_of_other_sentence_lengths_is_refused(folders) -> None:
    predictions, _ = folders
    (predictions / "panx" / "test-de.tsv").write_text("B-PER\nO\n\nO\nO\n\n")
    with pytest.raises(IntegrityError, match="sentence 1 has 2 tags, but 4"):
        _evaluate(folders)


def test_the_command_prints_and_writes_the_report(folders, tmp_path: Path, capsys) -> None:
    predictions, labels = folders
    output = tmp_path / "report.json"
    options = ["--resamples", "100", "--trials", "200", "--against", str(predictions)]
    code = main([str(predictions), str(labels), "--partial", "--output", str(output), *options])
    assert code == 0
    printed = capsys.readouterr().out
    assert "====== xnli ======" in printed and "accuracy: 62.50 [" in printed
    assert json.loads(output.read_text())["scores"]["xnli"]["avg_metric"] == 62.5
    assert main([str(predictions), str(labels), "--output", str(output)]) == 1
