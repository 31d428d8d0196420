# What each job reads: input functions (get_*, called with a job's wildcards) and the
# per-task facts they share.


def task_config(task):
    return config["tasks"][task]


def model_task(task):
    """The task whose fine-tunes a task uses: itself, or e.g. squad for XQuAD and MLQA (the
    spec's models_of) or the config's (Belebele: an English multiple-choice task)."""
    return models_of(task, config) or task


def hyperparameters(task):
    """Hyper-parameters, those of the task whose fine-tunes it uses (same windows too)."""
    return task_config(model_task(task))["hyperparameters"]


def run_hyperparameters(task, setting):
    """A fine-tune's hyper-parameters: the task's, with LoRA where the setting asks for it
    (zero-shot-lora; its rank, alpha, dropout and modules: the task's ``lora``)."""
    if TRANSFER_SETTINGS[setting].method == "lora":
        return {**hyperparameters(task), "method": "lora"}
    return hyperparameters(task)


def train_language(task):
    return get_task(task).train_language


def label_subword(task):
    return task_config(task).get("label_subword", "first")


def eval_split(task):
    return eval_split_of(task, config)


def is_retrieval(task):
    """Tatoeba and BUCC: the pretrained encoder's embeddings, no fine-tuning."""
    return retrieves(get_task(task))


RETRIEVAL_TASKS = [name for name in TASKS if is_retrieval(name)]
POOLED_TASKS = [name for name in TASKS if pools(get_task(name))]
FINETUNED_TASKS = [name for name in TASKS if not is_retrieval(name)]
# the tasks a decoder can answer in context (their specs have a prompt)
PROMPTED_TASKS = [name for name in TASKS if get_task(name).prompt is not None]
# the settings whose predictions come from a model (fine-tuned, or the pretrained one
# prompted): the predict and prompt rules' setting wildcards
FINETUNED_SETTINGS = "|".join(n for n, s in TRANSFER_SETTINGS.items() if not s.prompted)
PROMPTED_SETTINGS = "|".join(n for n, s in TRANSFER_SETTINGS.items() if s.prompted)


def evaluated_tasks():
    """The configured tasks that are scored and tabulated (not SQuAD, a training set only)."""
    return [task for task in config["tasks"] if not get_task(task).train_only]


def suite_tasks(suite):
    """The configured tasks of a suite, in its paper's order."""
    return all_suites()[suite].configured(config["tasks"])


# --- download ---


def source_params(task, split):
    """Only what decides the downloaded content, so that adding a language reruns nothing else
    (and changing the translations reruns only the translated splits)."""
    cfg = task_config(task)
    params = {k: cfg.get(k) for k in ("source", "path", "files", "revision", "subset")}
    if cfg["source"] == "release":
        params["release_dir"] = RELEASE_DIR.format(task=task)
    if split in TRANSLATED_SPLITS:
        params["translations"] = cfg.get("translations")
        params["eval_split"] = cfg.get("eval_split")
    return params


def get_download_inputs(wc):
    """What a download job reads: a release's fetched record (ancient: a language added later
    fetches its files without rerunning the languages read before; the data key already holds
    the release's checksums), or the released files of a folder (source: files), so that a
    file changed on disk reruns its job (the demo's data, shipped in the package, is in the
    job's code param instead: its path moves with the checkout)."""
    cfg = task_config(wc.task)
    if wc.split in TRANSLATED_SPLITS:
        return []
    if cfg["source"] == "release":
        key = release_key(wc.task, config)
        return [ancient(RELEASE_RECORD.format(task=wc.task, release=key))]
    if cfg["source"] == "files":
        return released_files(get_task(wc.task), cfg, wc.lang, wc.split)
    return []


def translated_by_model(task, split):
    translations = task_config(task).get("translations") or {}
    return split in TRANSLATED_SPLITS and translations.get("source") == "model"


