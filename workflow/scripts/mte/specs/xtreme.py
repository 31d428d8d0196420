"""XTREME's summary (Hu et al. 2020, Table 2): one score per task over its languages, their
mean, and the cross-lingual transfer gap (Table 3). Its tasks have their own spec modules."""

from mte.taskspec import Suite

TASKS = ()

SUITES = (
    Suite(
        name="xtreme_summary",
        title="XTREME summary",
        short="XTREME",
        note="QA: (F1 + EM) / 2; UD-POS: seqeval F1; %",
        # its nine tasks in its Table 2 order
        tasks=("xnli", "pawsx", "udpos", "panx", "xquad", "mlqa", "tydiqa", "bucc", "tatoeba"),
        layout="task_score",
        # XTREME's own task scores
        published=("xtreme", "Table 2"),
    ),
)
