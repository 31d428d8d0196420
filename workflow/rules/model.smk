rule prepare_model:
    output:
        directory("resources/models/{model}"),
    log:
        "results/logs/prepare_model/{model}.log",
    benchmark:
        "results/benchmarks/prepare_model/{model}.tsv"
    params:
        model=lambda wc: model_entry(wc.model),
    script:
        "../scripts/prepare_model.py"
