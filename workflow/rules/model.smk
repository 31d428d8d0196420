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


# every task the run gives the model against its architecture (config.json), before any
# fine-tune or embedding job reads it: a hub model's is first seen here (a local folder's the
# plan has checked already). One file per model, which those jobs read as ancient(): a task
# added later reruns this check, not them
use rule light_step as check_model with:
    input:
        MODEL,
    output:
        MODEL_CHECK,
    log:
        log_path("check_model", "{model}"),
    benchmark:
        benchmark_path("check_model", "{model}")
    localrule: runs_locally("light")
    params:
        **light_script("check_model.py", "model"),
        model_name=lambda wc: wc.model,
        needs=lambda wc: PLAN.architecture_needs(wc.model),