def get_translation_inputs(wc):
    """What a translation model translates into ``wc.split`` of ``wc.lang``: the canonical file
    of the original split, and the model's fetched folder when it comes from the hub (none for
    a local folder, none for released translation files)."""
    if not translated_by_model(wc.task, wc.split):
        return {}
    language, split, source, target = translation_source(
        wc.task, wc.split, wc.lang, config
    )
    inputs = {"original": data_path(wc.task, language, split)}
    options = task_config(wc.task)["translations"]
    name = translator_id(options["model"], source, target)
    if not Path(name).is_dir():
        folder = translator_folder(name, options.get("revision"))
        inputs["translator"] = TRANSLATION_MODEL.format(translator=folder)
    return inputs


def translation_params(wc):
    if not translated_by_model(wc.task, wc.split):
        return None
    _, _, source, target = translation_source(wc.task, wc.split, wc.lang, config)
    return {
        "languages": [source, target],
        "options": task_config(wc.task)["translations"],
    }


# --- tokenize ---


def get_data(wc):
    return data_path(wc.task, wc.lang, wc.split)


# --- fine-tune ---


def get_start_model(wc):
    """What a fine-tune starts from: the pretrained encoder, or with the task's ``start_from``
    that task's fine-tune of the same model and seed (zero-shot: trained on its English data),
    built once and shared with that task's own runs."""
    first = start_from(wc.task, config)
    if not first:
        return MODEL.format(model=wc.model)
    return run_path(FINETUNED, wc.model, first, "zero-shot", wc.seed)


def job_training_splits(wc):
    """(language, split) pairs a fine-tune job trains and selects on; the per-language
    settings' jobs have a ``lang`` wildcard."""
    return training_splits(wc.task, wc.setting, getattr(wc, "lang", None), config)


def get_training_features(role):
    """The input function of a fine-tune's ``role`` ("train" or "dev") features."""

    def features(wc):
        return [
            features_path(wc.model, wc.task, lang, split)
            for lang, split in job_training_splits(wc)[role]
        ]

    return features


def run_dir(wc):
    return RUN_DIR.format(
        model=wc.model,
        task=wc.task,
        variant=wc.variant,
        setting=wc.setting,
        seed=wc.seed,
    )


# --- predict and score ---


def get_finetuned_model(wc):
    """The fine-tuned model that predicts ``wc.lang``: the per-language settings have one per
    language (English's translate-train model is the zero-shot one: it trains on English only);
    translate-test predicts with the zero-shot model; a task that evaluates another task's
    models (XQuAD, MLQA: SQuAD's) uses that task's; the retrieval tasks use the pretrained model.
    """
    if is_retrieval(wc.task):
        return get_retrieval_model(wc)
    if TRANSFER_SETTINGS[wc.setting].prompted:
        return MODEL.format(model=wc.model)
    task = model_task(wc.task)
    setting = model_setting(wc.setting, wc.lang, train_language(task))
    if TRANSFER_SETTINGS[setting].per_language:
        return run_path(
            FINETUNED_PER_LANGUAGE, wc.model, task, setting, wc.seed, lang=wc.lang
        )
    return run_path(FINETUNED, wc.model, task, setting, wc.seed)


def get_demonstration_data(wc):
    """The in-context setting's demonstrations: the English training data of the task whose
    fine-tunes the task would use (XQuAD: SQuAD's)."""
    task = model_task(wc.task)
    return data_path(task, train_language(task), "train")


def get_retrieval_model(wc):
    """The encoder of a retrieval job: the pretrained model, or the zero-shot fine-tune of the
    same model and seed of the task its ``encoder`` names (Tatoeba with SQuAD's, as XTREME-R's
    run_tatoeba.sh)."""
    encoder = retrieval_encoder(wc.task, config)
    if encoder is None:
        return MODEL.format(model=wc.model)
    return run_path(FINETUNED, wc.model, encoder, "zero-shot", wc.seed)


def evaluated_split(wc):
    """The split a job predicts and scores (translate-test: the translated test set)."""
    return evaluation_split(wc.task, wc.setting, wc.lang, config)


def get_evaluated_features(wc):
    return features_path(wc.model, wc.task, wc.lang, evaluated_split(wc))


def get_pseudo_test_features(wc):
    return features_path(wc.model, wc.task, wc.lang, "pseudo-test")


def get_evaluated_gold(wc):
    return data_path(wc.task, wc.lang, evaluated_split(wc))


def get_pseudo_test_gold(wc):
    return data_path(wc.task, wc.lang, "pseudo-test")


