# The scheduler's side of every rule: the resources of its group (mem_mb, runtime in minutes,
# gpu) from the config's `resources`, a model's own first, and whether a group runs on the host
# that runs Snakemake. A cluster profile's placeholder account is refused here, before any job.

RESOURCE_KEYS = ("mem_mb", "runtime", "gpu")


def runs_locally(group):
    """On a cluster, whether a rule of ``group`` (network, light) runs on the host that runs
    Snakemake rather than as a submitted job (the config's ``run_locally``)."""
    return group in config["run_locally"]


def translation_resources():
    """A translated split's job: the translate group's resources (a GPU) when a model
    translates it, a download's (prepare) when it reads released translation files."""

    def resolver(key):
        by_model, by_files = (
            job_resources("translate")[key],
            job_resources("prepare")[key],
        )
        return lambda wc: (
            by_model if INPUTS.translated_by_model(wc.task, wc.split) else by_files
        )(wc)

    return {key: resolver(key) for key in RESOURCE_KEYS}


def job_resources(group):
    """A rule's scheduler resources (``mem_mb``, ``runtime`` in minutes, ``gpu``) from the
    config's ``resources.<group>``, a job's model's own ``resources.<group>`` first."""

    def resolver(key):
        def resolve(wildcards):
            model = getattr(wildcards, "model", None)
            if model is not None:
                own = (PLAN.model(model).entry.get("resources") or {}).get(group) or {}
                if own.get(key) is not None:
                    return own[key]
            return config["resources"][group][key]

        return resolve

    return {key: resolver(key) for key in RESOURCE_KEYS}


# profiles/slurm's account until a user sets theirs
PLACEHOLDER_ACCOUNT = "my-account"


def _check_cluster_account():
    """The SLURM profile ships a placeholder account: refuse it before any job is submitted
    (SLURM would reject every job, one by one)."""
    defaults = workflow.resource_settings.default_resources
    if not defaults or "slurm_account" not in defaults:
        return
    if str(defaults["slurm_account"].raw).strip("\"'") == PLACEHOLDER_ACCOUNT:
        stop(
            "profile key 'default-resources: slurm_account' is still the "
            f"placeholder '{PLACEHOLDER_ACCOUNT}' of profiles/slurm/config.yaml: set it to "
            "your SLURM account (`sacctmgr show assoc user=$USER format=account` lists "
            "yours), and slurm_partition to a partition of your cluster (`sinfo -s`)"
        )


_check_cluster_account()
