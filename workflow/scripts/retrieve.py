"""Rule retrieve: Tatoeba neighbours, BUCC candidate pairs, LAReQA answers or Mewsli-X entities
from the pretrained encoder (or, for Tatoeba and BUCC, another task's fine-tune of it)."""

from mte.io import read_jsonl, write_json, write_jsonl
from mte.registry import family_of, get_task
from mte.runtime.logs import rule_logging, summary
from mte.steps.provenance import prediction_machine

with rule_logging(snakemake) as log:
    task, params = get_task(snakemake.wildcards.task), snakemake.params
    splits = {
        split: read_jsonl(snakemake.input[split])
        for split in ("dev", "test")
        if split in snakemake.input.keys()
    }
    options = {
        # layers, batch_size, tokenization, do_lower_case (read lower-cased where the encoder's
        # fine-tune read its texts so): the plan's (mte.config.plan.inputs.retrieval_options)
        **params.options,
        "device": params.device,
        "precision": params.precision,
        # the pretrained model's record says how it embeds, a fine-tune of it included
        "base_model": snakemake.input.base_model,
    }
    if "pool_index" in snakemake.input.keys():
        # a pooled task (LAReQA): the pool every language's questions search, embedded once
        options["pool"] = {
            "index": snakemake.input.pool_index,
            "vectors": snakemake.input.pool_vectors,
        }
    records = family_of(task).retrieve(snakemake.input.model, splits, options)
    write_jsonl(snakemake.output[0], records)
    write_json(snakemake.output.machine, prediction_machine(params.device, params.precision))
    summary(f"{len(records)} records")