def score_statistics():
    """The bootstrap and randomisation settings every score job reads."""
    return {
        key: config["statistics"][key] for key in ("resamples", "seed", "confidence")
    }


def get_score_data_meta(wc):
    """Provenance of every data file behind one score: training, dev and the test set."""
    if is_retrieval(wc.task):
        encoder = retrieval_encoder(wc.task, config)
        # the data of the fine-tune that embeds, where one does
        training = [
            data_meta(encoder, lang, split)
            for pairs in training_splits(encoder, "zero-shot", wc.lang, config).values()
            for lang, split in pairs
        ] if encoder else []  # fmt: skip
        return [
            *training,
            *(
                data_meta(wc.task, wc.lang, split)
                for split in retrieval_splits(wc.task)
            ),
        ]
    training = [
        data_meta(model_task(wc.task), lang, split)
        for pairs in training_splits(
            model_task(wc.task), wc.setting, wc.lang, config
        ).values()
        for lang, split in pairs
    ]
    return [*training, data_meta(wc.task, wc.lang, evaluated_split(wc))]


def get_pseudo_test_data_meta(wc):
    return [*get_score_data_meta(wc)[:-1], data_meta(wc.task, wc.lang, "pseudo-test")]


def retrieval_splits(task):
    """The splits a retrieval task reads: BUCC's dev picks the threshold for its test."""
    splits = family_of(get_task(task)).extra_eval_splits
    return list(dict.fromkeys([*splits, eval_split(task)]))


def get_retrieval_data(wc):
    data = {
        split: data_path(wc.task, wc.lang, split) for split in retrieval_splits(wc.task)
    }
    if wc.task in POOLED_TASKS:
        pool = {
            "model": wc.model,
            "task": wc.task,
            "variant": wc.variant,
            "setting": wc.setting,
            "seed": wc.seed,
        }
        data["pool_vectors"] = POOL_VECTORS.format(**pool)
        data["pool_index"] = POOL_INDEX.format(**pool)
    return data


def get_pool_data(wc):
    """A pooled task's pool: its own file in the task's folder (Mewsli-X's candidate set), else
    the evaluated split of every configured language, in the config's order."""
    pool_file = family_of(get_task(wc.task)).pool_file
    if pool_file:
        folder = Path(config["tasks"][wc.task].get("path") or ".")
        # a folder that awaits a step no URL can do (the dry run's note names it): planned
        # without it; the job says what to do if it is reached first
        if not folder.is_dir() and get_task(wc.task).manual_step:
            return []
        return [str(folder / pool_file)]
    return [
        data_path(wc.task, lang, eval_split(wc.task))
        for lang in task_languages(wc.task, config)
    ]


def get_dev_gold(wc):
    """BUCC's dev split, whose gold pairs set the mining threshold."""
    if "dev" in family_of(get_task(wc.task)).extra_eval_splits:
        return data_path(wc.task, wc.lang, "dev")
    return []


# --- tables and plots ---


def task_scores(task):
    """Every score file of a task: models x settings x seeds x languages."""
    return [
        scores_path(m["name"], task, setting, seed, lang)
        for m in config["models"]
        for setting in model_settings(m, task, config)
        for seed in task_seeds(task, config)
        for lang in task_languages(task, config)
    ]


def training_plot(finetuned):
    """The training-curve figure of a fine-tuned model's folder: RUN_DIR/model gives
    RUN_DIR/training.png, RUN_DIR/model/{lang} gives RUN_DIR/training/{lang}.png."""
    run, _, language = finetuned.rpartition(FINETUNED.removeprefix(RUN_DIR))
    return f"{run}/training{language}.png"


