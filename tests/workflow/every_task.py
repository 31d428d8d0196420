"""Every registered task once on the tiny model: its tiny released-format files (``write_data``,
from the writers of tests/workflow/tiny_data.py) and its entry of the config (``config``).
A new task adds its writer and its entry here; tests/workflow/test_registry_dag.py fails until
every registered task has one. ``tools/tiny_every_task.py`` runs them."""

from __future__ import annotations

from pathlib import Path

from tests.workflow.tiny_data import (
    SENTENCES,
    write_belebele,
    write_belebele_train,
    write_bucc,
    write_conll_folders,
    write_glue,
    write_lines,
    write_mctest,
    write_mewslix,
    write_panx_folders,
    write_pawsx,
    write_qa_folders,
    write_sib200,
    write_siqa,
    write_squad_json,
    write_tatoeba,
    write_xcopa,
    write_xnli,
    write_xquad_r,
)

SMALL = {"epochs": 1, "batch_size": 4, "max_length": 32}
QA = {"epochs": 1, "batch_size": 2, "max_length": 64}
# a dual encoder: each batch of 4 pairs is its own set of negatives
PAIRS = {**SMALL, "gradient_accumulation_steps": 1}


def write_more_glue(glue: Path) -> None:
    """The GLUE tasks write_glue leaves out, in their releases' column layouts."""
    english = [en for en, _ in SENTENCES]
    second = english[1:] + english[:1]
    # CoLA: no header; source, label, original label, sentence
    cola = [f"src\t{n % 2}\t\t{text}" for n, text in enumerate(english)]
    mrpc = ["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String"] + [
        f"{n % 2}\t{n}\t{n + 10}\t{a}\t{b}"
        for n, (a, b) in enumerate(zip(english, second, strict=True))
    ]
    qqp = ["id\tqid1\tqid2\tquestion1\tquestion2\tis_duplicate"] + [
        f"{n}\t{n}\t{n + 10}\t{a}\t{b}\t{n % 2}"
        for n, (a, b) in enumerate(zip(english, second, strict=True))
    ]
    nli = ("entailment", "neutral", "contradiction")
    mnli = ["index\tgenre\tsentence1\tsentence2\tgold_label"] + [
        f"{n}\tfiction\t{a}\t{b}\t{nli[n % 3]}"
        for n, (a, b) in enumerate(zip(english, second, strict=True))
    ]
    two = ("entailment", "not_entailment")
    qnli = ["index\tquestion\tsentence\tlabel"] + [
        f"{n}\t{a}\t{b}\t{two[n % 2]}" for n, (a, b) in enumerate(zip(english, second, strict=True))
    ]
    rte = ["index\tsentence1\tsentence2\tlabel"] + [
        f"{n}\t{a}\t{b}\t{two[n % 2]}" for n, (a, b) in enumerate(zip(english, second, strict=True))
    ]
    for split in ("train", "dev"):
        write_lines(glue / "CoLA" / f"{split}.tsv", cola)
        write_lines(glue / "MRPC" / f"{split}.tsv", mrpc)
        write_lines(glue / "QQP" / f"{split}.tsv", qqp)
        write_lines(glue / "QNLI" / f"{split}.tsv", qnli)
        write_lines(glue / "RTE" / f"{split}.tsv", rte)
    for name in ("train.tsv", "dev_matched.tsv", "dev_mismatched.tsv"):
        write_lines(glue / "MNLI" / name, mnli)


def write_data(data: Path) -> None:
    data.mkdir(parents=True)
    write_xnli(data / "xnli")
    write_pawsx(data / "pawsx")
    write_tatoeba(data / "tatoeba")
    write_xquad_r(data / "lareqa")
    write_mewslix(data / "mewslix")
    write_bucc(data / "bucc")
    write_glue(data / "glue")
    write_more_glue(data / "glue")
    write_panx_folders(data)
    write_conll_folders(data)
    write_qa_folders(data)
    write_sib200(data / "sib200")
    write_xcopa(data / "xcopa")
    write_siqa(data / "siqa")
    write_mctest(data / "mctest")
    write_belebele(data / "belebele")
    write_belebele_train(data / "belebele_train")
    for context in ("en", "de"):
        for question in ("en", "de"):
            name = f"test-context-{context}-question-{question}.json"
            write_squad_json(data / "mlqa" / name, f"{context}{question}", long_context=False)


