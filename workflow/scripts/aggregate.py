"""Rule aggregate: a task's score files into its table (CSV and Markdown)."""

from mte.io import read_json, write_text
from mte.logs import rule_logging
from mte.tables import pair_matrix_markdown, task_table, to_markdown, with_second_metric
from mte.tasks import get_task

with rule_logging(snakemake) as log:
    task = get_task(snakemake.wildcards.task)
    languages = snakemake.params.languages
    scores = [read_json(path) for path in snakemake.input]
    table = task_table(scores, languages, task.primary_metric)
    title = f"{task.title} ({task.primary_metric}, %)"
    second = None
    if task.family == "qa":  # the papers print QA cells as F1 / EM
        second = "em"
        table = with_second_metric(table, task_table(scores, languages, "exact_match"), second)
        title = f"{task.title} (F1 / EM, %)"
    write_text(snakemake.output.csv, table.to_csv(index=False, float_format="%.2f"))
    if task.name == "mlqa_gxlt":
        markdown = pair_matrix_markdown(table, languages, title)
    else:
        markdown = to_markdown(table, languages, title, second)
    write_text(snakemake.output.md, markdown)
    log.info("%d rows", len(table))
