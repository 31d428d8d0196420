rule score:
    input:
        predictions="results/{model}/{task}/{setting}/seed{seed}/predictions/{lang}.jsonl",
        gold=lambda wc: f"resources/data/{wc.task}/{wc.lang}/{eval_split(wc.task)}.jsonl",
        base_model="resources/models/{model}",
        model=finetuned_dir,
        dev_gold=dev_gold,
        data_meta=score_data_meta,
    output:
        "results/{model}/{task}/{setting}/seed{seed}/scores/{lang}.json",
    log:
        "results/logs/score/{model}/{task}/{setting}/seed{seed}/{lang}.log",
    benchmark:
        "results/benchmarks/score/{model}/{task}/{setting}/seed{seed}/{lang}.tsv"
    params:
        split=lambda wc: eval_split(wc.task),
    script:
        "../scripts/score.py"
