"""A files source's folder before the checks (mte.config.local_files): relative paths below
``files_root``, and the languages a ``missing_files: skip`` folder lacks, left out and named."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from mte.config.checks import check_configuration
from mte.config.local_files import root_relative_paths
from mte.config.plan import build_plan
from mte.errors import ConfigError
from mte.steps.summary import left_out_notes

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schema.yaml"
TAGGED = "Berlin\tB-LOC\nliegt\tO\n\n"


def _panx_folder(root: Path, tests: tuple[str, ...] = ("en", "de")) -> Path:
    """XTREME's download/panx layout: English train and dev, a test file per language."""
    folder = root / "download" / "panx"
    folder.mkdir(parents=True)
    for name in ("train-en.tsv", "dev-en.tsv", *(f"test-{lang}.tsv" for lang in tests)):
        (folder / name).write_text(TAGGED, encoding="utf-8")
    return folder


def _config(path: str, **panx) -> dict:
    return {
        "models": [{"name": "m", "source": "tiny"}],
        "tasks": {"panx": {"source": "files", "path": path, **panx}},
    }


def test_files_root_holds_every_relative_folder_and_leaves_absolute_ones(tmp_path: Path) -> None:
    config = {
        "files_root": str(tmp_path / "download"),
        "tasks": {
            "panx": {"source": "files", "path": "panx"},
            "udpos": {"source": "files", "path": "/elsewhere/udpos"},
            "xnli": {
                "source": "hub",
                "path": "ignored",
                "translations": {"source": "files", "path": "xnli-mt"},
            },
        },
    }
    root_relative_paths(config)
    tasks = config["tasks"]
    assert tasks["panx"]["path"] == str(tmp_path / "download" / "panx")
    assert tasks["udpos"]["path"] == "/elsewhere/udpos"
    # a hub task's own path means nothing; its translation files are a folder of the user's
    assert tasks["xnli"]["path"] == "ignored"
    assert tasks["xnli"]["translations"]["path"] == str(tmp_path / "download" / "xnli-mt")
    unchanged = {"tasks": {"panx": {"source": "files", "path": "panx"}}}
    root_relative_paths(unchanged)
    assert unchanged["tasks"]["panx"]["path"] == "panx"


def test_a_relative_folder_below_files_root_is_planned_from_there(tmp_path: Path) -> None:
    _panx_folder(tmp_path)
    config = {**_config("panx", languages=["en", "de"]), "files_root": str(tmp_path / "download")}
    check_configuration(config, SCHEMA)
    assert build_plan(config).task("panx").entry["path"] == str(tmp_path / "download" / "panx")


def test_a_missing_language_stops_the_run_unless_skipped(tmp_path: Path) -> None:
    folder = _panx_folder(tmp_path)
    asked = ["en", "th", "de", "sw"]
    with pytest.raises(ConfigError) as stopped:
        check_configuration(_config(str(folder), languages=asked), SCHEMA)
    assert stopped.value.key == "tasks.panx.path"
    assert "no test file for PAN-X (WikiANN) NER language 'th'" in str(stopped.value)
    assert str(folder / "test-th.tsv") in str(stopped.value)

    config = _config(str(folder), languages=asked, missing_files="skip")
    check_configuration(config, SCHEMA)
    planned = build_plan(config).task("panx")
    assert planned.languages == ("en", "de")
    assert dict(planned.left_out) == {
        "th": f"no test file in {folder} (looked for test-th.tsv)",
        "sw": f"no test file in {folder} (looked for test-sw.tsv)",
    }
    # the plan reads only the files that are there
    assert ("th", "test") not in planned.needed_splits


def test_the_default_set_under_skip_keeps_the_languages_the_folder_has(tmp_path: Path) -> None:
    folder = _panx_folder(tmp_path, tests=("en", "de", "ja"))
    config = _config(str(folder), missing_files="skip")
    check_configuration(config, SCHEMA)
    planned = build_plan(config).task("panx")
    assert sorted(planned.languages) == ["de", "en", "ja"]
    # XTREME's 40 PAN-X languages: the 37 others are named, none silently dropped
    assert len(planned.left_out) == 37 and "th" in planned.left_out


@pytest.mark.parametrize(
    ("change", "key", "message"),
    [
        # a language the task does not have is a mistake, not a file to leave out
        ({"languages": ["en", "xx"]}, "tasks.panx.languages", "xx"),
        # a folder with none of the languages asked for
        ({"languages": ["th", "sw"]}, "tasks.panx.path", "holds no test file of any"),
    ],
)
def test_skip_still_refuses_what_is_not_a_missing_language(
    tmp_path: Path, change: dict, key: str, message: str
) -> None:
    folder = _panx_folder(tmp_path)
    with pytest.raises(ConfigError) as stopped:
        check_configuration(_config(str(folder), missing_files="skip", **change), SCHEMA)
    assert stopped.value.key == key and message in str(stopped.value)


def test_skip_leaves_out_no_training_file_and_no_unlabelled_test_file(tmp_path: Path) -> None:
    folder = _panx_folder(tmp_path)
    (folder / "train-en.tsv").unlink()
    with pytest.raises(ConfigError, match="no train file"):
        check_configuration(_config(str(folder), missing_files="skip", languages=["en"]), SCHEMA)
    folder = _panx_folder(tmp_path / "other")
    # XTREME's processed test file without its tags: there, but not readable as gold
    (folder / "test-de.tsv").write_text("Berlin\nliegt\n\n", encoding="utf-8")
    config = _config(str(folder), missing_files="skip", languages=["en", "de"])
    with pytest.raises(ConfigError, match="has no labels"):
        check_configuration(copy.deepcopy(config), SCHEMA)


def test_the_note_names_each_language_left_out_and_why() -> None:
    notes = left_out_notes(
        {"panx": {"th": "no test file in /d/panx (looked for test-th.tsv)"}, "tatoeba": {}}
    )
    assert notes == [
        "Languages left out of this run, their files absent from the task's folder "
        "(missing_files: skip) - PAN-X (WikiANN) NER: th (no test file in /d/panx (looked for "
        "test-th.tsv))."
    ]
    assert left_out_notes({"panx": {}}) == []
