"""Rule score: predictions against the gold file, with provenance."""

from mte.io import write_json
from mte.logs import rule_logging
from mte.provenance import result_provenance
from mte.registry import family_of, get_task
from mte.scoring import score_record

with rule_logging(snakemake) as log:
    wc, inp = snakemake.wildcards, snakemake.input
    task = get_task(wc.task)
    record = score_record(
        task,
        inp.predictions,
        inp.gold,
        {"model": wc.model, "setting": wc.setting, "seed": wc.seed, "language": wc.lang},
        snakemake.params.split,
        snakemake.params.statistics,
        dev_gold_path=inp.dev_gold or None,
    )
    retrieval = family_of(task).retrieval
    record["provenance"] = result_provenance(
        inp.base_model, None if retrieval else inp.model, inp.data_meta
    )
    write_json(snakemake.output[0], record)
    log.info("%s", record["metrics"])
