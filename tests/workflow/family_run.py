"""One tiny run of every family for the family workflow tests (test_retrieval_glue, test_tagging,
test_qa, test_xcopa): their tasks in one config, run once a session with the tiny models that
``SHAPES`` names (tests/conftest.py: a BERT with a unigram tokenizer, XLM-R's shape, mBERT's, and
the decoders of Llama's, Qwen2's and Gemma's), so that every family runs end to end with each and
each module checks its families for each. `make test` runs the BERT, `make test-shapes` the
others (``MTE_TEST_SHAPES``).
tests/workflow/conftest.py makes ``family_run`` a fixture."""

from __future__ import annotations

import fcntl
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.workflow.snakemake_runner import (
    ALL_SHAPES,
    SHAPES,
    job_counts,
    model_entries,
    run_snakemake,
)
from tests.workflow.tiny_data import (
    write_bucc,
    write_conll_folders,
    write_glue,
    write_mewslix,
    write_panx_folders,
    write_pawsx,
    write_siqa,
    write_squad_json,
    write_tatoeba,
    write_xcopa,
    write_xquad_r,
)

SMALL = {"epochs": 1, "batch_size": 4, "max_length": 32}
QA = {"epochs": 1, "batch_size": 2, "max_length": 64}


@dataclass(frozen=True)
class FamilyRun:
    """The run's working directory, its job counts per rule and its console output."""

    workdir: Path
    counts: dict[str, int]
    output: str


def _qa_data(workdir: Path) -> tuple[Path, Path]:
    """SQuAD, XQuAD and MLQA files in one folder; TyDiQA-GoldP in XTREME's download layout."""
    data = workdir / "xquad-files"
    data.mkdir()
    write_squad_json(data / "train-v1.1.json", "t", long_context=False)
    write_squad_json(data / "dev-v1.1.json", "d", long_context=False)
    write_squad_json(data / "xquad.de.json", "q", long_context=True)
    for pair in ("en-de", "de-en"):
        context, question = pair.split("-")
        name = f"test-context-{context}-question-{question}.json"
        write_squad_json(data / name, pair.replace("-", ""), long_context=False)
    tydiqa = workdir / "tydiqa-files"
    (tydiqa / "tydiqa-goldp-v1.1-train").mkdir(parents=True)
    (tydiqa / "tydiqa-goldp-v1.1-dev").mkdir()
    write_squad_json(
        tydiqa / "tydiqa-goldp-v1.1-train" / "tydiqa.en.train.json", "ty", long_context=False
    )
    for language in ("en", "fi"):  # English's is the dev set of the fine-tune
        dev = tydiqa / "tydiqa-goldp-v1.1-dev" / f"tydiqa.goldp.{language}.dev.json"
        write_squad_json(dev, f"{language}-", long_context=False)
    return data, tydiqa


def _qa_tasks(data: Path, tydiqa: Path) -> dict:
    files = {"source": "files", "path": str(data)}
    return {
        "squad": {**files, "doc_stride": 16, "hyperparameters": QA},
        # its questions and answer sentences: LAReQA's dual encoder (one batch of its 4 pairs)
        "squad_retrieval": {
            **files,
            "max_query_length": 16,
            "hyperparameters": {**SMALL, "gradient_accumulation_steps": 1, "learning_rate": 1e-3},
        },
        "xquad": {**files, "languages": ["de"]},
        # two G-XLT pairs: the contexts and the questions of the matrix in both languages
        "mlqa_gxlt": {**files, "languages": ["en-de", "de-en"]},
        "tydiqa": {
            "source": "files",
            "path": str(tydiqa),
            "languages": ["fi"],
            "doc_stride": 16,
            # XTREME's run_squad.py windows (SQuAD's fine-tune keeps run_qa's)
            "windows": "run_squad",
            "max_query_length": 16,
            # XTREME's --do_lower_case (mBERT's WordPiece lower-cases; a no-op for the others'
            # tokenizers), and a model chosen on dev after every 2nd step, not the final one
            "do_lower_case": True,
            "hyperparameters": {**QA, "model_selection": "best_dev", "selection_every_steps": 2},
        },
    }


def _pooled(folder: Path, encoder: str) -> dict:
    """A pooled retrieval task in English and German, embedded by a dual encoder's fine-tune."""
    return {
        "source": "files",
        "path": str(folder),
        "languages": ["en", "de"],
        "encoder": encoder,
        "layers": ["model"],
    }


