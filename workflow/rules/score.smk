rule score:
    input:
        predictions="results/{model}/{task}/{variant}/{setting}/seed{seed}/predictions/{lang}.jsonl",
        gold=evaluated_gold,
        base_model="resources/models/{model}",
        model=finetuned_dir,
        dev_gold=dev_gold,
        data_meta=score_data_meta,
    output:
        "results/{model}/{task}/{variant}/{setting}/seed{seed}/scores/{lang}.json",
    log:
        "results/logs/score/{model}/{task}/{variant}/{setting}/seed{seed}/{lang}.log",
    benchmark:
        "results/benchmarks/score/{model}/{task}/{variant}/{setting}/seed{seed}/{lang}.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        split=evaluated_split,
        statistics=score_statistics(),
    script:
        "../scripts/score.py"
