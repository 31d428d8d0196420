# What `snakemake` builds by default: every table and figure of the configured run.


def all_settings(model):
    """The settings a model runs for some task."""
    return list(
        dict.fromkeys(
            s for task in evaluated_tasks() for s in model_settings(model, task, config)
        )
    )


def published_plots():
    """A bar plot for every model x task x setting with published numbers of its metric."""
    return [
        plot_path(f"{m['name']}/{task}_{setting}_vs_published", RUN)
        for m in config["models"]
        for task in evaluated_tasks()
        for setting in model_settings(m, task, config)
        if find_reference(
            references(),
            m["name"],
            task,
            setting,
            get_task(task).primary_metric,
            task_languages(task, config),
        )
    ]


def pseudo_test_tasks():
    return [task for task in evaluated_tasks() if task_config(task).get("pseudo_test")]


def all_downloads():
    """Every download of the run, the target of an update of its data lock (update_lock)."""
    return [data_path(task, lang, split) for task, lang, split in run_downloads(config)]


def all_tables():
    formats = ("csv", "md", "tex", "html")
    tables = [
        table_path(task, ext, RUN) for task in evaluated_tasks() for ext in formats
    ]
    tables += [
        table_path(f"{task}_pseudo_test", ext, RUN)
        for task in pseudo_test_tasks()
        for ext in ("csv", "md", "json")
    ]
    tables += [
        table_path(suite, ext, RUN)
        for suite in all_suites()
        if suite_tasks(suite)
        for ext in formats
    ]
    run_files = (RUN_PROVENANCE, RUN_SCORES_INDEX, RUN_RESULTS, RUN_ANALYSES_PAGE)
    return [*tables, *(template.format(run=RUN) for template in run_files)]


def all_plots():
    heatmaps = [
        plot_path(f"{m['name']}/heatmap_{setting}", RUN)
        for m in config["models"]
        for setting in all_settings(m)
    ]
    # a task with its training language and another: its gaps per language and setting
    language_gaps = [
        plot_path(f"{task}_gaps_per_language", RUN)
        for task in evaluated_tasks()
        if train_language(task) in task_languages(task, config)
        and len(task_languages(task, config)) > 1
    ]
    return [
        *heatmaps,
        *language_gaps,
        plot_path("transfer_gaps", RUN),
        *published_plots(),
        *all_training_plots(),
    ]


def submission_targets(zipped=None):
    """Every submission folder of the run (a leaderboard with a task of the run), and the zip
    of each whose leaderboard the run covers, or of every one where submission.zip_incomplete.
    """
    if zipped is None:
        zipped = config["submission"]["zip_incomplete"]
    targets = []
    for board in leaderboards().values():
        for m in config["models"]:
            for setting in all_settings(m):
                tasks = [
                    t
                    for t in board.tasks
                    if t in evaluated_tasks()
                    and setting in model_settings(m, t, config)
                ]
                if not tasks:
                    continue
                for seed in sorted({s for t in tasks for s in task_seeds(t, config)}):
                    fields = dict(run=RUN, model=m["name"], setting=setting, seed=seed)
                    targets.append(SUBMISSION.format(board=board.name, **fields))
                    complete = set(tasks) == set(board.tasks) and all(
                        set(board.languages[t]) <= set(task_languages(t, config))
                        and seed in task_seeds(t, config)
                        for t in tasks
                    )
                    if complete or zipped:
                        targets.append(
                            SUBMISSION_ZIP.format(board=board.name, **fields)
                        )
    return targets
