"""Rule retrieve: Tatoeba neighbours or BUCC candidate pairs from the pretrained encoder."""

from mte.io import read_jsonl, write_jsonl
from mte.logs import rule_logging
from mte.retrieve import mine_bucc, retrieve_tatoeba
from mte.tasks import get_task

with rule_logging(snakemake) as log:
    task, params = get_task(snakemake.wildcards.task), snakemake.params
    splits = {
        split: read_jsonl(snakemake.input[split])
        for split in ("dev", "test")
        if split in snakemake.input.keys()
    }
    if task.family == "mining":
        records = mine_bucc(
            snakemake.input.model,
            splits,
            params.layers,
            params.batch_size,
            device=params.device,
            precision=params.precision,
        )
    else:
        (examples,) = splits.values()
        records = retrieve_tatoeba(
            snakemake.input.model,
            examples,
            params.layers,
            params.batch_size,
            device=params.device,
            precision=params.precision,
        )
    write_jsonl(snakemake.output[0], records)
    log.info("%d records", len(records))
