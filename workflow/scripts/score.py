"""Rule score: predictions against the gold file, with provenance."""

from mte.io import write_json
from mte.registry import get_task
from mte.runtime.logs import rule_logging
from mte.steps.provenance import result_provenance
from mte.steps.scoring import score_record

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
    # a retrieval task's encoder is the pretrained model unless it embeds with a fine-tune
    finetuned = None if inp.model == inp.base_model else inp.model
    record["provenance"] = result_provenance(
        inp.base_model,
        finetuned,
        inp.data_meta,
        code=snakemake.params.code,
        predicted_on=inp.machine,
    )
    if snakemake.params.in_context:
        # what the in-context setting showed the model: k demonstrations drawn with the seed
        record["provenance"]["in_context"] = {
            **snakemake.params.in_context,
            "prompt_source": task.prompt.source,
        }
    # the per-example predictions behind the score (their format: docs/outputs.md)
    record["predictions"] = str(inp.predictions)
    write_json(snakemake.output[0], record)
    log.info("%s", record["metrics"])
