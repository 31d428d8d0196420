# The configuration, checked once before any job: schema (with defaults), task registry,
# published numbers; then the run's name, wildcard constraints and scheduler resources.
import functools
import os
import re
import sys
from pathlib import Path
from types import SimpleNamespace

# Files of this checkout, found from this file rather than from the main Snakefile's folder
# (workflow.basedir), which is another workflow's when this one is used as a module: the schema
# through source_path (one file, which Snakemake caches), the folders from this file's own
# (source_path copies single files only).
SCHEMA = workflow.source_path("../../config/schema.yaml")
CHECKOUT = Path(str(workflow.current_basedir)).parents[1]
SCRIPTS = CHECKOUT / "workflow" / "scripts"
REFERENCES = CHECKOUT / "config" / "references"
# The package lives beside the scripts; importing it from there works without installing.
sys.path.insert(0, str(SCRIPTS))

from mte.config.checks import check_configuration  # noqa: E402
from mte.config.datalock import (  # noqa: E402
    check_local_data,
    record_downloads,
    run_downloads,
)
from mte.config.plan import build_plan, thawed  # noqa: E402
from mte.config.plan.files import (  # noqa: E402 (every file the workflow writes)
    DATA,
    DATA_META,
    RELEASE_DIR,
    RELEASE_RECORD,
    MODEL,
    MODEL_CHECK,
    TRANSLATION_MODEL,
    FEATURES,
    FINETUNED,
    FINETUNED_PER_LANGUAGE,
    PREDICTIONS,
    PREDICTION_MACHINE,
    POOL_VECTORS,
    POOL_INDEX,
    SCORES,
    TRAINING_PLOT,
    TRAINING_PLOT_PER_LANGUAGE,
    PSEUDO_TEST_PREDICTIONS,
    PSEUDO_TEST_MACHINE,
    PSEUDO_TEST_SCORES,
    RUN_PROVENANCE,
    RUN_SCORES_INDEX,
    RUN_RESULTS,
    RUN_ANALYSIS,
    RUN_ANALYSES_PAGE,
    RUN_PREDICTIONS_INDEX,
    SUBMISSION,
    SUBMISSION_ZIP,
    DATA_JOB,
    RELEASE_JOB,
    FEATURES_JOB,
    RUN_JOB,
    RUN_LANGUAGE_JOB,
    PSEUDO_TEST_JOB,
    POOL_JOB,
    SUBMISSION_JOB,
    RunFiles,
    benchmark_path,
    log_path,
    plot_path,
    table_path,
)
from mte.config.plan.inputs import JobInputs  # noqa: E402
from mte.config.plan.keys import KEY_PATTERN, data_lock_path, run_name  # noqa: E402
from mte.config.plan.resolve import SETTINGS  # noqa: E402
from mte.config.plan.targets import RunTargets  # noqa: E402
from mte.config.schema import type_command_line_values  # noqa: E402
from mte.errors import MteError  # noqa: E402
from mte.modelling.translation import translator_on_hub  # noqa: E402
from mte.published import folder_files, load_references  # noqa: E402
from mte.registry import (  # noqa: E402
    TASKS,
    all_suites,
    family_package_of,
    get_task,
    pools,
    retrieves,
    spec_module_of,
)
from mte.runtime.code_digest import ALL_ROLES, code_digest  # noqa: E402
from mte.steps.analyses import ANALYSES  # noqa: E402
from mte.submission.versions import leaderboards  # noqa: E402
from mte.tasks.settings import TRANSFER_SETTINGS, wildcard_pattern  # noqa: E402
from mte.tasks.spec import SPLITS, TRANSLATED_SPLITS  # noqa: E402


def reference_files():
    """Published numbers: every config/references/*.yaml of the workflow, then the config's own
    ``references`` files (each entry of theirs fills or replaces the cells of an earlier one
    with its paper, table, model, task, setting and metric: mte.published). Relative to the
    working directory, as every other input: a checkout moved with its results plans nothing
    new."""
    files = [*folder_files(REFERENCES), *(config.get("references") or ())]
    return [os.path.relpath(path) for path in files]


@functools.cache
def references():
    """The published numbers, read once per DAG (the config check and the plot targets)."""
    return load_references(reference_files())


def stop(message):
    """Stop before any job with one line naming the key at fault: Snakemake's frame around a
    WorkflowError (its file, line and our call stack) says nothing about the config, so every
    check of this file stops this one way."""
    print(f"Configuration error: {message}", file=sys.stderr)
    sys.exit(1)


def _check_configuration():
    """Stop before any job with one message naming the config key at fault; return the tasks
    whose files await a step the workflow cannot do (each noted in one line)."""
    try:
        type_command_line_values(config, workflow.config_settings.config)
        references()
        awaited = check_configuration(config, SCHEMA)
    except MteError as err:
        stop(str(err))
    for step in awaited:
        # a dry run still plans them; a run stops in onstart (below) before any job
        print(f"Note: {step.message()}", file=sys.stderr)
    return awaited


AWAITED_STEPS = _check_configuration()


def stop_on_awaited_steps():
    """A run (never a dry run: Snakemake calls onstart only to run jobs) whose jobs include a
    task awaiting a manual step stops before the first job, naming the step and the
    skip_tasks that runs the rest: its jobs would only fail one by one."""
    planned = {job.wildcards_dict.get("task") for job in workflow.dag.needrun_jobs()}
    for step in AWAITED_STEPS:
        if planned & set(step.tasks):
            stop(step.message())


