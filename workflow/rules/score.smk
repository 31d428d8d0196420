use rule light_step as score with:
    input:
        predictions=PREDICTIONS,
        machine=PREDICTION_MACHINE,
        gold=INPUTS.evaluated_gold,
        base_model=MODEL,
        model=INPUTS.finetuned_model,
        dev_gold=INPUTS.dev_gold,
        data_meta=INPUTS.score_data_meta,
    output:
        SCORES,
    log:
        log_path("score", RUN_LANGUAGE_JOB),
    benchmark:
        benchmark_path("score", RUN_LANGUAGE_JOB)
    localrule: runs_locally("light")
    params:
        **light_script("score.py", "score"),
        split=INPUTS.evaluated_split,
        statistics=INPUTS.score_statistics(),
        # the in-context setting's demonstrations (None for the others: no rerun when they change)
        in_context=INPUTS.in_context,
