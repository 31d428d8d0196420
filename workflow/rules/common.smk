import functools
import re
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError

# The package lives beside the scripts; importing it from there works without installing.
sys.path.insert(0, str(Path(workflow.basedir) / "workflow" / "scripts"))

from mte.config import (  # noqa: E402
    SETTINGS,
    check_config,
    check_schema,
    check_shared_finetunes,
    data_key,
    fill_schema_defaults,
    run_name,
    tokens_key,
    variant_key,
    KEY_PATTERN,
    eval_split_of,
    evaluation_split,
    task_languages,
    task_seeds,
    task_settings,
    training_splits,
    translation_source,
)
from mte.errors import MteError  # noqa: E402
from mte.families import family_of  # noqa: E402
from mte.references import find_reference, load_references  # noqa: E402
from mte.settings import (
    TRANSFER_SETTINGS,
    model_setting,
    wildcard_pattern,
)  # noqa: E402
from mte.suites import all_suites  # noqa: E402
from mte.tasks import (
    SPLITS,
    TASKS,
    TRANSLATED_SPLITS,
    get_task,
)  # noqa: E402


def reference_files():
    """Published numbers: the config's ``references`` files, else config/references/*.yaml."""
    default = sorted((Path(workflow.basedir) / "config" / "references").glob("*.yaml"))
    return [str(path) for path in (config.get("references") or default)]


@functools.cache
def references():
    """The published numbers, read once per DAG (the config check and the plot targets)."""
    return load_references(reference_files())


def _check_configuration():
    """Stop before any job with one message naming the config key at fault."""
    try:
        references()
        for name in config.get("tasks") or {}:
            get_task(name)
        check_schema(config, Path(workflow.basedir) / "config" / "schema.yaml")
        check_shared_finetunes(config)
        fill_schema_defaults(config, Path(workflow.basedir) / "config" / "schema.yaml")
        check_config(config)
    except MteError as err:
        raise WorkflowError(f"Configuration error: {err}") from None


_check_configuration()

# this run's tables, plots and summaries: results/runs/{RUN}/ (the config's `run`, else the
# config file's name), so that runs of different configs never rewrite each other's
RUN = run_name(config, workflow.config_settings.configfiles)


@functools.cache
def data_of(task):
    """A task's data folder: resources/data/{task}/{data}/ (hub, demo, files-1a2b3c4d)."""
    return data_key(task, config)


@functools.cache
def tokens_of(task):
    """A task's features folder: its data and its tokenisation."""
    return tokens_key(task, config)


@functools.cache
def variant_of(task):
    """A task's results folder: results/{model}/{task}/{variant}/ (data, hyper-parameters)."""
    return variant_key(task, config)


def data_path(task, lang, split, ext="jsonl"):
    return f"resources/data/{task}/{data_of(task)}/{lang}/{split}.{ext}"


wildcard_constraints:
    model=r"[A-Za-z0-9][A-Za-z0-9_.-]*",
    data=KEY_PATTERN,
    tokens=KEY_PATTERN,
    variant=KEY_PATTERN,
    run=re.escape(RUN),
    task="|".join(TASKS),
    suite="|".join(all_suites()),
    # ISO 639 codes (en), FLORES-200 codes (eng_Latn) and G-XLT pairs (en-de)
    lang=r"[a-z]{2,3}(?:_[A-Z][a-z]{3})?(?:-[a-z]{2,3})?",
    split="|".join(SPLITS),
    setting="|".join(SETTINGS),
    seed=r"\d+",


def model_entry(name):
    """The config entry of a model, by name."""
    return next(m for m in config["models"] if m["name"] == name)


RESOURCE_KEYS = ("mem_mb", "runtime", "gpu")


def job_resources(group):
    """A rule's scheduler resources (``mem_mb``, ``runtime`` in minutes, ``gpu``) from the
    config's ``resources.<group>``, a job's model's own ``resources.<group>`` first."""

    def resolver(key):
        def resolve(wildcards):
            model = getattr(wildcards, "model", None)
            if model is not None:
                own = (model_entry(model).get("resources") or {}).get(group) or {}
                if own.get(key) is not None:
                    return own[key]
            return config["resources"][group][key]

        return resolve

    return {key: resolver(key) for key in RESOURCE_KEYS}


def task_config(task):
    return config["tasks"][task]


def model_task(task):
    """The task whose fine-tunes a task uses: itself, or e.g. mlqa for MLQA G-XLT."""
    return get_task(task).models_of or task


