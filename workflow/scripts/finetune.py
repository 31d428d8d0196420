"""Rule finetune: one model x task x setting x seed (x language for in-language and
translate-train)."""

from mte.modelling.hyperparameters import HyperParameters
from mte.runtime.logs import announce, rule_logging, summary
from mte.steps.finetune import finetune, selection_summary

with rule_logging(snakemake) as log:
    announce("log: %s", snakemake.log[0])
    record = finetune(
        model_dir=snakemake.input.model,
        train_paths=snakemake.input.train,
        dev_paths=snakemake.input.dev,
        out_dir=snakemake.output[0],
        checkpoint_dir=snakemake.params.checkpoints,
        hp=HyperParameters.from_config(
            snakemake.params.hp, f"tasks.{snakemake.wildcards.task}.hyperparameters"
        ),
        seed=int(snakemake.wildcards.seed),
        device=snakemake.params.device,
        precision=snakemake.params.precision,
        start_task=snakemake.params.start_task,
    )
    summary(selection_summary(record))
