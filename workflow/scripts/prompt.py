"""Rule prompt: one language's test set answered in context by a pretrained decoder."""

from mte.io import write_json, write_jsonl
from mte.registry import get_task
from mte.runtime.logs import rule_logging, summary
from mte.steps.prompting import prompted_records
from mte.steps.provenance import prediction_machine

with rule_logging(snakemake) as log:
    records = prompted_records(
        get_task(snakemake.wildcards.task),
        snakemake.input.model,
        snakemake.input.demonstrations,
        snakemake.input.test,
        snakemake.params.options,
        int(snakemake.wildcards.seed),
        device=snakemake.params.device,
        precision=snakemake.params.precision,
    )
    write_jsonl(snakemake.output[0], records)
    write_json(
        snakemake.output.machine,
        prediction_machine(snakemake.params.device, snakemake.params.precision),
    )
    summary(f"{len(records)} predictions in context")
