"""Every file the workflow writes, named once: the rules take their outputs, logs and benchmarks
from these templates, and the job inputs and targets (mte.config.plan.inputs, .targets) fill the
same templates with the plan's folder keys (:class:`RunFiles`)."""

from __future__ import annotations

from mte.config.plan.run import RunPlan
from mte.tasks.settings import TRANSFER_SETTINGS

# a task's data, read once: resources/data/{task}/{data}/ (hub, demo, files-1a2b3c4d)
DATA = "resources/data/{task}/{data}/{lang}/{split}.jsonl"
DATA_META = "resources/data/{task}/{data}/{lang}/{split}.meta.json"
# a task's released files (source: release), downloaded once, and the record of what a run's
# languages needed of them (named by a digest of those files)
RELEASE_DIR = "resources/releases/{task}"
RELEASE_RECORD = "resources/releases/{task}/fetched-{release}.json"
MODEL = "resources/models/{model}"
# what a task asks of the model's architecture, checked against its config.json before the
# task's fine-tune or embedding jobs read it (mte.steps.models): one file per model and task,
# so that a task added later adds a check and changes none
MODEL_CHECK = "resources/model-checks/{model}/{task}.json"
# a translation model from the hub, fetched where the network is (its hub id with "--" for the
# slash, and "@revision" when one is pinned): facebook--nllb-200-distilled-600M
TRANSLATION_MODEL = "resources/translation-models/{translator}"
# a model's features of a task's data, per tokenisation
FEATURES = "results/{model}/{task}/features/{tokens}/{lang}/{split}/features.pt"
# one fine-tune (or retrieval) run of a task: results/{model}/{task}/{variant}/...
RUN_DIR = "results/{model}/{task}/{variant}/{setting}/seed{seed}"
FINETUNED = f"{RUN_DIR}/model"
FINETUNED_PER_LANGUAGE = f"{FINETUNED}/{{lang}}"
PREDICTIONS = f"{RUN_DIR}/predictions/{{lang}}.jsonl"
# the machine that made them (predict or retrieve), for the score's provenance
PREDICTION_MACHINE = f"{RUN_DIR}/predictions/{{lang}}.machine.json"
# a pooled retrieval task's pool (LAReQA), shared by its languages' retrieve jobs; per seed,
# as the encoder that embeds it may be a fine-tune of that seed
POOL_DIR = f"{RUN_DIR}/pool"
POOL_VECTORS = f"{POOL_DIR}/vectors.npz"
POOL_INDEX = f"{POOL_DIR}/index.json"
SCORES = f"{RUN_DIR}/scores/{{lang}}.json"
# a fine-tune's training curves (dev score per epoch, loss per step), beside its model
TRAINING_PLOT = f"{RUN_DIR}/training.png"
TRAINING_PLOT_PER_LANGUAGE = f"{RUN_DIR}/training/{{lang}}.png"
# XTREME's pseudo test analysis: the same, on the machine-translated English test set
PSEUDO_TEST_PREDICTIONS = f"{RUN_DIR}/pseudo-test/predictions/{{lang}}.jsonl"
PSEUDO_TEST_MACHINE = f"{RUN_DIR}/pseudo-test/predictions/{{lang}}.machine.json"
PSEUDO_TEST_SCORES = f"{RUN_DIR}/pseudo-test/scores/{{lang}}.json"
# a run's tables and figures: results/runs/{run}/
TABLE = "results/runs/{run}/tables/{name}.{ext}"
PLOT = "results/runs/{run}/plots/{name}.png"
# the run's provenance for the report: models, packages, hardware behind its score files
RUN_PROVENANCE = "results/runs/{run}/provenance.html"
# the run's score files by task, model, setting, seed and language: what mte-leaderboard reads
RUN_SCORES_INDEX = "results/runs/{run}/scores.csv"
# every score of the run in one file (mte.steps.run_results)
RUN_RESULTS = "results/runs/{run}/results.json"
# why a model transfers where it does: the run's analyses as CSV files and a report page
RUN_ANALYSIS = "results/runs/{run}/analyses/{name}.csv"
RUN_ANALYSES_PAGE = "results/runs/{run}/analyses.html"
# where every prediction file of the run lies (their folders are named by digests)
RUN_PREDICTIONS_INDEX = "results/runs/{run}/predictions.csv"

# a leaderboard submission of one model x setting x seed of the run (make submission): the
# folder XTREME's evaluate.py reads ({board}: its --xtreme_version), and its zip
SUBMISSION = "results/runs/{run}/submission/{model}/{setting}/seed{seed}/{board}"
SUBMISSION_ZIP = f"{SUBMISSION}.zip"

# the part of a job's log and benchmark path after its rule's folder
DATA_JOB = "{task}/{data}/{lang}/{split}"
RELEASE_JOB = "{task}/{release}"
FEATURES_JOB = "{model}/{task}/{tokens}/{lang}/{split}"
RUN_JOB = "{model}/{task}/{variant}/{setting}/seed{seed}"
RUN_LANGUAGE_JOB = f"{RUN_JOB}/{{lang}}"
PSEUDO_TEST_JOB = f"{RUN_JOB}/pseudo-test/{{lang}}"
POOL_JOB = f"{RUN_JOB}/pool"
SUBMISSION_JOB = "{run}/{model}/{setting}/seed{seed}/{board}"


def log_path(folder: str, job: str) -> str:
    return f"results/logs/{folder}/{job}.log"


def benchmark_path(folder: str, job: str) -> str:
    return f"results/benchmarks/{folder}/{job}.tsv"


def table_path(name: str, ext: str, run: str = "{run}") -> str:
    """A table of a run; ``name`` a task, a suite, or a rule's wildcard (``{task}``)."""
    return TABLE.format(run=run, name=name, ext=ext)


def plot_path(name: str, run: str = "{run}") -> str:
    return PLOT.format(run=run, name=name)


class RunFiles:
    """The templates filled for one run: each task's folders are its plan's keys."""

    def __init__(self, plan: RunPlan) -> None:
        self.plan = plan

    def data(self, task: str, lang: str, split: str, template: str = DATA) -> str:
        """A task's data folder: resources/data/{task}/{data}/ (hub, demo, files-1a2b3c4d)."""
        return template.format(task=task, data=self.plan.data_key(task), lang=lang, split=split)

    def data_meta(self, task: str, lang: str, split: str) -> str:
        return self.data(task, lang, split, DATA_META)

    def features(self, model: str, task: str, lang: str, split: str) -> str:
        """A task's features folder: its data and its tokenisation."""
        tokens = self.plan.tokens_key(task)
        return FEATURES.format(model=model, task=task, tokens=tokens, lang=lang, split=split)

    def variant(self, task: str, setting: str = "zero-shot") -> str:
        """A task's results folder: results/{model}/{task}/{variant}/ (data, hyper-parameters);
        the in-context setting's has the demonstrations' data and the prompting options
        instead."""
        if TRANSFER_SETTINGS[setting].prompted:
            return self.plan.prompted_variant_key(task)
        return self.plan.variant_key(task)

    def run(self, template: str, model: str, task: str, setting: str, seed, **more) -> str:
        """``template`` (a RUN_DIR path) of one run of a task, in its results variant."""
        variant = self.variant(task, setting)
        return template.format(
            model=model, task=task, variant=variant, setting=setting, seed=seed, **more
        )

    def scores(self, model: str, task: str, setting: str, seed, lang: str, template: str = SCORES):
        return self.run(template, model, task, setting, seed, lang=lang)
