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


# a suite's summary (GLUE; XTREME's summary): its configured tasks side by side, with the
# suite's average and the published rows (suites are data: mte.suites, specs' SUITES)
rule summarize:
    input:
        scores=lambda wc: [
            path for task in suite_tasks(wc.suite) for path in task_scores(task)
        ],
        references=reference_files(),
    output:
        csv=report(
            "results/runs/{run}/tables/{suite}.csv",
            caption="../report/suite_table.rst",
            category="Tables",
        ),
        md="results/runs/{run}/tables/{suite}.md",
        tex="results/runs/{run}/tables/{suite}.tex",
    log:
        "results/logs/aggregate/{run}/{suite}.log",
    benchmark:
        "results/benchmarks/aggregate/{run}/{suite}.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        tasks=lambda wc: suite_tasks(wc.suite),
    script:
        "../scripts/summarize.py"
