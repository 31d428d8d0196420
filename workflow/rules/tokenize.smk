rule tokenize:
    input:
        data=lambda wc: data_path(wc.task, wc.lang, wc.split),
        model="resources/models/{model}",
    output:
        "results/{model}/{task}/features/{tokens}/{lang}/{split}/features.pt",
    log:
        "results/logs/tokenize/{model}/{task}/{tokens}/{lang}/{split}.log",
    benchmark:
        "results/benchmarks/tokenize/{model}/{task}/{tokens}/{lang}/{split}.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["tokenize"]
    resources:
        **job_resources("tokenize"),
    params:
        max_length=lambda wc: hyperparameters(wc.task)["max_length"],
        label_subword=lambda wc: label_subword(wc.task),
        doc_stride=lambda wc: task_config(model_task(wc.task)).get("doc_stride", 128),
    script:
        "../scripts/tokenize_examples.py"
