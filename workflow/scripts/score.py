"""Rule score: predictions against the gold file, with provenance."""

from mte.io import write_json
from mte.logs import rule_logging
from mte.provenance import result_provenance
from mte.scoring import score_files
from mte.statistics import interval_record, resample_seed
from mte.tasks import get_task

with rule_logging(snakemake) as log:
    wc, inp = snakemake.wildcards, snakemake.input
    task = get_task(wc.task)
    result = score_files(
        task,
        inp.predictions,
        inp.gold,
        wc.lang,
        dev_gold_path=inp.dev_gold or None,
        eval_split=snakemake.params.split,
    )
    retrieval = task.family in ("retrieval", "mining")
    stats = result.pop("example_stats", None)
    options = snakemake.params.statistics
    interval = None
    if stats is not None:
        seed = resample_seed(task, options["seed"], wc.lang)
        interval = interval_record(task, stats, options["resamples"], seed, options["confidence"])
    record = {
        "task": wc.task,
        "language": wc.lang,
        "model": wc.model,
        "setting": wc.setting,
        "seed": int(wc.seed),
        "split": snakemake.params.split,
        **result,
        "interval": interval,
        # per test example, in gold order: what paired significance tests resample
        "example_stats": None if stats is None else stats.tolist(),
        "provenance": result_provenance(
            inp.base_model, None if retrieval else inp.model, inp.data_meta
        ),
    }
    write_json(snakemake.output[0], record)
    log.info("%s", result["metrics"])
