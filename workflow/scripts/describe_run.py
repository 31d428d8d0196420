"""Rule describe_run: the run's provenance (models, packages, hardware) as one HTML page, the
index of its score files (what mte-leaderboard reads of the run), and results.json (every score
of the run in one file)."""

from mte.io import read_json, write_json, write_text
from mte.leaderboard.runs import scores_index
from mte.runtime.logs import rule_logging
from mte.steps.run_results import run_results
from mte.tables.notes import provenance_document
from mte.tables.render import html

with rule_logging(snakemake) as log:
    paths = list(snakemake.input.scores)
    scores = [read_json(path) for path in paths]
    page = html(provenance_document(scores, snakemake.wildcards.run))
    write_text(snakemake.output.page, page)
    write_text(snakemake.output.index, scores_index(scores, paths).to_csv(index=False))
    write_json(snakemake.output.results, run_results(snakemake.wildcards.run, scores, paths))
    log.info("provenance of %d score files", len(scores))
