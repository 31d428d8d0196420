"""Rule score: predictions against the gold file, with provenance."""

from mte.io import write_json
from mte.logs import rule_logging
from mte.provenance import result_provenance
from mte.scoring import score_files
from mte.tasks import get_task

with rule_logging(snakemake) as log:
    wc, inp = snakemake.wildcards, snakemake.input
    result = score_files(get_task(wc.task), inp.predictions, inp.gold, wc.lang)
    record = {
        "task": wc.task,
        "language": wc.lang,
        "model": wc.model,
        "setting": wc.setting,
        "seed": int(wc.seed),
        "split": snakemake.params.split,
        **result,
        "provenance": result_provenance(inp.base_model, inp.model, inp.data_meta),
    }
    write_json(snakemake.output[0], record)
    log.info("%s", result["metrics"])
