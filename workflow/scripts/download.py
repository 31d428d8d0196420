"""Rule download: one task x language x split from its source into canonical JSON Lines."""

from mte.data import materialize
from mte.io import sha256_file, write_json, write_jsonl
from mte.logs import rule_logging
from mte.tasks import get_task

with rule_logging(snakemake) as log:
    wc = snakemake.wildcards
    examples, origin = materialize(get_task(wc.task), snakemake.params.source, wc.lang, wc.split)
    count = write_jsonl(snakemake.output.data, examples)
    origin.update(count=count, sha256_jsonl=sha256_file(snakemake.output.data))
    write_json(snakemake.output.meta, origin)
    log.info("%d examples from %s", count, origin)
