"""GLUE (Wang et al. 2019): English only, scored on dev (the test labels are not public), as
the XLM-R paper's Table 4 reports it."""

from mte.families.pairs import PairOptions
from mte.specs._hub import GLUE
from mte.specs._templates import HUB_SPLITS
from mte.tasks.spec import Suite, Task

# the GLUE release's files of each task (path: e.g. glue_data/MRPC)
GLUE_FILES = {"train": ("train.tsv",), "dev": ("dev.tsv",), "test": ("test.tsv",)}


def glue_task(name: str, title: str, options: PairOptions, **fields) -> Task:
    """A GLUE task: English only, scored on dev (the test labels are not public); ``options``:
    its columns in the GLUE release and on the hub, and its labels' spellings."""
    defaults = dict(
        options=options,
        name=name,
        title=title,
        family="pair_classification",
        languages=("en",),
        labels=("0", "1"),
        primary_metric="accuracy",
        hub_id="nyu-mll/glue",
        hub_repos=(GLUE,),
        hub_splits=HUB_SPLITS,
        hub_configs={"en": ("nyu-mll/glue", name.replace("_mm", ""))},
        default_eval_split="dev",
        files=GLUE_FILES,
        group="glue",
        reference="Wang et al. 2019 (GLUE); XLM-R Table 4 (dev)",
        no_release="the hub's nyu-mll/glue holds every task",
    )
    return Task(**{**defaults, **fields})


def mnli_task(name: str, title: str, dev_set: str, **fields) -> Task:
    """MNLI, one task per dev set (matched: the training genres; mismatched: others)."""
    return glue_task(
        name,
        title,
        PairOptions(hub_text_columns=("premise", "hypothesis")),
        labels=("entailment", "neutral", "contradiction"),
        hub_splits={**HUB_SPLITS, "dev": f"validation_{dev_set}", "test": f"test_{dev_set}"},
        files={**GLUE_FILES, "dev": (f"dev_{dev_set}.tsv",), "test": (f"test_{dev_set}.tsv",)},
        **fields,
    )


GLUE_TASKS = (
    glue_task(
        "cola",
        "CoLA",
        PairOptions(
            hub_text_columns=("sentence",),
            label_aliases={"unacceptable": "0", "acceptable": "1"},
            # train/dev.tsv: source, label, original label, sentence; no header
            headerless_fields=(4, 3, None, 1),
            table_columns=("sentence", None, "label"),
        ),
        primary_metric="mcc",
        metrics=("mcc",),
    ),
    glue_task(
        "sst2",
        "SST-2",
        PairOptions(
            hub_text_columns=("sentence",),
            label_aliases={"negative": "0", "positive": "1"},
            table_columns=("sentence", None, "label"),
        ),
    ),
    glue_task(
        "mrpc",
        "MRPC",
        PairOptions(
            hub_text_columns=("sentence1", "sentence2"),
            label_aliases={"not_equivalent": "0", "equivalent": "1"},
            table_columns=("#1 String", "#2 String", "Quality"),
        ),
        primary_metric="f1",
        metrics=("f1", "accuracy"),
    ),
    glue_task(
        "qqp",
        "QQP",
        PairOptions(
            hub_text_columns=("question1", "question2"),
            label_aliases={"not_duplicate": "0", "duplicate": "1"},
            table_columns=("question1", "question2", "is_duplicate"),
        ),
        primary_metric="f1",
        metrics=("f1", "accuracy"),
    ),
    glue_task(
        "stsb",
        "STS-B",
        PairOptions(
            hub_text_columns=("sentence1", "sentence2"),
            table_columns=("sentence1", "sentence2", "score"),
        ),
        family="regression",
        labels=(),
        primary_metric="pearson",
        metrics=("pearson", "spearman"),
    ),
    mnli_task("mnli", "MNLI-m", "matched"),
    mnli_task("mnli_mm", "MNLI-mm", "mismatched", models_of="mnli"),
    glue_task(
        "qnli",
        "QNLI",
        PairOptions(
            hub_text_columns=("question", "sentence"),
            table_columns=("question", "sentence", "label"),
        ),
        labels=("entailment", "not_entailment"),
    ),
    glue_task(
        "rte",
        "RTE",
        PairOptions(
            hub_text_columns=("sentence1", "sentence2"),
            table_columns=("sentence1", "sentence2", "label"),
        ),
        labels=("entailment", "not_entailment"),
    ),
)

# the column order of the XLM-R paper's GLUE table (Table 4), CoLA and RTE after it
GLUE_ORDER = ("mnli", "mnli_mm", "qnli", "qqp", "sst2", "mrpc", "cola", "stsb", "rte")
GLUE_TASKS = tuple(sorted(GLUE_TASKS, key=lambda task: GLUE_ORDER.index(task.name)))


TASKS = GLUE_TASKS

SUITES = (
    Suite(
        name="glue",
        title="GLUE",
        short="GLUE",
        note="dev, %",
        tasks=GLUE_ORDER,
        layout="metrics",
        published=("xlmr-paper", "Table 4"),
        # MNLI's matched and mismatched accuracies are one GLUE task with two metrics
        merged={"mnli_mm": "mnli"},
        # the six tasks the XLM-R paper's GLUE table (Table 4) averages; CoLA and RTE, when
        # run, enter a second average only
        averaged=("mnli", "mnli_mm", "qnli", "qqp", "sst2", "mrpc", "stsb"),
        average_note=(
            "the mean over the XLM-R paper's Table 4 tasks run here (MNLI-m/mm, QNLI, QQP, "
            "SST-2, MRPC, STS-B; a task with two metrics scores their mean)"
        ),
    ),
)
