"""Rule embed_pool: one pooled retrieval task's pool (LAReQA: every configured language's answer
sentences; Mewsli-X: its candidate set), embedded once for every language's queries to search."""

import numpy as np

from mte.errors import MteError
from mte.io import write_json
from mte.registry import family_of, get_task
from mte.runtime.logs import rule_logging, summary

with rule_logging(snakemake) as log:
    task, params = get_task(snakemake.wildcards.task), snakemake.params
    options = {
        # layers, batch_size, tokenization, do_lower_case (read lower-cased where the encoder's
        # fine-tune read its texts so): the plan's (mte.config.plan.inputs.retrieval_options)
        **params.options,
        "device": params.device,
        "precision": params.precision,
        # the pretrained model's record says how it embeds, a fine-tune of it included
        "base_model": snakemake.input.base_model,
    }
    inputs, languages = list(snakemake.input.data), list(params.languages)
    if not inputs:
        raise MteError(f"{task.title}: its pool's files are not there yet: {task.manual_step}")
    pool = family_of(task).build_pool(snakemake.input.model, inputs, languages, options)
    with open(snakemake.output.vectors, "wb") as out:
        np.savez(out, **pool.pop("vectors"))
    write_json(snakemake.output.index, pool)
    summary(f"{len(pool['candidates'])} candidates")
