rule download:
    output:
        data="resources/data/{task}/{lang}/{split}.jsonl",
        meta="resources/data/{task}/{lang}/{split}.meta.json",
    log:
        "results/logs/download/{task}/{lang}/{split}.log",
    benchmark:
        "results/benchmarks/download/{task}/{lang}/{split}.tsv"
    params:
        source=lambda wc: source_params(wc.task),
    script:
        "../scripts/download.py"
