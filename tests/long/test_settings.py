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

from mte.data import demo_dir
from mte.tasks import TASKS
from tests.workflow.snakemake_runner import interval_columns, job_counts, run_snakemake

pytestmark = pytest.mark.workflow

SETTINGS = [
    "zero-shot",
    "translate-train",
    "translate-train-all",
    "translate-test",
    "in-language",
    "multilingual",
]
# (English tokens, German tokens, tags), the same tags in both languages
NER = [
    ("Angela Merkel visited Paris .", "Angela Merkel besuchte Paris .", "B-PER I-PER O B-LOC O"),
    ("Siemens is based in Munich .", "Siemens sitzt in München .", None),
    ("The UN met in Geneva .", "Die UNO tagte in Genf .", "O B-ORG O O B-LOC O"),
]
GERMAN_TAGS = {1: "B-ORG O O B-LOC O"}
# (tokens, tags) in IOB1 as the CoNLL-2003 files write them
CONLL_SENTENCES = [
    ("Peter Blackburn lives in London .", "I-PER I-PER O O I-LOC O"),
    ("The EU met in Brussels .", "O I-ORG O O I-LOC O"),
    ("Angela Merkel visited Paris today .", "I-PER I-PER O I-LOC O O"),
    ("Siemens opened an office in Madrid .", "I-ORG O O O O I-LOC O"),
]
POS_SENTENCES = [
    ("Der Zug fährt nach Berlin .", "DET NOUN VERB ADP PROPN PUNCT"),
    ("Sie liest ein Buch .", "PRON VERB DET NOUN PUNCT"),
]
ENGLISH_TAGS = {1: "B-ORG O O O B-LOC O"}


def _lines(name: str) -> list[str]:
    return (demo_dir(TASKS["xnli"]) / name).read_text(encoding="utf-8").splitlines()


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _tagged(sentences: list[tuple[str, str]], repeat: int) -> list[str]:
    lines = []
    for text, tags in sentences * repeat:
        lines += [f"{w}\t{t}" for w, t in zip(text.split(), tags.split(), strict=True)]
        lines.append("")
    return lines


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


def _panx_files(root: Path) -> None:
    english = [(en, tags or ENGLISH_TAGS[i]) for i, (en, _, tags) in enumerate(NER)]
    german = [(de, tags or GERMAN_TAGS[i]) for i, (_, de, tags) in enumerate(NER)]
    for language, sentences in (("en", english), ("de", german)):
        for split, repeat in (("train", 4), ("dev", 1), ("test", 2)):
            _write(root / f"panx/{split}-{language}.tsv", _tagged(sentences, repeat))
    _write(root / "panx-mt/translate-train/en-de-translated.tsv", _tagged(german, 4))
    _write(root / "panx-mt/translate-test/test-de-en-translated.tsv", _tagged(english, 2))


def _conll_files(root: Path) -> None:
    for code in ("eng", "esp"):
        for split, repeat in (("train", 6), ("testa", 2), ("testb", 3)):
            lines = ["-DOCSTART- -X- O O", ""]
            for text, tags in CONLL_SENTENCES * repeat:
                words = zip(text.split(), tags.split(), strict=True)
                lines += [f"{w} X X {t}" for w, t in words]
                lines.append("")
            path = root / "conll" / f"{code}.{split}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(lines) + "\n", encoding="latin-1")
    for name in ("train-en.tsv", "dev-en.tsv", "test-en.tsv", "test-de.tsv"):
        _write(root / "udpos" / name, _tagged(POS_SENTENCES, 4))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    workdir = tmp_path_factory.mktemp("settings")
    _xnli_files(workdir)
    _panx_files(workdir)
    _conll_files(workdir)
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
    table = pd.read_csv(workdir / "results" / "tables" / f"{task}.csv")
    assert list(table["setting"]) == SETTINGS
    for column in ("en", "de", "avg"):
        assert table[column].notna().all()
        # every cell has its interval, the number inside it
        assert (table[f"{column}_low"] <= table[column] + 1e-9).all()
        assert (table[column] <= table[f"{column}_high"] + 1e-9).all()
    # every row but the baseline (the first: zero-shot) is tested against it
    assert table["de_p"].isna().tolist() == [True] + [False] * 5
    assert ((table["de_p"].dropna() > 0) & (table["de_p"].dropna() <= 1)).all()
    markdown = (workdir / "results" / "tables" / f"{task}.md").read_text()
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
        (workdir / "results/tiny/xnli/translate-train/seed1/scores/de.json").read_text()
    )["provenance"]
    files = json.dumps(meta)
    assert "en-de-translated.tsv" in files and "train-en.tsv" in files
    # translate-test scored German items from their English translation
    translate_test = json.loads(
        (workdir / "results/tiny/xnli/translate-test/seed1/scores/de.json").read_text()
    )
    assert translate_test["split"] == "translate-test" and translate_test["n"] == 18
    english = json.loads(
        (workdir / "results/tiny/xnli/translate-test/seed1/scores/en.json").read_text()
    )
    zero_shot = json.loads(
        (workdir / "results/tiny/xnli/zero-shot/seed1/scores/en.json").read_text()
    )
    # English under translate-test is the zero-shot model on the English test set
    assert english["split"] == "test" and english["metrics"] == zero_shot["metrics"]


def test_pseudo_test_analysis(run) -> None:
    workdir, _ = run
    table = pd.read_csv(workdir / "results" / "tables" / "xnli_pseudo_test.csv")
    assert list(table["language"]) == ["de"]
    row = table.iloc[0]
    # the pseudo set is the human one in lower case: chrF well above zero, BLEU below 100
    assert 0 < row["bleu"] < 100 and 0 < row["chrf"] < 100
    assert row["difference"] == pytest.approx(row["pseudo"] - row["human"])
    analysis = json.loads((workdir / "results/tables/xnli_pseudo_test.json").read_text())
    # one language: no correlation across languages
    assert analysis["correlations"]["tiny"]["pearson_bleu_difference"] is None


def test_conll_and_pos_tables(run) -> None:
    workdir, _ = run
    score = json.loads((workdir / "results/tiny/conll/zero-shot/seed1/scores/es.json").read_text())
    assert set(score["metrics"]) == {"f1", "precision", "recall", "token_f1"}
    # testb holds the four sentences three times: (6 + 6 + 6 + 7) words x 3
    assert score["n"] == 12 and score["words"] == 75
    values = ["en", "es", "avg"]
    conll = pd.read_csv(workdir / "results" / "tables" / "conll.csv")
    assert list(conll["setting"]) == ["zero-shot"]
    assert list(conll.columns) == [
        "model", "setting", "row", "seeds", *values, *interval_columns(values),
    ]  # fmt: skip
    pos = pd.read_csv(workdir / "results" / "tables" / "udpos.csv")
    values = ["en", "de", "avg"]
    assert list(pos.columns) == [
        "model", "setting", "row", "seeds", *values, *interval_columns(values),
    ]  # fmt: skip
