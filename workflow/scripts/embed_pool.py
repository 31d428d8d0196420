"""Rule embed_pool: one pooled retrieval task's pool (LAReQA: every configured language's answer
sentences), embedded once for every language's questions to search."""

import numpy as np

from mte.io import read_jsonl, write_json
from mte.logs import rule_logging, summary
from mte.registry import family_of, get_task

with rule_logging(snakemake) as log:
    task, params = get_task(snakemake.wildcards.task), snakemake.params
    per_language = {
        language: read_jsonl(path)
        for language, path in zip(params.languages, snakemake.input.data, strict=True)
    }
    options = {
        "layers": params.layers,
        "batch_size": params.batch_size,
        "device": params.device,
        "precision": params.precision,
    }
    pool = family_of(task).build_pool(snakemake.input.model, per_language, options)
    with open(snakemake.output.vectors, "wb") as out:
        np.savez(out, **pool.pop("vectors"))
    write_json(snakemake.output.index, pool)
    summary(f"{len(pool['candidates'])} candidates of {len(per_language)} languages")
