use rule light_step as score with:
    input:
        predictions=PREDICTIONS,
        machine=PREDICTION_MACHINE,
        gold=get_evaluated_gold,
        base_model=MODEL,
        model=get_finetuned_model,
        dev_gold=get_dev_gold,
        data_meta=get_score_data_meta,
    output:
        SCORES,
    log:
        log_path("score", RUN_LANGUAGE_JOB),
    benchmark:
        benchmark_path("score", RUN_LANGUAGE_JOB)
    localrule: runs_locally("light")
    params:
        **light_script("score.py", "score"),
        split=evaluated_split,
        statistics=score_statistics(),
        # the in-context setting's demonstrations (None for the others: no rerun when they change)
        in_context=lambda wc: (
            config["in_context"] if TRANSFER_SETTINGS[wc.setting].prompted else None
        ),
