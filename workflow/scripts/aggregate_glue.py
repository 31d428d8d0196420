"""Rule aggregate_glue: the GLUE tasks' score files into one table with the GLUE average."""

from mte.io import read_json, write_text
from mte.logs import rule_logging
from mte.references import load_references
from mte.tables import glue_markdown, glue_table, glue_with_references
from mte.tasks import get_task

with rule_logging(snakemake) as log:
    tasks = [get_task(name) for name in snakemake.params.tasks]
    scores = [read_json(path) for path in snakemake.input.scores]
    table = glue_table(scores, tasks)
    table = glue_with_references(table, load_references(snakemake.input.references), tasks)
    write_text(snakemake.output.csv, table.to_csv(index=False, float_format="%.2f"))
    write_text(snakemake.output.md, glue_markdown(table, tasks))
    log.info("%d rows", len(table))
