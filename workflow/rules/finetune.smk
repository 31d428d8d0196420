rule finetune:
    input:
        model="resources/models/{model}",
        train=lambda wc: training_features(wc, "train"),
        dev=lambda wc: training_features(wc, "dev"),
    output:
        directory("results/{model}/{task}/{setting}/seed{seed}/model"),
    log:
        "results/logs/finetune/{model}/{task}/{setting}/seed{seed}.log",
    benchmark:
        "results/benchmarks/finetune/{model}/{task}/{setting}/seed{seed}.tsv"
    wildcard_constraints:
        setting="zero-shot|multilingual",
    threads: config["threads"]["finetune"]
    params:
        hp=lambda wc: hyperparameters(wc.task),
        # outside the output, so that a failed or killed job keeps it and a rerun resumes
        checkpoints=lambda wc: f"{run_dir(wc)}/checkpoints",
    script:
        "../scripts/finetune.py"


# in-language: one model per language, trained and selected on that language's own data
use rule finetune as finetune_in_language with:
    output:
        directory("results/{model}/{task}/in-language/seed{seed}/model/{lang}"),
    log:
        "results/logs/finetune/{model}/{task}/in-language/seed{seed}/{lang}.log",
    benchmark:
        "results/benchmarks/finetune/{model}/{task}/in-language/seed{seed}/{lang}.tsv"
    params:
        hp=lambda wc: hyperparameters(wc.task),
        checkpoints=lambda wc: f"results/{wc.model}/{wc.task}/in-language/seed{wc.seed}/checkpoints/{wc.lang}",
