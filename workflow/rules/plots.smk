rule plot_heatmap:
    input:
        scores=lambda wc: model_setting_scores(wc.model, wc.setting),
    output:
        report(
            "results/runs/{run}/plots/{model}/heatmap_{setting}.png",
            caption="../report/heatmap.rst",
            category="Figures",
        ),
    log:
        "results/logs/plots/{run}/{model}/heatmap_{setting}.log",
    benchmark:
        "results/benchmarks/plots/{run}/{model}/heatmap_{setting}.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    script:
        "../scripts/plot.py"


rule plot_transfer_gaps:
    input:
        scores=lambda wc: [p for task in evaluated_tasks() for p in task_scores(task)],
    output:
        report(
            "results/runs/{run}/plots/transfer_gaps.png",
            caption="../report/transfer_gaps.rst",
            category="Figures",
        ),
    log:
        "results/logs/plots/{run}/transfer_gaps.log",
    benchmark:
        "results/benchmarks/plots/{run}/transfer_gaps.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    script:
        "../scripts/plot.py"


rule plot_against_published:
    input:
        scores=lambda wc: model_task_scores(wc.model, wc.task, wc.setting),
        references=reference_files(),
    output:
        report(
            "results/runs/{run}/plots/{model}/{task}_{setting}_vs_published.png",
            caption="../report/against_published.rst",
            category="Figures",
        ),
    log:
        "results/logs/plots/{run}/{model}/{task}_{setting}_vs_published.log",
    benchmark:
        "results/benchmarks/plots/{run}/{model}/{task}_{setting}_vs_published.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        metric=lambda wc: get_task(wc.task).primary_metric,
    script:
        "../scripts/plot.py"
