use rule light_step as aggregate with:
    input:
        scores=lambda wc: INPUTS.task_scores(wc.task),
        references=reference_files(),
    output:
        csv=table_path("{task}", "csv"),
        md=table_path("{task}", "md"),
        tex=table_path("{task}", "tex"),
        html=report(
            table_path("{task}", "html"),
            caption="../report/task_table.rst",
            category="Tables",
            subcategory="Per language",
            labels=lambda wc: {
                "task": get_task(wc.task).title,
                "file": f"{wc.task}.html",
            },
        ),
        provenance=table_path("{task}", "provenance.json"),
    log:
        log_path("aggregate", "{run}/{task}"),
    benchmark:
        benchmark_path("aggregate", "{run}/{task}")
    localrule: runs_locally("light")
    params:
        **light_script("aggregate.py"),
        languages=lambda wc: list(PLAN.task(wc.task).languages),
        # the languages a missing_files: skip folder lacked, each with the file looked for
        left_out=lambda wc: thawed(PLAN.task(wc.task).left_out),
        statistics=config["statistics"],
        # the data note under the report's table (source, subset)
        task_config=lambda wc: thawed(PLAN.task(wc.task).entry),
        # a retrieval task's encoder (the task whose fine-tunes embed), else None
        encoder=lambda wc: PLAN.task(wc.task).encoder,


# a suite's summary (GLUE; XTREME's summary): its configured tasks side by side, with the
# suite's average and the published rows (suites are data: the specs' SUITES, mte.registry)
use rule light_step as summarize with:
    input:
        scores=lambda wc: INPUTS.suite_scores(TARGETS.suite_tasks(wc.suite)),
        references=reference_files(),
    output:
        csv=table_path("{suite}", "csv"),
        md=table_path("{suite}", "md"),
        tex=table_path("{suite}", "tex"),
        html=report(
            table_path("{suite}", "html"),
            caption="../report/suite_table.rst",
            category="Tables",
            subcategory="Suites",
            labels=lambda wc: {
                "task": all_suites()[wc.suite].title,
                "file": f"{wc.suite}.html",
            },
        ),
    log:
        log_path("aggregate", "{run}/{suite}"),
    benchmark:
        benchmark_path("aggregate", "{run}/{suite}")
    localrule: runs_locally("light")
    params:
        **light_script("summarize.py"),
        tasks=lambda wc: TARGETS.suite_tasks(wc.suite),
        # tasks run on the bundled demo data: every file of the table says so
        demo_tasks=lambda wc: INPUTS.demo_tasks(TARGETS.suite_tasks(wc.suite)),
        # the config's skip_tasks: the table names them among the suite's missing tasks
        skipped=config["skip_tasks"],
        # per task, the languages a missing_files: skip folder lacked (named in a note)
        left_out=lambda wc: {
            name: thawed(PLAN.task(name).left_out)
            for name in TARGETS.suite_tasks(wc.suite)
        },


# the run's provenance in one block for the report: models, packages, hardware; the index of
# its score files that a leaderboard across runs reads (mte-leaderboard); and results.json,
# every score of the run in one file (mte.steps.run_results)
use rule light_step as describe_run with:
    input:
        scores=lambda wc: INPUTS.suite_scores(TARGETS.evaluated_tasks()),
    output:
        page=report(
            RUN_PROVENANCE,
            caption="../report/provenance.rst",
            category="Run",
            labels={"page": "provenance"},
        ),
        index=RUN_SCORES_INDEX,
        results=RUN_RESULTS,
    log:
        log_path("aggregate", "{run}/provenance"),
    benchmark:
        benchmark_path("aggregate", "{run}/provenance")
    localrule: runs_locally("light")
    params:
        **light_script("describe_run.py"),


# language metadata against the scores, and the scorers' breakdowns (mte.steps.analyses)
use rule light_step as analyze with:
    input:
        scores=lambda wc: INPUTS.suite_scores(TARGETS.evaluated_tasks()),
    output:
        page=report(
            RUN_ANALYSES_PAGE,
            caption="../report/analyses.rst",
            category="Analyses",
            labels={"page": "analyses"},
        ),
        tables=expand(RUN_ANALYSIS, name=ANALYSES, allow_missing=True),
        predictions=RUN_PREDICTIONS_INDEX,
    log:
        log_path("aggregate", "{run}/analyses"),
    benchmark:
        benchmark_path("aggregate", "{run}/analyses")
    localrule: runs_locally("light")
    params:
        **light_script("analyze.py"),
        demo_tasks=lambda wc: INPUTS.demo_tasks(TARGETS.evaluated_tasks()),
