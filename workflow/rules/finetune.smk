rule finetune:
    input:
        model="resources/models/{model}",
        train=lambda wc: training_features(wc, "train"),
        dev=lambda wc: training_features(wc, "dev"),
    output:
        directory("results/{model}/{task}/{variant}/{setting}/seed{seed}/model"),
    log:
        "results/logs/finetune/{model}/{task}/{variant}/{setting}/seed{seed}.log",
    benchmark:
        "results/benchmarks/finetune/{model}/{task}/{variant}/{setting}/seed{seed}.tsv"
    wildcard_constraints:
        setting=wildcard_pattern(per_language=False),
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["finetune"]
    resources:
        **job_resources("finetune"),
    params:
        hp=lambda wc: hyperparameters(wc.task),
        # outside the output, so that a failed or killed job keeps it and a rerun resumes
        checkpoints=lambda wc: f"{run_dir(wc)}/checkpoints",
        device=config["device"],
    script:
        "../scripts/finetune.py"


# in-language and translate-train: one model per language (in-language: trained and selected
# on the language's own data; translate-train: on English plus its translation into the language)
use rule finetune as finetune_per_language with:
    output:
        directory("results/{model}/{task}/{variant}/{setting}/seed{seed}/model/{lang}"),
    log:
        "results/logs/finetune/{model}/{task}/{variant}/{setting}/seed{seed}/{lang}.log",
    benchmark:
        "results/benchmarks/finetune/{model}/{task}/{variant}/{setting}/seed{seed}/{lang}.tsv"
    wildcard_constraints:
        setting=wildcard_pattern(per_language=True),
    params:
        hp=lambda wc: hyperparameters(wc.task),
        checkpoints=lambda wc: f"{run_dir(wc)}/checkpoints/{wc.lang}",
        device=config["device"],
