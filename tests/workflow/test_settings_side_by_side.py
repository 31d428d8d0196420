"""Fine-tuned whole, with LoRA and prompted in context, side by side (docs/decoders.md): one
run of a tiny BERT (zero-shot only: an encoder is not prompted) and a tiny decoder of Qwen2's
shape in all three settings on the demo XNLI, and in context on XQuAD (greedy answers, SQuAD's
English training data as demonstrations). Every assertion reads this one run."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.workflow.snakemake_runner import (
    REPO,
    job_counts,
    plots_dir,
    run_snakemake,
    tables_dir,
    variant_dir,
)
from tests.workflow.tiny_data import write_squad_json

pytestmark = pytest.mark.workflow

SETTINGS = ["zero-shot", "zero-shot-lora", "in-context"]
XNLI_LANGUAGES = ["en", "de", "ar"]
SHOTS = 2


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, tiny_model: Path, tiny_qwen2: Path):
    workdir = tmp_path_factory.mktemp("side-by-side")
    qa = workdir / "qa-files"
    write_squad_json(qa / "train-v1.1.json", "t", long_context=False)
    write_squad_json(qa / "dev-v1.1.json", "d", long_context=False)
    for language in ("en", "de"):
        write_squad_json(qa / f"xquad.{language}.json", "q", long_context=False)
    small = {"epochs": 1, "batch_size": 8, "max_length": 64}
    config = {
        "models": [
            {"name": "bert", "source": "local", "path": str(tiny_model), "settings": ["zero-shot"]},
            {"name": "qwen2", "source": "local", "path": str(tiny_qwen2)},
        ],
        "tasks": {
            "xnli": {
                "source": "demo",
                "languages": XNLI_LANGUAGES,
                "hyperparameters": small,
                "settings": SETTINGS,
            },
            # the demonstrations of XQuAD in context: SQuAD's English training data (no SQuAD
            # fine-tune: XQuAD runs in context only)
            "squad": {"source": "files", "path": str(qa)},
            "xquad": {
                "source": "files",
                "path": str(qa),
                "languages": ["en", "de"],
                "settings": ["in-context"],
            },
        },
        "in_context": {"shots": SHOTS, "max_new_tokens": 8},
    }
    result = run_snakemake(workdir, config)
    assert result.returncode == 0, result.stderr[-3000:]
    return workdir, job_counts(result.stderr + result.stdout), config


def test_each_setting_runs_its_own_jobs_and_the_encoder_is_not_prompted(run) -> None:
    _, counts, _ = run
    # fine-tunes: bert zero-shot, qwen2 zero-shot and zero-shot-lora (none for SQuAD)
    assert counts["finetune"] == 3
    # prompted: qwen2 on XNLI's three languages and XQuAD's two; nothing for bert
    assert counts["prompt"] == 5
    assert counts["predict"] == 3 * len(XNLI_LANGUAGES)
    assert counts["score"] == 4 * len(XNLI_LANGUAGES) + 2


def test_in_context_predictions_are_the_likeliest_choices(run) -> None:
    workdir, _, _ = run
    folder = variant_dir(workdir, "qwen2", "xnli", "in-context") / "in-context" / "seed1"
    choices = ["yes", "maybe", "no"]  # the spec's verbalisers, in the task's label order
    labels = ["entailment", "neutral", "contradiction"]
    for language in XNLI_LANGUAGES:
        gold = [
            json.loads(line)
            for line in (workdir / "resources/data/xnli/demo" / language / "test.jsonl")
            .read_text()
            .splitlines()
        ]
        records = [
            json.loads(line)
            for line in (folder / "predictions" / f"{language}.jsonl").read_text().splitlines()
        ]
        assert [r["id"] for r in records] == [g["id"] for g in gold]
        for record, example in zip(records, gold, strict=True):
            scores = np.array(record["loglikelihoods"])
            assert record["label"] == labels[int(np.argmax(scores))]
            per_character = scores / np.array([len(c) for c in choices])
            assert record["label_norm"] == labels[int(np.argmax(per_character))]
            assert record["gold"] == example["label"]
            assert sum(record["probabilities"].values()) == pytest.approx(1.0, abs=1e-5)
        score = json.loads((folder / "scores" / f"{language}.json").read_text())
        hits = [r["label"] == g["label"] for r, g in zip(records, gold, strict=True)]
        normalised = [r["label_norm"] == g["label"] for r, g in zip(records, gold, strict=True)]
        assert score["metrics"]["accuracy"] == pytest.approx(np.mean(hits))
        assert score["length_normalised"]["metrics"]["accuracy"] == pytest.approx(
            np.mean(normalised)
        )
        assert score["interval"]["low"] <= score["metrics"]["accuracy"] <= score["interval"]["high"]
        provenance = score["provenance"]
        assert provenance["in_context"]["shots"] == SHOTS
        assert "xnli" in provenance["in_context"]["prompt_source"]
        # nothing was fine-tuned: no training record; the demonstrations' data is recorded
        assert not provenance.get("training")


def test_in_context_qa_is_answered_by_generation_and_scored_by_squad_f1(run) -> None:
    workdir, _, _ = run
    folder = variant_dir(workdir, "qwen2", "xquad", "in-context") / "in-context" / "seed1"
    records = [
        json.loads(line) for line in (folder / "predictions" / "de.jsonl").read_text().splitlines()
    ]
    assert [r["id"] for r in records] == ["q0", "q1", "q2", "q3"]
    assert all(isinstance(r["answer"], str) and "\n" not in r["answer"] for r in records)
    score = json.loads((folder / "scores" / "de.json").read_text())
    assert set(score["metrics"]) == {"f1", "exact_match"}
    # the gold answers are single river names: a hit only where the answer is one exactly
    rivers = ["Spree", "Seine", "Thames", "Donau"]
    exact = [r["answer"] == river for r, river in zip(records, rivers, strict=True)]
    assert score["metrics"]["exact_match"] == pytest.approx(np.mean(exact))
    assert "length_normalised" not in score


def test_the_table_puts_the_settings_in_rows_with_intervals_and_paired_tests(run) -> None:
    workdir, _, _ = run
    table = pd.read_csv(tables_dir(workdir) / "xnli.csv")
    ours = table[table["row"] == "ours"]
    assert list(zip(ours["model"], ours["setting"], strict=True)) == [
        ("bert", "zero-shot"),
        ("qwen2", "zero-shot"),
        ("qwen2", "zero-shot-lora"),
        ("qwen2", "in-context"),
    ]
    for language in [*XNLI_LANGUAGES, "avg"]:
        assert ours[f"{language}_low"].notna().all()
        # paired tests against the first row (bert, zero-shot), on the same items
        assert ours[f"{language}_p"].iloc[1:].between(0, 1).all()
    notes = (tables_dir(workdir) / "xnli.md").read_text()
    assert (
        "Fine-tuned with LoRA (the other fine-tunes every weight): qwen2, zero-shot-lora" in notes
    )
    assert f"In context (nothing trained): {SHOTS} English demonstrations" in notes
    assert "length-normalised" in notes


def test_the_report_has_each_tasks_gap_per_language_and_setting(run) -> None:
    workdir, _, _ = run
    assert (plots_dir(workdir) / "xnli_gaps_per_language.png").stat().st_size > 0
    assert (plots_dir(workdir) / "xquad_gaps_per_language.png").stat().st_size > 0
    # one heatmap per model and the settings it runs
    heatmaps = sorted(
        p.relative_to(plots_dir(workdir)).as_posix()
        for p in plots_dir(workdir).glob("*/heatmap_*.png")
    )
    assert heatmaps == [
        "bert/heatmap_zero-shot.png",
        "qwen2/heatmap_in-context.png",
        "qwen2/heatmap_zero-shot-lora.png",
        "qwen2/heatmap_zero-shot.png",
    ]


def test_the_leaderboard_names_each_rows_method(run, tmp_path: Path) -> None:
    from mte.leaderboard.cli import main

    workdir, _, _ = run
    out = tmp_path / "board"
    references = str(REPO / "config" / "references")
    main(
        [
            str(workdir / "results" / "runs" / "config"),
            "--out",
            str(out),
            "--references",
            references,
        ]
    )
    board = pd.read_csv(out / "leaderboard.csv")
    ours = board[board["row"] == "ours"]
    methods = dict(
        zip(zip(ours["model"], ours["setting"], strict=True), ours["method"], strict=True)
    )
    assert methods == {
        ("bert", "zero-shot"): "full fine-tune",
        ("qwen2", "zero-shot"): "full fine-tune",
        ("qwen2", "zero-shot-lora"): "LoRA r8",
        ("qwen2", "in-context"): f"in context, {SHOTS}-shot",
    }


def test_fine_tuning_hyper_parameters_rerun_no_prompt_and_another_k_reruns_only_prompts(
    run,
) -> None:
    """The in-context runs have a folder of their own, keyed by the demonstrations' data and
    the shots, not by the fine-tunes' hyper-parameters (last: its dry runs rewrite the
    config file)."""
    workdir, _, config = run
    changed = copy.deepcopy(config)
    changed["tasks"]["xnli"]["hyperparameters"]["learning_rate"] = 1e-3
    counts = job_counts(_dry_run(workdir, changed))
    # XNLI's three fine-tunes again, and no prompt
    assert counts["finetune"] == 3 and "prompt" not in counts
    more = copy.deepcopy(config)
    more["in_context"]["shots"] = SHOTS + 1
    counts = job_counts(_dry_run(workdir, more))
    assert counts["prompt"] == 5 and "finetune" not in counts and "predict" not in counts


def _dry_run(workdir: Path, config: dict) -> str:
    done = run_snakemake(workdir, config, "-n")
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout + done.stderr
