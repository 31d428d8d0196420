"""Rule describe_run: the run's provenance (models, packages, hardware) as one HTML page, and
the index of its score files (what mte-leaderboard reads of the run)."""

from mte.io import read_json, write_text
from mte.leaderboard.runs import scores_index
from mte.runtime.logs import rule_logging
from mte.tables.notes import provenance_document
from mte.tables.render import html

with rule_logging(snakemake) as log:
    paths = list(snakemake.input.scores)
    scores = [read_json(path) for path in paths]
    page = html(provenance_document(scores, snakemake.wildcards.run))
    write_text(snakemake.output.page, page)
    write_text(snakemake.output.index, scores_index(scores, paths).to_csv(index=False))
    log.info("provenance of %d score files", len(scores))