def _other_tasks(data: Path) -> dict:
    """Pairs, regression, tagging, retrieval, mining and multiple choice; zero-shot from
    English to German (English's own test sets are no other path)."""
    german = {"source": "files", "languages": ["de"], "hyperparameters": SMALL}
    files = {"source": "files", "hyperparameters": SMALL}
    return {
        "pawsx": {**german, "path": str(data / "pawsx")},
        # fine-tuned with LoRA (mte.modelling.lora): the adapter saved, merged to predict
        "sst2": {
            **files,
            "path": str(data / "glue" / "SST-2"),
            "hyperparameters": {**SMALL, "method": "lora", "lora": {"rank": 4}},
        },
        "stsb": {**files, "path": str(data / "glue" / "STS-B")},
        "tatoeba": {"source": "files", "path": str(data / "tatoeba"), "languages": ["de"]},
        # embedded by SQuAD's zero-shot fine-tune (encoder), Tatoeba by the pretrained model
        "bucc": {
            "source": "files",
            "path": str(data / "bucc"),
            "languages": ["de"],
            "encoder": "squad",
        },
        # LAReQA: both languages' questions search one pool of both languages' sentences,
        # embedded by the dual encoder fine-tuned on SQuAD's pairs (squad_retrieval, _qa_tasks)
        "lareqa": _pooled(data / "lareqa", "squad_retrieval"),
        # Mewsli-X: both languages' mentions search one pool, the candidate set, embedded by
        # the dual encoder fine-tuned on the Wikipedia pairs beside it
        "mewslix": _pooled(data / "mewslix", "mewslix_pairs"),
        "mewslix_pairs": {
            "source": "files",
            "path": str(data / "mewslix"),
            "max_query_length": 32,
            "hyperparameters": {**SMALL, "gradient_accumulation_steps": 1},
        },
        # Thai's files are not in the folder: left out of the run and named in the table
        "panx": {
            **german,
            "path": str(data / "panx"),
            "languages": ["de", "th"],
            "missing_files": "skip",
        },
        # enough training for the tiny models to get some tags right: the check then compares
        # a count that is not zero
        "udpos": {
            **german,
            "path": str(data / "udpos"),
            "hyperparameters": {**SMALL, "epochs": 4, "learning_rate": 1e-3},
        },
        # XTREME-R's XCOPA: Social IQa, then COPA from its fine-tune; translate-test from the
        # release's data-gmt/
        "xcopa": {
            **files,
            "path": str(data / "xcopa"),
            "languages": ["et"],
            "settings": ["zero-shot", "translate-test"],
            "translations": {
                "source": "files",
                "path": str(data / "xcopa"),
                "files": {"translate-test": "data-gmt/{lang}/test.{lang}.jsonl"},
            },
            "start_from": "siqa",
        },
        "siqa": {**files, "path": str(data / "siqa")},
    }


def _run_families(workdir: Path, models: dict[str, Path]) -> FamilyRun:
    data = workdir / "data"
    data.mkdir()
    for writer, folder in (
        (write_pawsx, "pawsx"),
        (write_tatoeba, "tatoeba"),
        (write_bucc, "bucc"),
        (write_glue, "glue"),
        (write_xcopa, "xcopa"),
        (write_siqa, "siqa"),
        (write_xquad_r, "lareqa"),
        (write_mewslix, "mewslix"),
    ):
        writer(data / folder)
    write_panx_folders(data)
    write_conll_folders(data)
    tasks = {**_other_tasks(data), **_qa_tasks(*_qa_data(workdir))}
    config = {"models": model_entries(models), "tasks": tasks}
    # the tables (each task's, and the GLUE suite's) and what they need; not the figures, which
    # test_caching and the report check
    evaluated = [
        name for name in tasks if name not in ("squad", "squad_retrieval", "mewslix_pairs")
    ]
    targets = [f"results/runs/config/tables/{name}.csv" for name in (*evaluated, "glue")]
    done = run_snakemake(workdir, config, *targets)
    assert done.returncode == 0, done.stderr[-4000:]
    output = done.stdout + done.stderr
    return FamilyRun(workdir, job_counts(output), output)


@pytest.fixture(scope="session")
def family_run(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest):
    """The run, once a session. Under pytest-xdist (make test) each worker has its own
    session, and the four modules may land on both: the first to take the lock runs it in the
    folder the workers share, the other waits and reads it (pytest-xdist's recipe for a
    session fixture that runs once)."""
    fixtures = {"tiny": "tiny_model", **{name: name.replace("-", "_") for name in ALL_SHAPES[1:]}}

    def models() -> dict[str, Path]:  # built only by the process that runs the workflow
        return {name: request.getfixturevalue(fixtures[name]) for name in SHAPES}

    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return _run_families(tmp_path_factory.mktemp("families"), models())
    shared = tmp_path_factory.getbasetemp().parent / "families"
    with open(shared.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        finished = shared.with_suffix(".json")
        if not finished.exists():
            shared.mkdir()
            run = _run_families(shared, models())
            finished.write_text(json.dumps({"counts": run.counts, "output": run.output}))
        record = json.loads(finished.read_text())
    return FamilyRun(shared, record["counts"], record["output"])


def fine_tuned(run: FamilyRun, model: str, task: str) -> list[tuple[str, ...]]:
    """The fine-tuned model folders of ``task`` for ``model``: (setting, seed) each."""
    found = run.workdir.glob(f"results/{model}/{task}/*/*/*/model")
    return sorted(tuple(p.parts[-3:-1]) for p in found if re.match(r"seed\d+", p.parts[-2]))
