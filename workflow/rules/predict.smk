rule predict:
    input:
        model=INPUTS.finetuned_model,
        features=INPUTS.evaluated_features,
    output:
        PREDICTIONS,
        machine=PREDICTION_MACHINE,
    log:
        log_path("predict", RUN_LANGUAGE_JOB),
    benchmark:
        benchmark_path("predict", RUN_LANGUAGE_JOB)
    wildcard_constraints:
        task="|".join(FINETUNED_TASKS),
        setting=FINETUNED_SETTINGS,
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["predict"]
    resources:
        **job_resources("predict"),
    params:
        code=code_of("predict.py", "model"),
        batch_size=INPUTS.eval_batch_size,
        device=config["device"],
        precision=config["inference_precision"],
    script:
        "../scripts/predict.py"


# the in-context setting: the pretrained decoder reads k English demonstrations (drawn from the
# training data with the run's seed) and each test item; nothing is trained
rule prompt:
    input:
        model=MODEL,
        demonstrations=INPUTS.demonstrations,
        test=INPUTS.evaluated_gold,
    output:
        PREDICTIONS,
        machine=PREDICTION_MACHINE,
    log:
        log_path("prompt", RUN_LANGUAGE_JOB),
    benchmark:
        benchmark_path("prompt", RUN_LANGUAGE_JOB)
    wildcard_constraints:
        task="|".join(PROMPTED_TASKS),
        setting=PROMPTED_SETTINGS,
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["predict"]
    resources:
        **job_resources("predict"),
    params:
        code=code_of("prompt.py", "none"),
        options=config["in_context"],
        device=config["device"],
        precision=config["inference_precision"],
    script:
        "../scripts/prompt.py"


# LAReQA: the pool of every configured language's answers, embedded once per model and seed
# (by the pretrained model or a dual encoder's fine-tune); each language's retrieve job
# searches it
rule embed_pool:
    input:
        data=INPUTS.pool_data,
        model=INPUTS.retrieval_model,
        base_model=MODEL,
        architecture=INPUTS.architecture_check,
    output:
        vectors=POOL_VECTORS,
        index=POOL_INDEX,
    log:
        log_path("embed_pool", POOL_JOB),
    benchmark:
        benchmark_path("embed_pool", POOL_JOB)
    wildcard_constraints:
        task="|".join(POOLED_TASKS),
        setting="zero-shot",
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["predict"]
    resources:
        **job_resources("embed"),
    params:
        code=code_of("embed_pool.py"),
        languages=INPUTS.pool_languages,
        options=INPUTS.retrieval_options,
        device=config["device"],
        precision=config["inference_precision"],
    script:
        "../scripts/embed_pool.py"


# Tatoeba, BUCC and LAReQA: embed with the pretrained encoder and search (no fine-tune, one
# setting)
rule retrieve:
    input:
        unpack(INPUTS.retrieval_data),
        model=INPUTS.retrieval_model,
        base_model=MODEL,
        architecture=INPUTS.architecture_check,
    output:
        PREDICTIONS,
        machine=PREDICTION_MACHINE,
    log:
        log_path("retrieve", RUN_LANGUAGE_JOB),
    benchmark:
        benchmark_path("retrieve", RUN_LANGUAGE_JOB)
    wildcard_constraints:
        task="|".join(RETRIEVAL_TASKS),
        setting="zero-shot",
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["predict"]
    resources:
        **job_resources("embed"),
    params:
        code=code_of("retrieve.py"),
        options=INPUTS.retrieval_options,
        device=config["device"],
        precision=config["inference_precision"],
    script:
        "../scripts/retrieve.py"
