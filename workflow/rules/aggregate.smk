rule aggregate:
    input:
        scores=lambda wc: task_scores(wc.task),
        references=reference_files(),
    output:
        csv=report(
            "results/tables/{task}.csv",
            caption="../report/task_table.rst",
            category="Tables",
        ),
        md="results/tables/{task}.md",
        tex="results/tables/{task}.tex",
        provenance="results/tables/{task}.provenance.json",
    log:
        "results/logs/aggregate/{task}.log",
    benchmark:
        "results/benchmarks/aggregate/{task}.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        languages=lambda wc: task_languages(wc.task, config),
        statistics=config["statistics"],
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
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        tasks=glue_tasks(),
    script:
        "../scripts/aggregate_glue.py"


# XTREME's summary: one score per task, the mean over tasks and the transfer gaps
rule summarize_xtreme:
    input:
        scores=lambda wc: [
            path for task in xtreme_tasks() for path in task_scores(task)
        ],
        references=reference_files(),
    output:
        csv=report(
            "results/tables/xtreme_summary.csv",
            caption="../report/xtreme_summary.rst",
            category="Tables",
        ),
        md="results/tables/xtreme_summary.md",
        tex="results/tables/xtreme_summary.tex",
    log:
        "results/logs/aggregate/xtreme_summary.log",
    benchmark:
        "results/benchmarks/aggregate/xtreme_summary.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        tasks=xtreme_tasks(),
    script:
        "../scripts/summarize_xtreme.py"
