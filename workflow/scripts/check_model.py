"""Rule check_model: the run's tasks against the model's architecture, before any job reads it."""

from mte.io import write_json
from mte.runtime.logs import rule_logging, summary
from mte.steps.models import check_model_folder

with rule_logging(snakemake) as log:
    params = snakemake.params
    record = check_model_folder(snakemake.input[0], params.model_name, params.needs)
    write_json(snakemake.output[0], record)
    log.info("checked %s", record)
    summary(f"model {params.model_name}: {len(record['served'])} task(s) its architecture serves")
