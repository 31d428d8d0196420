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


# GLUE's summary: every configured GLUE task side by side, with the GLUE average
rule aggregate_glue:
    input:
        lambda wc: [path for task in glue_tasks() for path in task_scores(task)],
    output:
        csv="results/tables/glue.csv",
        md="results/tables/glue.md",
    log:
        "results/logs/aggregate/glue.log",
    benchmark:
        "results/benchmarks/aggregate/glue.tsv"
    params:
        tasks=glue_tasks(),
    script:
        "../scripts/aggregate_glue.py"
