rule prepare_model:
    output:
        directory("resources/models/{model}"),
    log:
        "results/logs/prepare_model/{model}.log",
    benchmark:
        "results/benchmarks/prepare_model/{model}.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("prepare"),
    params:
        model=lambda wc: model_entry(wc.model),
    script:
        "../scripts/prepare_model.py"
