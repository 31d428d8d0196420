"""NER in the three CoNLL settings and POS, end to end on the tiny model."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.snakemake_runner import interval_columns, job_counts, run_snakemake

pytestmark = pytest.mark.workflow

# (tokens, tags) in IOB1 as the CoNLL-2003 files write them
NER_SENTENCES = [
    ("Peter Blackburn lives in London .", "I-PER I-PER O O I-LOC O"),
    ("The EU met in Brussels .", "O I-ORG O O I-LOC O"),
    ("Angela Merkel visited Paris today .", "I-PER I-PER O I-LOC O O"),
    ("Siemens opened an office in Madrid .", "I-ORG O O O O I-LOC O"),
]
POS_SENTENCES = [
    ("Der Zug fährt nach Berlin .", "DET NOUN VERB ADP PROPN PUNCT"),
    ("Sie liest ein Buch .", "PRON VERB DET NOUN PUNCT"),
]


def _conll_file(path: Path, repeat: int) -> None:
    lines = ["-DOCSTART- -X- O O", ""]
    for text, tags in NER_SENTENCES * repeat:
        lines += [f"{w} X X {t}" for w, t in zip(text.split(), tags.split(), strict=True)]
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="latin-1")


def _pos_file(path: Path, repeat: int) -> None:
    lines = []
    for text, tags in POS_SENTENCES * repeat:
        lines += [f"{w}\t{t}" for w, t in zip(text.split(), tags.split(), strict=True)]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    workdir = tmp_path_factory.mktemp("tagging")
    conll, pos = workdir / "conll", workdir / "udpos"
    conll.mkdir()
    pos.mkdir()
    for code in ("eng", "esp"):
        for split, repeat in (("train", 6), ("testa", 2), ("testb", 3)):
            _conll_file(conll / f"{code}.{split}", repeat)
    for name in ("train-en.tsv", "dev-en.tsv", "test-en.tsv", "test-de.tsv"):
        _pos_file(pos / name, 4)
    small = {"epochs": 1, "batch_size": 4, "max_length": 16, "learning_rate": 1e-3}
    config = {
        "models": [{"name": "tiny", "source": "tiny"}],
        "tasks": {
            "conll": {
                "source": "files",
                "path": str(conll),
                "languages": ["en", "es"],
                "settings": ["zero-shot", "in-language", "multilingual"],
                "hyperparameters": small,
            },
            "udpos": {
                "source": "files",
                "path": str(pos),
                "languages": ["en", "de"],
                "hyperparameters": dict(small),
            },
        },
    }
    done = run_snakemake(workdir, config)
    assert done.returncode == 0, done.stderr[-4000:]
    return workdir, done


def test_ner_table_has_a_row_per_setting(run) -> None:
    workdir, done = run
    table = pd.read_csv(workdir / "results" / "tables" / "conll.csv")
    assert list(table["setting"]) == ["zero-shot", "in-language", "multilingual"]
    values = ["en", "es", "avg"]
    # intervals for every row; p-values against the first (zero-shot) for the others
    assert list(table.columns) == [
        "model", "setting", "row", "seeds", *values, *interval_columns(values),
        *(f"{v}_p" for v in values),
    ]  # fmt: skip
    # one fine-tune for zero-shot, one per language in-language, one multilingual; the POS one
    counts = job_counts(done.stdout + done.stderr)
    assert counts["finetune"] == 3 and counts["finetune_per_language"] == 2


def test_score_files_carry_entity_and_token_f1(run) -> None:
    workdir, _ = run
    import json

    score = json.loads(
        (workdir / "results/tiny/conll/in-language/seed1/scores/es.json").read_text()
    )
    assert set(score["metrics"]) == {"f1", "precision", "recall", "token_f1"}
    # testb holds the four sentences three times: (6 + 6 + 6 + 7) words x 3
    assert score["n"] == 12 and score["words"] == 75
    pos = pd.read_csv(workdir / "results" / "tables" / "udpos.csv")
    values = ["en", "de", "avg"]
    assert list(pos.columns) == [
        "model",
        "setting",
        "row",
        "seeds",
        *values,
        *interval_columns(values),
    ]
