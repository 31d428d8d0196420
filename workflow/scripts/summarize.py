"""Rule summarize: a suite's tables (GLUE, XTREME's summary: a spec's SUITES) from its tasks' score
files, with the published rows beside the models that have them."""

from mte.io import read_json, write_text
from mte.published import load_references
from mte.registry import get_suite
from mte.runtime.logs import rule_logging
from mte.steps.summary import summarize

with rule_logging(snakemake) as log:
    suite = get_suite(snakemake.wildcards.suite)
    scores = [read_json(path) for path in snakemake.input.scores]
    references = load_references(snakemake.input.references)
    tables = summarize(
        suite,
        snakemake.params.tasks,
        scores,
        references,
        snakemake.params.demo_tasks,
        snakemake.params.skipped,
        snakemake.params.left_out,
    )
    for extension, text in tables.items():
        write_text(snakemake.output[extension], text)
    log.info("%s: %d score files of %s", suite.name, len(scores), ", ".join(snakemake.params.tasks))
