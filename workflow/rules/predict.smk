rule predict:
    input:
        model=finetuned_dir,
        features=lambda wc: features_path(
            wc.model, wc.task, wc.lang, eval_split(wc.task)
        ),
    output:
        "results/{model}/{task}/{setting}/seed{seed}/predictions/{lang}.jsonl",
    log:
        "results/logs/predict/{model}/{task}/{setting}/seed{seed}/{lang}.log",
    benchmark:
        "results/benchmarks/predict/{model}/{task}/{setting}/seed{seed}/{lang}.tsv"
    threads: config["threads"]["predict"]
    params:
        batch_size=lambda wc: hyperparameters(wc.task)["eval_batch_size"],
    script:
        "../scripts/predict.py"
