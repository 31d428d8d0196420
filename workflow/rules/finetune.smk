rule finetune:
    input:
        model=get_start_model,
        train=get_training_features("train"),
        dev=get_training_features("dev"),
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
        hp=lambda wc: run_hyperparameters(wc.task, wc.setting),
        # outside the output, so that a failed or killed job keeps it and a rerun resumes
        checkpoints=lambda wc: f"{run_dir(wc)}/checkpoints",
        device=config["device"],
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
        hp=lambda wc: run_hyperparameters(wc.task, wc.setting),
        checkpoints=lambda wc: f"{run_dir(wc)}/checkpoints/{wc.lang}",
        device=config["device"],
