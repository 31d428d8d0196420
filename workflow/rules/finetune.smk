rule finetune:
    input:
        model="resources/models/{model}",
        train=lambda wc: features_path(
            wc.model, wc.task, train_language(wc.task), "train"
        ),
        dev=lambda wc: features_path(wc.model, wc.task, train_language(wc.task), "dev"),
    output:
        directory("results/{model}/{task}/{setting}/seed{seed}/model"),
    log:
        "results/logs/finetune/{model}/{task}/{setting}/seed{seed}.log",
    benchmark:
        "results/benchmarks/finetune/{model}/{task}/{setting}/seed{seed}.tsv"
    threads: config["threads"]["finetune"]
    params:
        hp=lambda wc: hyperparameters(wc.task),
        # outside the output, so that a failed or killed job keeps it and a rerun resumes
        checkpoints=lambda wc: f"{run_dir(wc)}/checkpoints",
    script:
        "../scripts/finetune.py"
