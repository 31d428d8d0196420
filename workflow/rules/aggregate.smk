rule aggregate:
    input:
        scores=lambda wc: task_scores(wc.task),
        references=reference_files(),
    output:
        csv=report(
            "results/runs/{run}/tables/{task}.csv",
            caption="../report/task_table.rst",
            category="Tables",
        ),
        md="results/runs/{run}/tables/{task}.md",
        tex="results/runs/{run}/tables/{task}.tex",
        provenance="results/runs/{run}/tables/{task}.provenance.json",
    log:
        "results/logs/aggregate/{run}/{task}.log",
    benchmark:
        "results/benchmarks/aggregate/{run}/{task}.tsv"
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
        scores=lambda wc: [path for task in glue_tasks() for path in task_scores(task)],
        references=reference_files(),
    output:
        csv="results/runs/{run}/tables/glue.csv",
        md="results/runs/{run}/tables/glue.md",
    log:
        "results/logs/aggregate/{run}/glue.log",
    benchmark:
        "results/benchmarks/aggregate/{run}/glue.tsv"
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
            "results/runs/{run}/tables/xtreme_summary.csv",
            caption="../report/xtreme_summary.rst",
            category="Tables",
        ),
        md="results/runs/{run}/tables/xtreme_summary.md",
        tex="results/runs/{run}/tables/xtreme_summary.tex",
    log:
        "results/logs/aggregate/{run}/xtreme_summary.log",
    benchmark:
        "results/benchmarks/aggregate/{run}/xtreme_summary.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        tasks=xtreme_tasks(),
    script:
        "../scripts/summarize_xtreme.py"
