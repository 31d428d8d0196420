"""Rule analyze: the run's analyses (mte.steps.analyses) as CSV files and the report's page."""

from pathlib import Path

from mte.io import read_json, write_text
from mte.runtime.logs import rule_logging
from mte.steps.analyses import analyses, analyses_document, predictions_index
from mte.tables.notes import demo_warning, label_demo
from mte.tables.render import html

with rule_logging(snakemake) as log:
    records = [read_json(path) for path in snakemake.input.scores]
    tables = analyses(records)
    demo = set(snakemake.params.demo_tasks)
    # demo numbers: labelled in every file and on the report's page
    warning = demo_warning([r for r in records if r["task"] in demo]) if demo else None
    for path in snakemake.output.tables:
        text = tables[Path(path).stem].to_csv(index=False)
        write_text(path, label_demo({"csv": text}, warning)["csv"] if warning else text)
    write_text(snakemake.output.predictions, predictions_index(records).to_csv(index=False))
    document = analyses_document(tables, snakemake.wildcards.run)
    write_text(snakemake.output.page, html(document, warning=warning))
    log.info(
        "analyses of %d score files: %s",
        len(records),
        ", ".join(f"{name} {len(table)} rows" for name, table in tables.items()),
    )
