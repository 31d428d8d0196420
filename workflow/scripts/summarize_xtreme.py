"""Rule summarize_xtreme: per-task averages, their mean and the transfer gaps, with XTREME's
published task scores beside the models that have them."""

from mte.io import read_json, write_text
from mte.logs import rule_logging
from mte.references import load_references
from mte.summary import (
    XTREME_TASKS,
    summary_markdown,
    summary_title,
    summary_with_references,
    xtreme_summary,
)
from mte.tables import to_latex
from mte.tasks import get_task

with rule_logging(snakemake) as log:
    tasks = snakemake.params.tasks
    scores = [read_json(path) for path in snakemake.input.scores]
    table = xtreme_summary(scores, tasks)
    table = summary_with_references(table, load_references(snakemake.input.references), tasks)
    # the CSV says which of XTREME's tasks its average covers, in every row
    table["averaged"] = " ".join(tasks)
    table["missing"] = " ".join(t for t in XTREME_TASKS if t not in tasks)
    write_text(snakemake.output.csv, table.to_csv(index=False, float_format="%.2f"))
    write_text(snakemake.output.md, summary_markdown(table, tasks))
    latex = to_latex(
        table.rename(columns={t: get_task(t).title for t in tasks}),
        [get_task(t).title for t in tasks],
        summary_title(tasks) + ": mean over each task's languages",
    )
    write_text(snakemake.output.tex, latex)
    log.info("%d rows", len(table))
