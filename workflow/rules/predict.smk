rule predict:
    input:
        model=finetuned_dir,
        features=evaluated_features,
    output:
        "results/{model}/{task}/{variant}/{setting}/seed{seed}/predictions/{lang}.jsonl",
    log:
        "results/logs/predict/{model}/{task}/{variant}/{setting}/seed{seed}/{lang}.log",
    benchmark:
        "results/benchmarks/predict/{model}/{task}/{variant}/{setting}/seed{seed}/{lang}.tsv"
    wildcard_constraints:
        task="|".join(FINETUNED_TASKS),
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["predict"]
    resources:
        **job_resources("predict"),
    params:
        batch_size=lambda wc: hyperparameters(wc.task)["eval_batch_size"],
        device=config["device"],
        precision=config["inference_precision"],
    script:
        "../scripts/predict.py"


# Tatoeba and BUCC: embed with the pretrained encoder and search (no fine-tune, one setting)
rule retrieve:
    input:
        unpack(retrieval_data),
        model="resources/models/{model}",
    output:
        "results/{model}/{task}/{variant}/{setting}/seed{seed}/predictions/{lang}.jsonl",
    log:
        "results/logs/retrieve/{model}/{task}/{variant}/{setting}/seed{seed}/{lang}.log",
    benchmark:
        "results/benchmarks/retrieve/{model}/{task}/{variant}/{setting}/seed{seed}/{lang}.tsv"
    wildcard_constraints:
        task="|".join(RETRIEVAL_TASKS),
        setting="zero-shot",
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["predict"]
    resources:
        **job_resources("embed"),
    params:
        layers=lambda wc: task_config(wc.task)["layers"],
        batch_size=lambda wc: task_config(wc.task)["batch_size"],
        device=config["device"],
        precision=config["inference_precision"],
    script:
        "../scripts/retrieve.py"
