"""Rules download and translate: one task x language x split from its source into canonical
JSON Lines (translate, for a split translated by a model: from the original split's file, with
the translation model). A download is held to the run's data lock (mte.hub.lock)."""

from pathlib import Path

from mte.hub.lock import check_download, entry_of
from mte.io import sha256_file, write_json, write_jsonl
from mte.modelling.translation import translate_file
from mte.registry import get_task
from mte.runtime.logs import rule_logging, summary
from mte.steps.data import materialize, read_notes

with rule_logging(snakemake) as log:
    wc, params = snakemake.wildcards, snakemake.params
    if snakemake.input.get("original"):
        examples, origin = translate_file(
            snakemake.input.original,
            params.translation["options"],
            tuple(params.translation["languages"]),
            model_dir=snakemake.input.get("translator"),
            device=params.device,
        )
    else:
        task = get_task(wc.task)
        examples, origin = materialize(task, params.source, wc.lang, wc.split)
    count = write_jsonl(snakemake.output.data, examples)
    origin.update(count=count, sha256_jsonl=sha256_file(snakemake.output.data))
    if not snakemake.input.get("original"):
        try:
            state = check_download(
                params.lock["path"],
                wc.task,
                params.lock["source"],
                f"{wc.lang}/{wc.split}",
                entry_of(origin),
                snakemake.output.data,
                # the one value a script reads from the config: as a param, an update's
                # true and the next run's false would each rerun every download
                accept=bool(snakemake.config.get("update_lock")),
            )
        except Exception:
            Path(snakemake.output.data).unlink(missing_ok=True)  # keep nothing
            raise
        origin["lock"] = {"file": params.lock["path"], "state": state}
    write_json(snakemake.output.meta, origin)
    log.info("%d examples from %s", count, origin)
    line, warnings = read_notes(origin, wc.lang, wc.split)
    summary(f"{count} examples ({line})")
    for warning in warnings:
        log.warning("%s", warning)
