"""Rule pseudo_test_table: translation quality of the pseudo test sets and the model's score on
them against the human test sets, per language, with Pearson's r across languages."""

from mte.io import read_json, read_jsonl, write_json, write_text
from mte.registry import family_of, get_task
from mte.runtime.logs import rule_logging
from mte.steps.pseudo_test import pseudo_test_markdown, pseudo_test_rows, pseudo_test_table

with rule_logging(snakemake) as log:
    task = get_task(snakemake.wildcards.task)
    inp = snakemake.input
    rows = pseudo_test_rows(
        task,
        snakemake.params.languages,
        human_scores=[read_json(path) for path in inp.human],
        pseudo_scores=[read_json(path) for path in inp.pseudo],
        human_data=[read_jsonl(path) for path in inp.human_data],
        pseudo_data=[read_jsonl(path) for path in inp.pseudo_data],
        segments=lambda example: family_of(task).segments(task, example),
    )
    table, correlations = pseudo_test_table(rows)
    write_text(snakemake.output.csv, table.to_csv(index=False, float_format="%.2f"))
    write_text(
        snakemake.output.md,
        pseudo_test_markdown(table, correlations, task.title, task.primary_metric),
    )
    write_json(snakemake.output.json, {"rows": rows, "correlations": correlations})
    log.info("%s", correlations)
