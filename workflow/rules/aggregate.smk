rule aggregate:
    input:
        lambda wc: task_scores(wc.task),
    output:
        csv="results/tables/{task}.csv",
        md="results/tables/{task}.md",
    log:
        "results/logs/aggregate/{task}.log",
    benchmark:
        "results/benchmarks/aggregate/{task}.tsv"
    params:
        languages=lambda wc: task_languages(wc.task, config),
    script:
        "../scripts/aggregate.py"
