rule prepare_model:
    output:
        directory(MODEL),
    log:
        log_path("prepare_model", "{model}"),
    benchmark:
        benchmark_path("prepare_model", "{model}")
    localrule: runs_locally("network")
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("prepare"),
    params:
        code=code_of("prepare_model.py"),
        model=lambda wc: thawed(PLAN.model(wc.model).entry),
    script:
        "../scripts/prepare_model.py"
