rule finetune:
    input:
        model=INPUTS.start_model,
        architecture=INPUTS.architecture_check,
        train=INPUTS.training_features("train"),
        dev=INPUTS.training_features("dev"),
    output:
        directory(FINETUNED),
    log:
        log_path("finetune", RUN_JOB),
    benchmark:
        benchmark_path("finetune", RUN_JOB)
    wildcard_constraints:
        setting=wildcard_pattern(per_language=False),
    conda:
        "../../envs/mte.yaml"
    threads: config["threads"]["finetune"]
    resources:
        **job_resources("finetune"),
    params:
        code=code_of("finetune.py", "model"),
        hp=INPUTS.hyperparameters,
        # outside the output, so that a failed or killed job keeps it and a rerun resumes
        checkpoints=lambda wc: f"{INPUTS.run_dir(wc)}/checkpoints",
        start_task=INPUTS.start_task,
        device=config["device"],
        precision=config["training_precision"],
    script:
        "../scripts/finetune.py"


# in-language and translate-train: one model per language (in-language: trained and selected
# on the language's own data; translate-train: on English plus its translation into the language)
use rule finetune as finetune_per_language with:
    output:
        directory(FINETUNED_PER_LANGUAGE),
    log:
        log_path("finetune", RUN_LANGUAGE_JOB),
    benchmark:
        benchmark_path("finetune", RUN_LANGUAGE_JOB)
    wildcard_constraints:
        setting=wildcard_pattern(per_language=True),
    params:
        code=code_of("finetune.py", "model"),
        hp=INPUTS.hyperparameters,
        checkpoints=lambda wc: f"{INPUTS.run_dir(wc)}/checkpoints/{wc.lang}",
        start_task=INPUTS.start_task,
        device=config["device"],
        precision=config["training_precision"],