def stop_on_update_beyond_downloads():
    """``update_lock`` accepts new bytes under the folder named before; the jobs after a
    download would run on them there. An update runs the downloads only (its default target).
    """
    if not config.get("update_lock"):
        return
    ran = {job.rule.name for job in workflow.dag.needrun_jobs()}
    others = sorted(ran - {"download", "fetch_release", "all"})
    if others:
        stop(
            f"update_lock=true accepts new data for the data lock {config['data_lock']} and "
            f"runs the downloads only, but this run's targets would also run "
            f"{', '.join(others)} (on data whose key the update changes): run it without "
            "targets (its target is then every download: make update-lock CONFIG=<config>), "
            "then run as usual"
        )


onstart:
    stop_on_awaited_steps()
    stop_on_update_beyond_downloads()


def record_data_lock():
    """The end of a run (whether its jobs all succeeded or not): the downloads it made go into
    the data lock, one line for each change (mte.config.datalock)."""
    if not workflow.is_main_process:
        return
    accept = bool(config.get("update_lock"))
    for line in record_downloads(PLAN, FILES.data_meta, CONFIG_NAME, accept):
        print(f"Data lock {config['data_lock']}: {line}", file=sys.stderr)


onsuccess:
    record_data_lock()


onerror:
    record_data_lock()


# this run's tables, plots and summaries: results/runs/{RUN}/ (the config's `run`, else the
# config file's name), so that runs of different configs never rewrite each other's
RUN = run_name(config, workflow.config_settings.configfiles)
# the run's data lock (mte.hub.lock): its path, relative to the working directory, or false;
# set in the config, which the cache keys and the download jobs read it from
DEFAULT_CONFIG = CHECKOUT / "config" / "config.yaml"
CONFIG_NAME = os.path.relpath(
    (workflow.config_settings.configfiles or [DEFAULT_CONFIG])[0]
)
config["data_lock"] = (
    data_lock_path(config, workflow.config_settings.configfiles, DEFAULT_CONFIG)
    or False
)


# The plan of the run (mte.config.plan), built once from the checked config: every rule's input
# functions and params are methods of INPUTS over it, every target a method of TARGETS.
PLAN = build_plan(config)
FILES = RunFiles(PLAN)
INPUTS = JobInputs(PLAN, FILES)
TARGETS = RunTargets(PLAN, INPUTS, RUN, references())


def get_download_inputs(wc):
    """A download's inputs (mte.config.plan.inputs.JobInputs.download), a release's fetched
    record marked ancient: a language added later fetches its files without rerunning the
    languages read before."""
    kind, paths = INPUTS.download(wc)
    return [ancient(path) for path in paths] if kind == "release" else paths


# the splits of the released data; the translated ones are made by the translate rule
ORIGINAL_SPLITS = [split for split in SPLITS if split not in TRANSLATED_SPLITS]
# the rules' task wildcards: Tatoeba, BUCC, LAReQA, Mewsli-X retrieve with an encoder (those
# with a pool embed it first); the others fine-tune; a decoder answers in context those whose
# specs have a prompt
RETRIEVAL_TASKS = [name for name, task in TASKS.items() if retrieves(task)]
POOLED_TASKS = [name for name, task in TASKS.items() if pools(task)]
FINETUNED_TASKS = [name for name, task in TASKS.items() if not retrieves(task)]
PROMPTED_TASKS = [name for name, task in TASKS.items() if task.prompt is not None]
# the settings whose predictions come from a model (fine-tuned, or the pretrained one
# prompted): the predict and prompt rules' setting wildcards
FINETUNED_SETTINGS = "|".join(n for n, s in TRANSFER_SETTINGS.items() if not s.prompted)
PROMPTED_SETTINGS = "|".join(n for n, s in TRANSFER_SETTINGS.items() if s.prompted)


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
    agree, problems = check_local_data(PLAN, FILES.data_meta)
    if problems:
        stop(" ".join(problems))
    if agree:
        print(
            f"Data lock {config['data_lock']}: the {agree} downloaded data file(s) of this run "
            "that it records agree with it",
            file=sys.stderr,
        )


check_data_lock()


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
    translator=r"[A-Za-z0-9][A-Za-z0-9_.-]*(@[A-Za-z0-9_.-]+)?",


def code_of(script, *roles):
    """A rule's ``code`` param: the digest of its script and of the package code its jobs run
    (mte.runtime.code_digest), narrowed to the job's task's spec and family and to the parts of a
    family that ``roles`` name (read, features, model, score; "none": no part, for a job that
    reads a fine-tune's curves or the scores only; none given: every part), and,
    for a job that reads data, the task's demo data shipped in the package. A change to that
    code changes the param, and Snakemake plans the job again."""
    script_path = SCRIPTS / script
    chosen = frozenset(roles) if roles else ALL_ROLES

    def code(wildcards):
        task = wildcards.get("task")
        if not task:
            return code_digest(script_path, chosen)
        spec = get_task(task)
        demo = f"demo/{task}" if "read" in roles else None
        return code_digest(
            script_path, chosen, family_package_of(spec), spec_module_of(task), demo
        )

    return code


def light_script(script, *roles):
    """A light rule's script and its ``code`` param (code_of), as params: the script's name
    written once."""
    return {"script": script, "code": code_of(script, *roles)}


def template_only(wildcards):
    """The template rule's script param: a job of the template itself is refused."""
    raise WorkflowError(
        "light_step (workflow/rules/light.smk) is the template of the light rules; "
        "ask for one of them or for their outputs, not for it"
    )
