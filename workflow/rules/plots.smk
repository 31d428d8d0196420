use rule light_step as plot_heatmap with:
    input:
        scores=lambda wc: INPUTS.model_setting_scores(wc.model, wc.setting),
    output:
        report(
            plot_path("{model}/heatmap_{setting}"),
            caption="../report/heatmap.rst",
            category="Figures",
            subcategory="{model}",
            labels={"figure": "score per language and task", "setting": "{setting}"},
        ),
    log:
        log_path("plots", "{run}/{model}/heatmap_{setting}"),
    benchmark:
        benchmark_path("plots", "{run}/{model}/heatmap_{setting}")
    localrule: runs_locally("light")
    params:
        **light_script("plot.py"),


use rule light_step as plot_transfer_gaps with:
    input:
        scores=lambda wc: INPUTS.suite_scores(TARGETS.evaluated_tasks()),
    output:
        report(
            plot_path("transfer_gaps"),
            caption="../report/transfer_gaps.rst",
            category="Figures",
            subcategory="All models",
            labels={"figure": "transfer gap per task"},
        ),
    log:
        log_path("plots", "{run}/transfer_gaps"),
    benchmark:
        benchmark_path("plots", "{run}/transfer_gaps")
    localrule: runs_locally("light")
    params:
        **light_script("plot.py"),


# one task's gap per language, a bar per model and setting: fine-tuned whole, with LoRA and in
# context compared language by language
use rule light_step as plot_language_gaps with:
    input:
        scores=lambda wc: INPUTS.task_scores(wc.task),
    output:
        report(
            plot_path("{task}_gaps_per_language"),
            caption="../report/language_gaps.rst",
            category="Figures",
            subcategory="All models",
            labels=lambda wc: {"figure": f"transfer gap per language, {wc.task}"},
        ),
    log:
        log_path("plots", "{run}/{task}_gaps_per_language"),
    benchmark:
        benchmark_path("plots", "{run}/{task}_gaps_per_language")
    localrule: runs_locally("light")
    params:
        **light_script("plot.py"),


use rule light_step as plot_against_published with:
    input:
        scores=lambda wc: INPUTS.model_task_scores(wc.model, wc.task, wc.setting),
        references=reference_files(),
    output:
        report(
            plot_path("{model}/{task}_{setting}_vs_published"),
            caption="../report/against_published.rst",
            category="Figures",
            subcategory="{model}",
            labels={
                "figure": "ours and published, {task}",
                "setting": "{setting}",
            },
        ),
    log:
        log_path("plots", "{run}/{model}/{task}_{setting}_vs_published"),
    benchmark:
        benchmark_path("plots", "{run}/{model}/{task}_{setting}_vs_published")
    localrule: runs_locally("light")
    params:
        **light_script("plot.py", "none"),
        metric=lambda wc: get_task(wc.task).primary_metric,


# a fine-tune's curves: dev score per epoch (the selected epoch marked), loss per step
use rule light_step as plot_training with:
    input:
        model=FINETUNED,
    output:
        report(
            TRAINING_PLOT,
            caption="../report/training.rst",
            category="Training curves",
            subcategory="{model}",
            labels={"task": "{task}", "setting": "{setting}", "seed": "{seed}"},
        ),
    log:
        log_path("plots", f"{RUN_JOB}/training"),
    benchmark:
        benchmark_path("plots", f"{RUN_JOB}/training")
    wildcard_constraints:
        setting=wildcard_pattern(per_language=False),
    localrule: runs_locally("light")
    params:
        **light_script("plot.py", "none"),


use rule plot_training as plot_training_per_language with:
    input:
        model=FINETUNED_PER_LANGUAGE,
    output:
        report(
            TRAINING_PLOT_PER_LANGUAGE,
            caption="../report/training.rst",
            category="Training curves",
            subcategory="{model}",
            labels={
                "task": "{task}",
                "setting": "{setting}",
                "seed": "{seed}",
                "language": "{lang}",
            },
        ),
    log:
        log_path("plots", f"{RUN_LANGUAGE_JOB}/training"),
    benchmark:
        benchmark_path("plots", f"{RUN_LANGUAGE_JOB}/training")
    wildcard_constraints:
        setting=wildcard_pattern(per_language=True),
    localrule: runs_locally("light")
