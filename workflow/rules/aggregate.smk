rule aggregate:
    input:
        scores=get_task_scores,
        references=reference_files(),
    output:
        csv=report(
            table_path("{task}", "csv"),
            caption="../report/task_table.rst",
            category="Tables",
        ),
        md=table_path("{task}", "md"),
        tex=table_path("{task}", "tex"),
        provenance=table_path("{task}", "provenance.json"),
    log:
        log_path("aggregate", "{run}/{task}"),
    benchmark:
        benchmark_path("aggregate", "{run}/{task}")
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
        scores=get_suite_scores,
        references=reference_files(),
    output:
        csv=report(
            table_path("{suite}", "csv"),
            caption="../report/suite_table.rst",
            category="Tables",
        ),
        md=table_path("{suite}", "md"),
        tex=table_path("{suite}", "tex"),
    log:
        log_path("aggregate", "{run}/{suite}"),
    benchmark:
        benchmark_path("aggregate", "{run}/{suite}")
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        tasks=lambda wc: suite_tasks(wc.suite),
    script:
        "../scripts/summarize.py"
