"""DAG-time behaviour: paper configs build offline, bad configs stop before any job."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.workflow.snakemake_runner import REPO, job_counts, run_snakemake

pytestmark = pytest.mark.workflow


def test_xtreme_config_builds_its_dag_offline(tmp_path: Path) -> None:
    done = run_snakemake(tmp_path, REPO / "config" / "xtreme.yaml", "-n")
    assert done.returncode == 0, done.stderr[-3000:]
    counts = job_counts(done.stdout + done.stderr)
    models = len(yaml.safe_load((REPO / "config" / "xtreme.yaml").read_text())["models"])
    # test sets of every language, plus English train and dev: XNLI 15, PAN-X 40, UD POS 33,
    # PAWS-X 7, XQuAD 11, MLQA 7, TyDiQA 9 (the QA tasks train on SQuAD); BUCC dev and test of
    # 4 languages; Tatoeba 36 test sets
    assert counts["download"] == 17 + 42 + 35 + 9 + 13 + 9 + 11 + 8 + 36
    assert counts["predict"] == (15 + 40 + 33 + 7 + 11 + 7 + 9) * models
    # Tatoeba and BUCC embed with the pretrained model: no fine-tune
    assert counts["retrieve"] == (36 + 4) * models
    assert counts["finetune"] == 7 * models
    assert not (tmp_path / "resources").exists()


def _base(tmp_path: Path) -> dict:
    return {
        "models": [{"name": "tiny", "source": "tiny"}],
        "tasks": {"xnli": {"source": "demo"}},
    }


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda c, t: c["tasks"].update({"nli": {"source": "demo"}}),
            "config key 'tasks.nli': unknown task 'nli'",
        ),
        (
            lambda c, t: c["tasks"]["xnli"].update({"languages": ["en", "yy"]}),
            "config key 'tasks.xnli.languages': 'yy' is not a language of XNLI",
        ),
        (
            lambda c, t: c["tasks"].update({"xnli": {"source": "files", "path": str(t)}}),
            "config key 'tasks.xnli.path': no train file for XNLI language 'en'",
        ),
    ],
    ids=["unknown-task", "unknown-language", "missing-file"],
)
def test_bad_config_stops_before_any_job(tmp_path: Path, change, expected: str) -> None:
    config = _base(tmp_path)
    change(config, tmp_path)
    done = run_snakemake(tmp_path, config)
    assert done.returncode != 0
    assert expected in done.stderr
    assert done.stderr.count("Configuration error") == 1
    assert not (tmp_path / "results").exists() and not (tmp_path / "resources").exists()


def test_xlmr_config_builds_its_dag_offline(tmp_path: Path) -> None:
    done = run_snakemake(tmp_path, REPO / "config" / "xlmr.yaml", "-n")
    assert done.returncode == 0, done.stderr[-3000:]
    counts = job_counts(done.stdout + done.stderr)
    models = len(yaml.safe_load((REPO / "config" / "xlmr.yaml").read_text())["models"])
    # per model: XNLI, CoNLL, MLQA zero-shot, CoNLL multilingual, 8 GLUE tasks (MNLI-mm scores
    # MNLI's fine-tune); CoNLL in-language per language
    assert counts["finetune"] == 12 * models and counts["finetune_per_language"] == 3 * models
    assert counts["aggregate_glue"] == 1


def test_translations_by_a_model_are_jobs_of_their_own(tmp_path: Path) -> None:
    """translate-train and translate-test with an NLLB model: each translated split is a
    download job that reads the original split; nothing is loaded while the DAG is built."""
    config = {
        "models": [{"name": "tiny", "source": "tiny"}],
        "settings": ["zero-shot", "translate-train", "translate-train-all", "translate-test"],
        "tasks": {
            "xnli": {
                "source": "demo",
                "languages": ["en", "de", "zh"],
                "translations": {"source": "model", "model": "facebook/nllb-200-distilled-600M"},
                "pseudo_test": True,
            }
        },
    }
    done = run_snakemake(tmp_path, config, "-n", "--quiet", "rules")
    assert done.returncode == 0, done.stderr[-3000:]
    counts = job_counts(done.stdout + done.stderr)
    # originals: en train, en dev, 3 test sets; translated: de/zh x translate-train,
    # translate-test and pseudo-test
    assert counts["download"] == 5 + 6
    # zero-shot, translate-train-all; translate-train for de and zh
    assert counts["finetune"] == 2 and counts["finetune_per_language"] == 2
    assert counts["predict_pseudo_test"] == 2 and counts["pseudo_test_table"] == 1
