rule tokenize:
    input:
        data=INPUTS.data,
        model=MODEL,
    output:
        FEATURES,
    log:
        log_path("tokenize", FEATURES_JOB),
    benchmark:
        benchmark_path("tokenize", FEATURES_JOB)
    # on a cluster, several tokenisations share one job (profiles/slurm: group-components)
    group:
        "tokenize"
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["tokenize"]
    resources:
        **job_resources("tokenize"),
        # a cluster profile's pool of these (profiles/slurm: 4) caps how many tokenisations
        # of one grouped job run side by side
        tokenize_slots=1,
    params:
        code=code_of("tokenize_examples.py", "features"),
        options=INPUTS.tokenization,
    script:
        "../scripts/tokenize_examples.py"