def all_training_plots():
    """A training-curve figure for every fine-tune behind the run's scores (once each:
    translate-test and XQuAD/MLQA reuse other models)."""
    plots = [
        training_plot(
            get_finetuned_model(
                SimpleNamespace(
                    model=m["name"], task=task, setting=setting, seed=seed, lang=lang
                )
            )
        )
        for task in evaluated_tasks()
        if not is_retrieval(task)
        for m in config["models"]
        for setting in model_settings(m, task, config)
        if not TRANSFER_SETTINGS[setting].prompted
        for seed in task_seeds(task, config)
        for lang in task_languages(task, config)
    ]
    # the fine-tunes that embed for a retrieval task (encoder: LAReQA's dual encoder)
    plots += [
        training_plot(
            get_retrieval_model(SimpleNamespace(model=m["name"], task=task, seed=seed))
        )
        for task in evaluated_tasks()
        if is_retrieval(task) and retrieval_encoder(task, config)
        for m in config["models"]
        for seed in task_seeds(task, config)
    ]
    return list(dict.fromkeys(plots))


def get_task_scores(wc):
    return task_scores(wc.task)


def get_suite_scores(wc):
    return [path for task in suite_tasks(wc.suite) for path in task_scores(task)]


def get_all_scores(wc):
    return [path for task in evaluated_tasks() for path in task_scores(task)]


def model_task_scores(model, task, setting):
    return [
        scores_path(model, task, setting, seed, lang)
        for seed in task_seeds(task, config)
        for lang in task_languages(task, config)
    ]


def get_model_task_scores(wc):
    return model_task_scores(wc.model, wc.task, wc.setting)


def get_model_setting_scores(wc):
    """Every score of one model and setting, over the tasks that run the setting."""
    return [
        path
        for task in evaluated_tasks()
        if wc.setting in model_settings(model_entry(wc.model), task, config)
        for path in model_task_scores(wc.model, task, wc.setting)
    ]


def pseudo_test_languages(task):
    """The languages of the pseudo test analysis: every one but the training language."""
    return [
        lang for lang in task_languages(task, config) if lang != train_language(task)
    ]


def pseudo_test_inputs(task, template):
    """Score files of the zero-shot models: on the human test sets (SCORES) or on the pseudo
    ones (PSEUDO_TEST_SCORES)."""
    return [
        scores_path(m["name"], task, "zero-shot", seed, lang, template)
        for m in config["models"]
        for seed in task_seeds(task, config)
        for lang in pseudo_test_languages(task)
    ]


def get_pseudo_test_inputs(template):
    return lambda wc: pseudo_test_inputs(wc.task, template)


def get_pseudo_test_data(split_of):
    """Input function: the data of the pseudo test languages in ``split_of(task)``."""
    return lambda wc: [
        data_path(wc.task, lang, split_of(wc.task))
        for lang in pseudo_test_languages(wc.task)
    ]


def check_data_lock():
    """Before planning: the data already in this run's folders agrees with the data lock (one
    line saying so), or the run stops naming each file that does not. Not in an update, which
    is there to accept other data."""
    if (
        not config["data_lock"]
        or config.get("update_lock")
        or not workflow.is_main_process
    ):
        return
    agree, problems = check_local_data(config, data_meta)
    if problems:
        stop(" ".join(problems))
    if agree:
        print(
            f"Data lock {config['data_lock']}: the {agree} downloaded data file(s) of this run "
            "that it records agree with it",
            file=sys.stderr,
        )


check_data_lock()


# a leaderboard submission (workflow/rules/submission.smk)
def submission_entries(wc):
    """Each task x language of the leaderboard that the run scores for this model, setting and
    seed: its prediction, gold test and score files."""
    board = leaderboards()[wc.board]
    seed = int(wc.seed)
    entries = []
    for task in board.tasks:
        if task not in evaluated_tasks():
            continue
        if wc.setting not in model_settings(model_entry(wc.model), task, config):
            continue
        if seed not in task_seeds(task, config):
            continue
        for lang in task_languages(task, config):
            if lang not in board.languages[task]:
                continue
            job = SimpleNamespace(task=task, setting=wc.setting, lang=lang)
            entries.append(
                {
                    "task": task,
                    "language": lang,
                    "predictions": run_path(
                        PREDICTIONS, wc.model, task, wc.setting, seed, lang=lang
                    ),
                    "gold": data_path(task, lang, evaluated_split(job)),
                    "score": scores_path(wc.model, task, wc.setting, seed, lang),
                }
            )
    return entries


def get_submission_files(wc):
    return [path for entry in submission_entries(wc) for key, path in entry.items()
            if key in ("predictions", "gold", "score")]  # fmt: skip
