"""GLUE and PAWS-X: readers on the real files and constructed layouts, metrics by hand, the
GLUE average."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from mte.errors import InputError
from mte.families.pairs.readers import read_pairs
from mte.registry import GLUE_TASKS, TASKS, get_suite
from mte.stats.metrics import binary_f1, matthews_corrcoef, pearson, spearman
from mte.steps.data import materialize
from mte.steps.summary import metrics_markdown, metrics_table, suite_average

GLUE = get_suite("glue")


def _files(folder: Path, name: str) -> dict:
    return {"source": "files", "path": str(folder), "files": {"dev": name}}


def test_real_glue_dev_files_with_their_counts(shared_data: Path) -> None:
    glue = shared_data / "glue"
    mrpc, _ = materialize(TASKS["mrpc"], _files(glue / "MRPC", "dev.tsv"), "en", "dev")
    assert len(mrpc) == 408
    assert sum(e["label"] == "1" for e in mrpc) == 279  # the BOM does not hide the header
    assert mrpc[0]["text_b"].startswith('"The foodservice pie business')  # quotes kept
    stsb, _ = materialize(TASKS["stsb"], _files(glue / "STS-B", "dev.tsv"), "en", "dev")
    assert len(stsb) == 1500
    assert (stsb[0]["text_a"], stsb[0]["label"]) == ("A man with a hard hat is dancing.", 5.0)
    assert stsb[1]["label"] == 4.75
    # this copy of SST-2's dev set is stored as test.tsv
    sst2, _ = materialize(TASKS["sst2"], _files(glue / "SST-2", "test.tsv"), "en", "dev")
    assert len(sst2) == 872
    assert sum(e["label"] == "1" for e in sst2) == 444
    assert all(e["text_b"] is None for e in sst2)
    rte, _ = materialize(TASKS["rte"], _files(glue / "RTE", "dev.tsv"), "en", "dev")
    assert len(rte) == 139
    assert sum(e["label"] == "entailment" for e in rte) == 70
    assert rte[0]["id"] == "57"


def test_real_pawsx_dev_files(shared_data: Path) -> None:
    task = TASKS["pawsx"]
    for language in task.languages:
        cfg = {"source": "files", "path": str(shared_data / "pawsx")}
        examples, _ = materialize(task, cfg, language, "dev")
        assert len(examples) == 2000, language
        assert {e["label"] for e in examples} == {"0", "1"}


def test_pawsx_original_x_final_layout(tmp_path: Path) -> None:
    (tmp_path / "de").mkdir()
    (tmp_path / "de" / "test_2k.tsv").write_text(
        "id\tsentence1\tsentence2\tlabel\n7\tEin Satz.\tNoch ein Satz.\t1\n8\tA.\tB.\t0\n",
        encoding="utf-8",
    )
    examples, origin = materialize(
        TASKS["pawsx"], {"source": "files", "path": str(tmp_path)}, "de", "test"
    )
    assert examples == [
        {"id": "7", "text_a": "Ein Satz.", "text_b": "Noch ein Satz.", "label": "1"},
        {"id": "8", "text_a": "A.", "text_b": "B.", "label": "0"},
    ]
    assert origin["files"][0]["file"].endswith("de/test_2k.tsv")


@pytest.mark.parametrize(
    ("task", "content", "expected"),
    [
        (
            "cola",  # no header: source, label, original label, sentence
            "gj04\t1\t\tOur friends won't buy this analysis.\nclc95\t0\t*\tThey drank the pub.\n",
            [
                ("Our friends won't buy this analysis.", None, "1"),
                ("They drank the pub.", None, "0"),
            ],
        ),
        (
            "qqp",
            "id\tqid1\tqid2\tquestion1\tquestion2\tis_duplicate\n5\t1\t2\tHow?\tWhy?\t0\n",
            [("How?", "Why?", "0")],
        ),
        (
            "qnli",
            "index\tquestion\tsentence\tlabel\n0\tWho?\tHe did.\tentailment\n",
            [("Who?", "He did.", "entailment")],
        ),
        (
            "mnli",
            "index\tpromptID\tpairID\tgenre\tsentence1\tsentence2\tlabel1\tgold_label\n"
            "0\t1\t1e\tfiction\tA dog.\tAn animal.\tentailment\tentailment\n",
            [("A dog.", "An animal.", "entailment")],
        ),
    ],
)
def test_glue_layouts(tmp_path: Path, task: str, content: str, expected: list) -> None:
    path = tmp_path / "dev.tsv"
    path.write_text(content, encoding="utf-8")
    examples = read_pairs(path, TASKS[task], "en")
    assert [(e["text_a"], e["text_b"], e["label"]) for e in examples] == expected


def test_stsb_score_that_is_not_a_number_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "dev.tsv"
    path.write_text("sentence1\tsentence2\tscore\nA.\tB.\t4.0\nC.\tD.\thigh\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"dev.tsv, line 3: score 'high' is not a number"):
        read_pairs(path, TASKS["stsb"], "en")


def test_glue_label_outside_the_task_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "dev.tsv"
    path.write_text("index\tsentence1\tsentence2\tlabel\n0\tA.\tB.\tmaybe\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2: unknown label 'maybe' for RTE"):
        read_pairs(path, TASKS["rte"], "en")


def test_matthews_correlation_by_hand() -> None:
    gold = ["1", "1", "1", "0", "0", "0", "1", "0"]
    predicted = ["1", "1", "0", "0", "0", "1", "1", "0"]
    # TP 3, FN 1, TN 3, FP 1: (3*3 - 1*1) / sqrt(4*4*4*4) = 8/16
    assert matthews_corrcoef(gold, predicted) == pytest.approx(0.5)
    assert matthews_corrcoef(gold, ["1"] * 8) == 0.0  # one predicted class: 0, as GLUE's
    assert matthews_corrcoef(["0", "1"], ["1", "0"]) == pytest.approx(-1.0)


def test_binary_f1_by_hand() -> None:
    # TP 2, FP 1, FN 1: 2*2 / (2*2 + 1 + 1)
    assert binary_f1(["1", "1", "1", "0"], ["1", "0", "1", "1"]) == pytest.approx(2 / 3)
    assert binary_f1(["1", "0"], ["0", "0"]) == 0.0


def test_pearson_and_spearman_by_hand() -> None:
    # deviations -1.5 -.5 .5 1.5 and -3.25 -1.25 .75 3.75: 11.5 / sqrt(5 * 26.75)
    assert pearson([1, 2, 3, 4], [2, 4, 6, 9]) == pytest.approx(11.5 / (5 * 26.75) ** 0.5)
    assert spearman([1, 2, 3, 4], [2, 4, 6, 9]) == pytest.approx(1.0)
    # ties take the mean rank: gold ranks 1 2.5 2.5 4, predicted 1 3 2 4 -> 4.5 / sqrt(4.5 * 5)
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(4.5 / (4.5 * 5) ** 0.5)


def test_glue_average_with_two_metric_tasks() -> None:
    # CoLA 0.5; MRPC (0.9 + 0.8)/2 = 0.85; MNLI m/mm (0.8 + 0.7)/2 = 0.75; STS-B 0.87
    scores = {
        "cola": {"mcc": 0.5},
        "mrpc": {"f1": 0.9, "accuracy": 0.8},
        "mnli": {"accuracy": 0.8},
        "mnli_mm": {"accuracy": 0.7},
        "stsb": {"pearson": 0.88, "spearman": 0.86},
    }
    assert suite_average(scores, GLUE.merged) == pytest.approx((0.5 + 0.85 + 0.75 + 0.87) / 4)


def test_glue_table_means_seeds_then_averages_tasks() -> None:
    tasks = [t for t in GLUE_TASKS if t.name in ("mrpc", "stsb")]

    def score(task: str, seed: int, metrics: dict) -> dict:
        return {
            "model": "m",
            "setting": "zero-shot",
            "seed": seed,
            "task": task,
            "metrics": metrics,
        }

    table = metrics_table(
        [
            score("mrpc", 1, {"f1": 0.90, "accuracy": 0.80}),
            score("mrpc", 2, {"f1": 0.80, "accuracy": 0.70}),
            score("stsb", 1, {"pearson": 0.60, "spearman": 0.50}),
            score("stsb", 2, {"pearson": 0.70, "spearman": 0.60}),
        ],
        tasks,
        GLUE,
    )
    row = table.iloc[0]
    # MRPC: f1 85, acc 75 -> 80; STS-B: pearson 65, spearman 55 -> 60; GLUE 70
    assert row["mrpc_f1"] == pytest.approx(85.0)
    assert row["stsb_spearman"] == pytest.approx(55.0)
    assert row["avg"] == pytest.approx(70.0)


def test_the_glue_average_is_the_xlmr_tables_six_tasks_cola_and_rte_outside() -> None:
    """XLM-R Table 4 averages MNLI-m/mm, QNLI, QQP, SST-2, MRPC, STS-B: CoLA and RTE, when run,
    enter only ``avg_all``."""
    tasks = [t for t in GLUE_TASKS if t.name in ("sst2", "cola", "rte")]

    def score(task: str, metrics: dict) -> dict:
        return {"model": "m", "setting": "zero-shot", "seed": 1, "task": task, "metrics": metrics}

    table = metrics_table(
        [
            score("sst2", {"accuracy": 0.9}),
            score("cola", {"mcc": 0.5}),
            score("rte", {"accuracy": 0.7}),
        ],
        tasks,
        GLUE,
    )
    row = table.iloc[0]
    assert row["avg"] == pytest.approx(90.0)
    assert row["avg_all"] == pytest.approx((90.0 + 50.0 + 70.0) / 3)
    markdown = metrics_markdown(table, tasks, GLUE)
    assert "| SST-2 | CoLA | RTE | avg | avg_all |" in markdown  # the XLM-R table's order
    assert "avg_all: over every task run, CoLA and RTE included" in markdown


def test_the_published_glue_average_is_compared_only_over_the_same_six_tasks() -> None:
    from mte.steps.summary import metrics_with_references

    reference = {
        "paper": "xlmr-paper", "table": "Table 4", "protocol": "GLUE dev", "source": "its text",
        "model": "m", "task": "glue", "setting": "zero-shot", "metric": "score",
        "values": {"sst2": 95.0, "stsb": 91.2}, "average": 91.8,
    }  # fmt: skip
    tasks = [t for t in GLUE_TASKS if t.name in ("sst2", "stsb")]
    score = {"model": "m", "setting": "zero-shot", "seed": 1}
    table = metrics_table(
        [
            {**score, "task": "sst2", "metrics": {"accuracy": 0.9}},
            {**score, "task": "stsb", "metrics": {"pearson": 0.8, "spearman": 0.7}},
        ],
        tasks,
        GLUE,
    )
    rows = metrics_with_references(table, [reference], tasks, GLUE)
    published, delta = rows.iloc[1], rows.iloc[2]
    assert published["sst2_accuracy"] == 95.0 and pd.isna(published["stsb_pearson"])
    assert published["avg"] == 91.8 and pd.isna(delta["avg"])
    assert delta["sst2_accuracy"] == pytest.approx(-5.0)
    assert published["reference"].endswith("(avg over its six tasks)")