def hyperparameters(task):
    """Hyper-parameters, those of the task whose fine-tunes it uses (same windows too)."""
    return task_config(model_task(task))["hyperparameters"]


def source_params(task, split):
    """Only what decides the downloaded content, so that adding a language reruns nothing else
    (and changing the translations reruns only the translated splits)."""
    cfg = task_config(task)
    params = {k: cfg.get(k) for k in ("source", "path", "files", "revision", "subset")}
    if split in TRANSLATED_SPLITS:
        params["translations"] = cfg.get("translations")
        params["eval_split"] = cfg.get("eval_split")
    return params


def translated_by_model(task, split):
    translations = task_config(task).get("translations") or {}
    return split in TRANSLATED_SPLITS and translations.get("source") == "model"


def translation_original(wc):
    """The canonical file a translation model translates into ``wc.split`` of ``wc.lang``."""
    if not translated_by_model(wc.task, wc.split):
        return {}
    language, split, _, _ = translation_source(wc.task, wc.split, wc.lang, config)
    return {"original": data_path(wc.task, language, split)}


def translation_params(wc):
    if not translated_by_model(wc.task, wc.split):
        return None
    _, _, source, target = translation_source(wc.task, wc.split, wc.lang, config)
    return {
        "languages": [source, target],
        "options": task_config(wc.task)["translations"],
    }


def eval_split(task):
    return eval_split_of(task, config)


def is_retrieval(task):
    """Tatoeba and BUCC: the pretrained encoder's embeddings, no fine-tuning."""
    return family_of(get_task(task)).retrieval


RETRIEVAL_TASKS = [name for name in TASKS if is_retrieval(name)]
FINETUNED_TASKS = [name for name in TASKS if not is_retrieval(name)]


def train_language(task):
    return get_task(task).train_language


def label_subword(task):
    return task_config(task).get("label_subword", "first")


def job_training_splits(wc):
    """(language, split) pairs a fine-tune job trains and selects on; the per-language
    settings' jobs have a ``lang`` wildcard."""
    setting = getattr(wc, "setting", "in-language")
    return training_splits(wc.task, setting, getattr(wc, "lang", None), config)


def training_features(wc, role):
    return [
        features_path(wc.model, wc.task, lang, split)
        for lang, split in job_training_splits(wc)[role]
    ]


def finetuned_dir(wc):
    """The fine-tuned model that predicts ``wc.lang``: the per-language settings have one per
    language (English's translate-train model is the zero-shot one: it trains on English only);
    translate-test predicts with the zero-shot model; a task that evaluates another task's
    models (MLQA G-XLT) uses that task's; the retrieval tasks use the pretrained model.
    """
    if is_retrieval(wc.task):
        return f"resources/models/{wc.model}"
    task = model_task(wc.task)
    setting = model_setting(wc.setting, wc.lang, train_language(task))
    base = f"results/{wc.model}/{task}/{variant_of(task)}/{setting}/seed{wc.seed}/model"
    return f"{base}/{wc.lang}" if TRANSFER_SETTINGS[setting].per_language else base


def evaluated_split(wc):
    """The split a job predicts and scores (translate-test: the translated test set)."""
    return evaluation_split(wc.task, wc.setting, wc.lang, config)


def evaluated_features(wc):
    return features_path(wc.model, wc.task, wc.lang, evaluated_split(wc))


def evaluated_gold(wc):
    return data_path(wc.task, wc.lang, evaluated_split(wc))


def features_path(model, task, lang, split):
    return (
        f"results/{model}/{task}/features/{tokens_of(task)}/{lang}/{split}/features.pt"
    )


def data_meta(task, lang, split):
    return data_path(task, lang, split, "meta.json")


def score_statistics():
    """The bootstrap and randomisation settings every score job reads."""
    return {
        key: config["statistics"][key] for key in ("resamples", "seed", "confidence")
    }


def score_data_meta(wc):
    """Provenance of every data file behind one score: training, dev and the test set."""
    if is_retrieval(wc.task):
        return [
            data_meta(wc.task, wc.lang, split) for split in retrieval_splits(wc.task)
        ]
    training = [
        data_meta(model_task(wc.task), lang, split)
        for pairs in training_splits(
            model_task(wc.task), wc.setting, wc.lang, config
        ).values()
        for lang, split in pairs
    ]
    return [*training, data_meta(wc.task, wc.lang, evaluated_split(wc))]


