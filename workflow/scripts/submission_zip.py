"""Rule submission_zip: a submission folder as its zip; a folder that lacks tasks or languages
only where submission.zip_incomplete asks (mte.submission.export)."""

from mte.runtime.logs import rule_logging
from mte.submission.export import zip_submission

with rule_logging(snakemake) as log:
    zip_submission(snakemake.input[0], snakemake.output[0], snakemake.params.incomplete)
    log.info("written %s", snakemake.output[0])
