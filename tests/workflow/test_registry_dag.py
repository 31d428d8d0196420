"""Every registered task through the whole DAG (a dry run), with the job counts worked out
from the registry, the transfer-settings table and the suites rather than written by hand:
a new task or family is covered as soon as tests/workflow/every_task.py writes its tiny data."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mte.config.plan.resolve import (
    models_of,
    retrieval_encoder,
    task_languages,
    task_seeds,
    task_settings,
)
from mte.config.schema import fill_schema_defaults
from mte.registry import FAMILIES, TASKS, all_suites, pools, retrieves
from mte.tasks.settings import TRANSFER_SETTINGS, model_setting
from tests.workflow.every_task import config as every_task_config
from tests.workflow.every_task import write_data, write_tiny_model
from tests.workflow.snakemake_runner import REPO, job_counts, run_snakemake

pytestmark = pytest.mark.workflow


def test_the_every_task_run_configures_every_registered_task_and_family() -> None:
    configured = every_task_config(Path("/data"))["tasks"]
    assert set(configured) == set(TASKS)
    assert {TASKS[name].family for name in configured} == set(FAMILIES)


def expected_jobs(config: dict) -> Counter:
    """Fine-tune, predict, retrieve, score, aggregate and summarize jobs of ``config``."""
    jobs: Counter = Counter()
    fine_tunes = set()
    for name in config["tasks"]:
        task = TASKS[name]
        if task.train_only:
            continue  # fine-tuned for the tasks that evaluate its models
        languages, seeds = task_languages(name, config), task_seeds(name, config)
        retrieval = retrieves(task)
        for setting in task_settings(name, config):
            for language in languages:
                jobs["retrieve" if retrieval else "predict"] += len(seeds)
                jobs["score"] += len(seeds)
                if retrieval:
                    # embedded by another task's zero-shot fine-tunes, where it names one
                    encoder = retrieval_encoder(name, config)
                    if encoder:
                        fine_tunes.update((encoder, "zero-shot", seed, None) for seed in seeds)
                    continue
                trained = models_of(name, config) or name
                used = model_setting(setting, language, TASKS[trained].train_language)
                per_language = TRANSFER_SETTINGS[used].per_language
                for seed in seeds:
                    fine_tunes.add((trained, used, seed, language if per_language else None))
        jobs["aggregate"] += 1
        # a pooled retrieval task embeds its pool once per model (one model here) and seed
        jobs["embed_pool"] += pools(task) * len(task_seeds(name, config))
    for _trained, _setting, _seed, language in fine_tunes:
        jobs["finetune_per_language" if language else "finetune"] += 1
    jobs["summarize"] = sum(bool(s.configured(config["tasks"])) for s in all_suites().values())
    return jobs


def test_every_task_builds_its_dag_with_job_counts_from_the_registry(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_data(data)
    write_tiny_model(data / "tiny-model")
    config = every_task_config(data)
    # settings with one model per language and with every language's data, besides zero-shot
    config["tasks"]["conll"]["settings"] = ["zero-shot", "in-language", "multilingual"]
    config["tasks"]["panx"]["settings"] = ["zero-shot", "in-language"]
    done = run_snakemake(tmp_path, config, "-n")
    assert done.returncode == 0, done.stderr[-3000:]
    counts = job_counts(done.stdout + done.stderr)
    fill_schema_defaults(config, REPO / "config" / "schema.yaml")
    expected = expected_jobs(config)
    assert {rule: counts.get(rule, 0) for rule in expected} == dict(expected)
    assert expected["finetune_per_language"] == 4  # CoNLL (en, es) and PAN-X (en, de)
    # a training-curve figure per fine-tune, one per language for the per-language settings
    assert counts["plot_training"] == counts["finetune"]
    assert counts["plot_training_per_language"] == counts["finetune_per_language"]
    # every task is scored: one aggregate table per evaluated task
    assert counts["aggregate"] == sum(not task.train_only for task in TASKS.values())
