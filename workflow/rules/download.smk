rule download:
    input:
        unpack(translation_original),
    output:
        data="resources/data/{task}/{data}/{lang}/{split}.jsonl",
        meta="resources/data/{task}/{data}/{lang}/{split}.meta.json",
    log:
        "results/logs/download/{task}/{data}/{lang}/{split}.log",
    benchmark:
        "results/benchmarks/download/{task}/{data}/{lang}/{split}.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("prepare"),
    params:
        source=lambda wc: source_params(wc.task, wc.split),
        translation=translation_params,
    script:
        "../scripts/download.py"
