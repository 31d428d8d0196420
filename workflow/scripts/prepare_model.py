"""Rule prepare_model: a config model entry as a Hugging Face folder."""

from mte.hub.models import prepare_model
from mte.runtime.logs import rule_logging, summary

with rule_logging(snakemake) as log:
    record = prepare_model(snakemake.params.model, snakemake.output[0])
    log.info("prepared %s", record)
    summary(f"model {snakemake.params.model['name']} ready in {snakemake.output[0]}")
