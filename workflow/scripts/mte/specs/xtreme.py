"""XTREME's summary (Hu et al. 2020, Table 2): one score per task over its languages, their
mean, and the cross-lingual transfer gap (Table 3); and XTREME-R's (Ruder et al. 2021), as its
evaluate.py forms it. Their tasks have their own spec modules."""

from mte.specs.panx import PANX_LANGUAGES
from mte.specs.panx import XTREME_R_ADDITIONS as PANX_ADDITIONS
from mte.specs.tatoeba import TATOEBA_CODES, XTREME_R_CODES
from mte.specs.udpos import UDPOS_LANGUAGES
from mte.specs.udpos import XTREME_R_ADDITIONS as UDPOS_ADDITIONS
from mte.specs.xquad import XQUAD_LANGUAGES
from mte.specs.xquad import XTREME_R_ADDITIONS as XQUAD_ADDITIONS
from mte.tasks.spec import Suite

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
        # its leaderboard: evaluate.py --xtreme_version xtreme, whose XTREME_GROUP2TASK
        # (l. 118-123) averages four groups
        submission="xtreme",
        submission_groups=(
            ("classification", ("pawsx", "xnli")),
            ("tagging", ("udpos", "panx")),
            ("qa", ("xquad", "mlqa", "tydiqa")),
            ("retrieval", ("bucc", "tatoeba")),
        ),
    ),
    Suite(
        name="xtreme_r",
        title="XTREME-R summary",
        short="XTREME-R",
        note="QA: (F1 + EM) / 2; UD-POS and PAN-X: seqeval F1; LAReQA and Mewsli-X: mAP@20; %",
        # google-research/xtreme master evaluate.py XTREME_R_TASK2LANGS (l. 160-176): its ten
        # tasks, in the order of the paper's categories; the average over all ten is its
        # 'all_task' (evaluate.py forms it only when every task is there, and cannot score
        # LAReQA, whose language list it leaves empty: the project scores it)
        tasks=(
            "xnli",
            "xcopa",
            "udpos",
            "panx",
            "xquad",
            "mlqa",
            "tydiqa",
            "tatoeba",
            "mewslix",
            "lareqa",
        ),  # fmt: skip
        layout="task_score",
        # the languages evaluate.py scores where they are not the task's default set (LAReQA:
        # XQuAD-R's 11, the task's default, as the paper's Table 2 reports it)
        languages={
            "panx": (*PANX_LANGUAGES, *PANX_ADDITIONS),
            "udpos": (*UDPOS_LANGUAGES, *UDPOS_ADDITIONS),
            "tatoeba": (*TATOEBA_CODES, *XTREME_R_CODES),
            "xquad": (*XQUAD_LANGUAGES, *XQUAD_ADDITIONS),
        },
        # evaluate.py XTREME_R_GROUP2TASK (l. 126-132): a group's score is the mean of its
        # tasks' where all are run; XCOPA counts twice, LAReQA in none
        groups=(
            ("classification", ("xnli", "xcopa")),
            ("tagging", ("udpos", "panx")),
            ("qa", ("xquad", "mlqa", "tydiqa")),
            ("retrieval", ("tatoeba", "mewslix")),
            ("multi_choice", ("xcopa",)),
        ),
        # no readable source of XTREME-R's tables is at hand: no published row yet
        published=("xtreme-r", "Table 2"),
        # written for a config that runs a task XTREME has not, or takes XTREME-R's
        # languages (config/xtreme-r.yaml); not for every config with XNLI or MLQA
        opt_in_tasks=("xcopa", "mewslix", "lareqa"),
        # evaluate.py --xtreme_version xtreme-r, averaging the groups above
        submission="xtreme-r",
    ),
)
