rule download:
    input:
        unpack(translation_original),
    output:
        data="resources/data/{task}/{lang}/{split}.jsonl",
        meta="resources/data/{task}/{lang}/{split}.meta.json",
    log:
        "results/logs/download/{task}/{lang}/{split}.log",
    benchmark:
        "results/benchmarks/download/{task}/{lang}/{split}.tsv"
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
