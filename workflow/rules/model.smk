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


# what each task asks of a hub model's architecture (config.json, first seen here), before the
# task's fine-tune or embedding jobs read the model; the plan has checked the other sources'
# already, and their jobs wait for no check. One file per model and task: a task added later
# adds a check and reruns nothing else. Its priority runs every check as soon as the model is
# ready, ahead of the tokenize jobs that every fine-tune waits for, so a refused task stops the
# run before any fine-tune
use rule light_step as check_model with:
    input:
        MODEL,
    output:
        MODEL_CHECK,
    log:
        log_path("check_model", "{model}/{task}"),
    benchmark:
        benchmark_path("check_model", "{model}/{task}")
    priority: 100
    localrule: runs_locally("light")
    params:
        **light_script("check_model.py", "model"),
        model_name=lambda wc: wc.model,
        needs=lambda wc: PLAN.architecture_needs(wc.model, wc.task),
