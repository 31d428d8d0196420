rule download:
    input:
        unpack(get_translation_original),
    output:
        data=DATA,
        meta=DATA_META,
    log:
        log_path("download", DATA_JOB),
    benchmark:
        benchmark_path("download", DATA_JOB)
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