def write_tiny_model(folder: Path) -> None:
    """The tiny model, built once and read by both runs of a comparison as a local folder
    (its tokenizer's training is not byte-reproducible from one build to the next)."""
    from mte.hub.tiny_models import build_tiny_model, demo_texts

    build_tiny_model(folder, demo_texts(), seed=0)


def config(data: Path) -> dict:
    def folder(task: str, **more) -> dict:
        return {"source": "files", "path": str(data / task), **more}

    both = {"languages": ["en", "de"]}
    glue = {
        name: {
            "source": "files",
            "path": str(data / "glue" / folder_name),
            "hyperparameters": SMALL,
        }
        for name, folder_name in (
            ("cola", "CoLA"),
            ("sst2", "SST-2"),
            ("mrpc", "MRPC"),
            ("qqp", "QQP"),
            ("stsb", "STS-B"),
            ("mnli", "MNLI"),
            ("qnli", "QNLI"),
            ("rte", "RTE"),
        )
    }
    glue["mnli_mm"] = {"source": "files", "path": str(data / "glue" / "MNLI")}
    return {
        "run": "every-task",
        "models": [{"name": "tiny", "source": "local", "path": str(data / "tiny-model")}],
        "tasks": {
            "xnli": folder("xnli", **both, hyperparameters=SMALL),
            "pawsx": folder("pawsx", **both, hyperparameters=SMALL),
            "udpos": folder("udpos", **both, hyperparameters=SMALL),
            "panx": folder("panx", **both, hyperparameters=SMALL),
            "conll": folder("conll", languages=["en", "es"], hyperparameters=SMALL),
            "squad": folder("squad", doc_stride=16, hyperparameters=QA),
            "xquad": folder("xquad", **both),
            "mlqa": folder("mlqa", **both),
            "mlqa_gxlt": folder("mlqa", languages=["en-en", "en-de", "de-en", "de-de"]),
            "tydiqa": folder("tydiqa", languages=["en", "fi"], doc_stride=16, hyperparameters=QA),
            "bucc": folder("bucc", languages=["de"]),
            "tatoeba": folder("tatoeba", languages=["de"]),
            # as config/xtreme-r.yaml runs them: each embedded by its dual encoder's fine-tune
            "lareqa": folder("lareqa", **both, encoder="squad_retrieval", layers=["model"]),
            "mewslix": folder("mewslix", **both, encoder="mewslix_pairs", layers=["model"]),
            "squad_retrieval": folder("squad", max_query_length=16, hyperparameters=PAIRS),
            "mewslix_pairs": folder("mewslix", max_query_length=32, hyperparameters=PAIRS),
            "xcopa": folder(
                "xcopa",
                languages=["et"],
                settings=["zero-shot", "translate-test"],
                translations={
                    "source": "files",
                    "path": str(data / "xcopa"),
                    "files": {"translate-test": "data-gmt/{lang}/test.{lang}.jsonl"},
                },
                hyperparameters=SMALL,
            ),
            "sib200": folder("sib200", languages=["eng_Latn", "deu_Latn"], hyperparameters=SMALL),
            "siqa": folder("siqa", hyperparameters=SMALL),
            "mctest": folder("mctest", eval_split="dev", hyperparameters=SMALL),
            # no training set of its own: MCTest's fine-tunes predict it
            "belebele": folder("belebele", languages=["eng_Latn", "deu_Latn"], models_of="mctest"),
            "belebele_train": folder("belebele_train", hyperparameters=SMALL),
            **glue,
        },
        "seeds": [1],
    }
