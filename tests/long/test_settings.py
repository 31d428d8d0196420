"""All six transfer settings for XNLI and PAN-X on the tiny model, translations given as files,
with bootstrap intervals, significance against the zero-shot row and the pseudo test analysis;
in the same run, CoNLL NER from its IOB1 Latin-1 columns and UD POS, zero-shot.

The data are the demo's parallel XNLI items (and tagged sentences written here): German items
stand in for the translations of English ones. They exercise the plumbing, not translation
quality."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from mte.registry import TASKS
from mte.steps.data import demo_dir
from tests.workflow.snakemake_runner import (
    interval_columns,
    job_counts,
    run_snakemake,
    tables_dir,
    variant_dir,
)
from tests.workflow.tiny_data import write_conll_folders, write_panx_folders

pytestmark = [pytest.mark.workflow, pytest.mark.long]

SETTINGS = [
    "zero-shot",
    "translate-train",
    "translate-train-all",
    "translate-test",
    "in-language",
    "multilingual",
]


def _lines(name: str) -> list[str]:
    return (demo_dir(TASKS["xnli"]) / name).read_text(encoding="utf-8").splitlines()


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _xnli_files(root: Path) -> None:
    test_en, test_de = _lines("test-en.tsv"), _lines("test-de.tsv")
    _write(root / "xnli/train-en.tsv", _lines("train-en.tsv"))
    _write(root / "xnli/dev-en.tsv", _lines("dev-en.tsv"))
    # German training and dev data for in-language / multilingual; the last 18 items test
    _write(root / "xnli/train-de.tsv", test_de[:24])
    _write(root / "xnli/dev-de.tsv", test_de[24:36])
    _write(root / "xnli/test-en.tsv", test_en[36:])
    _write(root / "xnli/test-de.tsv", test_de[36:])
    # "translations": German items for the English training set, the English originals of the
    # German test items, and a degraded copy (lower case) of them as the pseudo test set
    _write(root / "xnli-mt/translate-train/en-de-translated.tsv", test_de[:36])
    _write(root / "xnli-mt/translate-test/test-de-en-translated.tsv", test_en[36:])
    _write(
        root / "xnli-mt/pseudo-test/test-en-de-translated.tsv", [t.lower() for t in test_de[36:]]
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    workdir = tmp_path_factory.mktemp("settings")
    _xnli_files(workdir)
    write_panx_folders(workdir)
    write_conll_folders(workdir)
    small = {"epochs": 1, "batch_size": 8, "max_length": 32, "learning_rate": 1e-3}
    config = {
        "models": [{"name": "tiny", "source": "tiny"}],
        "settings": SETTINGS,
        "statistics": {"resamples": 200, "trials": 500},
        "tasks": {
            "xnli": {
                "source": "files",
                "path": str(workdir / "xnli"),
                "languages": ["en", "de"],
                "translations": {"path": str(workdir / "xnli-mt")},
                "pseudo_test": True,
                "hyperparameters": small,
            },
            "panx": {
                "source": "files",
                "path": str(workdir / "panx"),
                "languages": ["en", "de"],
                "translations": {"path": str(workdir / "panx-mt")},
                "hyperparameters": dict(small),
            },
            "conll": {
                "source": "files",
                "path": str(workdir / "conll"),
                "languages": ["en", "es"],
                "settings": ["zero-shot"],
                "hyperparameters": dict(small),
            },
            "udpos": {
                "source": "files",
                "path": str(workdir / "udpos"),
                "languages": ["en", "de"],
                "settings": ["zero-shot"],
                "hyperparameters": dict(small),
            },
        },
    }
    done = run_snakemake(workdir, config)
    assert done.returncode == 0, done.stderr[-4000:]
    return workdir, done


@pytest.mark.parametrize("task", ["xnli", "panx"])
def test_one_row_per_setting(run, task: str) -> None:
    workdir, _ = run
    table = pd.read_csv(tables_dir(workdir) / f"{task}.csv")
    assert list(table["setting"]) == SETTINGS
    for column in ("en", "de", "avg"):
        assert table[column].notna().all()
        # every cell has its interval, the number inside it
        assert (table[f"{column}_low"] <= table[column] + 1e-9).all()
        assert (table[column] <= table[f"{column}_high"] + 1e-9).all()
    # every row but the baseline (the first: zero-shot) is tested against it
    assert table["de_p"].isna().tolist() == [True] + [False] * 5
    assert ((table["de_p"].dropna() > 0) & (table["de_p"].dropna() <= 1)).all()
    markdown = (tables_dir(workdir) / f"{task}.md").read_text()
    assert "bootstrap 95% interval" in markdown
    assert "differs from tiny, zero-shot" in markdown


def test_each_setting_trains_on_its_data(run) -> None:
    workdir, done = run
    counts = job_counts(done.stdout + done.stderr)
    # per task: zero-shot, translate-train-all, multilingual share the plain rule; German's
    # translate-train and both in-language models are per language (English translate-train
    # is the zero-shot model); translate-test trains nothing. CoNLL and POS: zero-shot each.
    assert counts["finetune"] == 2 * 3 + 2
    assert counts["finetune_per_language"] == 2 * 3
    # the German translate-train model read English training data and its translation
    meta = json.loads(
        (variant_dir(workdir, "tiny", "xnli") / "translate-train/seed1/scores/de.json").read_text()
    )["provenance"]
    files = json.dumps(meta)
    assert "en-de-translated.tsv" in files and "train-en.tsv" in files
    # translate-test scored German items from their English translation
    translate_test = json.loads(
        (variant_dir(workdir, "tiny", "xnli") / "translate-test/seed1/scores/de.json").read_text()
    )
    assert translate_test["split"] == "translate-test" and translate_test["n"] == 18
    english = json.loads(
        (variant_dir(workdir, "tiny", "xnli") / "translate-test/seed1/scores/en.json").read_text()
    )
    zero_shot = json.loads(
        (variant_dir(workdir, "tiny", "xnli") / "zero-shot/seed1/scores/en.json").read_text()
    )
    # English under translate-test is the zero-shot model on the English test set
    assert english["split"] == "test" and english["metrics"] == zero_shot["metrics"]


def test_pseudo_test_analysis(run) -> None:
    workdir, _ = run
    table = pd.read_csv(tables_dir(workdir) / "xnli_pseudo_test.csv")
    assert list(table["language"]) == ["de"]
    row = table.iloc[0]
    # the pseudo set is the human one in lower case: chrF well above zero, BLEU below 100
    assert 0 < row["bleu"] < 100 and 0 < row["chrf"] < 100
    assert row["difference"] == pytest.approx(row["pseudo"] - row["human"])
    analysis = json.loads((tables_dir(workdir) / "xnli_pseudo_test.json").read_text())
    # one language: no correlation across languages
    assert analysis["correlations"]["tiny"]["pearson_bleu_difference"] is None


def test_conll_and_pos_tables(run) -> None:
    workdir, _ = run
    scores = variant_dir(workdir, "tiny", "conll") / "zero-shot" / "seed1" / "scores"
    score = json.loads((scores / "es.json").read_text())
    assert set(score["metrics"]) == {"f1", "precision", "recall", "token_f1"}
    # testb holds the four sentences three times: (6 + 6 + 6 + 7) words x 3
    assert score["n"] == 12 and score["words"] == 75
    values = ["en", "es", "avg"]
    conll = pd.read_csv(tables_dir(workdir) / "conll.csv")
    assert list(conll["setting"]) == ["zero-shot"]
    assert list(conll.columns) == [
        "model", "setting", "row", "seeds", *values, *interval_columns(values),
    ]  # fmt: skip
    pos = pd.read_csv(tables_dir(workdir) / "udpos.csv")
    values = ["en", "de", "avg"]
    assert list(pos.columns) == [
        "model", "setting", "row", "seeds", *values, *interval_columns(values),
    ]  # fmt: skip
