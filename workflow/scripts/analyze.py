"""Rule analyze: the run's analyses (mte.analyses) as CSV files and the report's page."""

from pathlib import Path

from mte.analyses import analyses, analyses_document
from mte.io import read_json, write_text
from mte.logs import rule_logging
from mte.render import html

with rule_logging(snakemake) as log:
    records = [read_json(path) for path in snakemake.input.scores]
    tables = analyses(records)
    for path in snakemake.output.tables:
        write_text(path, tables[Path(path).stem].to_csv(index=False))
    write_text(snakemake.output.page, html(analyses_document(tables, snakemake.wildcards.run)))
    log.info(
        "analyses of %d score files: %s",
        len(records),
        ", ".join(f"{name} {len(table)} rows" for name, table in tables.items()),
    )
