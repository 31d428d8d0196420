"""Rule describe_run: the run's provenance (models, packages, hardware) as one HTML page."""

from mte.io import read_json, write_text
from mte.logs import rule_logging
from mte.render import html
from mte.report import provenance_document

with rule_logging(snakemake) as log:
    scores = [read_json(path) for path in snakemake.input.scores]
    write_text(snakemake.output[0], html(provenance_document(scores, snakemake.wildcards.run)))
    log.info("provenance of %d score files", len(scores))
