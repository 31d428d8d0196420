"""Rule fetch_release: a task's released files, downloaded, checked and extracted."""

from mte.hub.release import fetch_release, mirror_base
from mte.io import write_json
from mte.registry import get_task
from mte.runtime.logs import rule_logging, summary

with rule_logging(snakemake) as log:
    params = snakemake.params
    task = get_task(snakemake.wildcards.task)
    record = fetch_release(
        task.release, params.languages, params.folder, base=mirror_base(params.mirror)
    )
    write_json(snakemake.output[0], record)
    fetched = sum(1 for f in record["files"] if f["downloaded"])
    log.info("%s", record)
    summary(f"{len(record['files'])} released files ({fetched} downloaded now)")