def retrieval_splits(task):
    """The splits a retrieval task reads: BUCC's dev picks the threshold for its test."""
    splits = family_of(get_task(task)).extra_eval_splits
    return list(dict.fromkeys([*splits, eval_split(task)]))


def retrieval_data(wc):
    return {
        split: data_path(wc.task, wc.lang, split) for split in retrieval_splits(wc.task)
    }


def dev_gold(wc):
    """BUCC's dev split, whose gold pairs set the mining threshold."""
    if "dev" in family_of(get_task(wc.task)).extra_eval_splits:
        return data_path(wc.task, wc.lang, "dev")
    return []


def run_dir(wc):
    return f"results/{wc.model}/{wc.task}/{wc.variant}/{wc.setting}/seed{wc.seed}"


def scores_path(model, task, setting, seed, lang, middle="scores"):
    """A score file: results/{model}/{task}/{variant}/{setting}/seed{seed}/scores/{lang}.json"""
    return f"results/{model}/{task}/{variant_of(task)}/{setting}/seed{seed}/{middle}/{lang}.json"


def task_scores(task):
    """Every score file of a task: models x settings x seeds x languages."""
    return [
        scores_path(m["name"], task, setting, seed, lang)
        for m in config["models"]
        for setting in task_settings(task, config)
        for seed in task_seeds(task, config)
        for lang in task_languages(task, config)
    ]


def evaluated_tasks():
    """The configured tasks that are scored and tabulated (not SQuAD, a training set only)."""
    return [task for task in config["tasks"] if not get_task(task).train_only]


def suite_tasks(suite):
    """The configured tasks of a suite, in its paper's order."""
    return all_suites()[suite].configured(config["tasks"])


def all_settings():
    return list(
        dict.fromkeys(
            s for task in evaluated_tasks() for s in task_settings(task, config)
        )
    )


def model_task_scores(model, task, setting):
    return [
        scores_path(model, task, setting, seed, lang)
        for seed in task_seeds(task, config)
        for lang in task_languages(task, config)
    ]


def model_setting_scores(model, setting):
    """Every score of one model and setting, over the tasks that run the setting."""
    return [
        path
        for task in evaluated_tasks()
        if setting in task_settings(task, config)
        for path in model_task_scores(model, task, setting)
    ]


def published_plots():
    """A bar plot for every model x task x setting with published numbers of its metric."""
    return [
        f"results/runs/{RUN}/plots/{m['name']}/{task}_{setting}_vs_published.png"
        for m in config["models"]
        for task in evaluated_tasks()
        for setting in task_settings(task, config)
        if find_reference(
            references(), m["name"], task, setting, get_task(task).primary_metric
        )
    ]


def pseudo_test_tasks():
    return [task for task in evaluated_tasks() if task_config(task).get("pseudo_test")]


def pseudo_test_languages(task):
    """The languages of the pseudo test analysis: every one but the training language."""
    return [
        lang for lang in task_languages(task, config) if lang != train_language(task)
    ]


def pseudo_test_inputs(task, kind):
    """Score files of the zero-shot models: on the human test sets or on the pseudo ones."""
    middle = "pseudo-test/scores" if kind == "pseudo" else "scores"
    return [
        scores_path(m["name"], task, "zero-shot", seed, lang, middle)
        for m in config["models"]
        for seed in task_seeds(task, config)
        for lang in pseudo_test_languages(task)
    ]


def pseudo_test_data(task, split):
    return [data_path(task, lang, split) for lang in pseudo_test_languages(task)]


def all_tables():
    formats = ("csv", "md", "tex")
    tables = [
        f"results/runs/{RUN}/tables/{task}.{ext}"
        for task in evaluated_tasks()
        for ext in formats
    ]
    tables += [
        f"results/runs/{RUN}/tables/{task}_pseudo_test.{ext}"
        for task in pseudo_test_tasks()
        for ext in ("csv", "md", "json")
    ]
    tables += [
        f"results/runs/{RUN}/tables/{suite}.{ext}"
        for suite in all_suites()
        if suite_tasks(suite)
        for ext in formats
    ]
    return tables


def all_plots():
    heatmaps = [
        f"results/runs/{RUN}/plots/{m['name']}/heatmap_{setting}.png"
        for m in config["models"]
        for setting in all_settings()
    ]
    return [
        *heatmaps,
        f"results/runs/{RUN}/plots/transfer_gaps.png",
        *published_plots(),
    ]
