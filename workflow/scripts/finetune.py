"""Rule finetune: one model x task x setting x seed, selected on the English dev set."""

from mte.finetune import finetune_classifier
from mte.logs import rule_logging

with rule_logging(snakemake) as log:
    record = finetune_classifier(
        model_dir=snakemake.input.model,
        train_path=snakemake.input.train,
        dev_path=snakemake.input.dev,
        out_dir=snakemake.output[0],
        checkpoint_dir=snakemake.params.checkpoints,
        hp=snakemake.params.hp,
        seed=int(snakemake.wildcards.seed),
    )
    log.info("selected %s", record["selected"])
