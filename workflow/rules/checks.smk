# The configuration, checked once before any job: schema (with defaults), task registry,
# published numbers; then the run's name, wildcard constraints and scheduler resources.
import functools
import re
import sys
from pathlib import Path
from types import SimpleNamespace

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
    type_command_line_values,
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
        type_command_line_values(config, workflow.config_settings.config)
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
