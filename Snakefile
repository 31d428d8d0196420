# multilingual-transfer-eval: fine-tune on English, predict every language, score, tabulate.
# The default config runs offline on the demo data; a --configfile replaces it entirely
# (config/xtreme.yaml, config/xlmr.yaml are complete runs), while --config keys still apply.
# Another workflow can include it as a Snakemake module (docs/running.md, "As a module").

from snakemake.utils import min_version

# the version envs/mte.yaml and pyproject.toml pin: workflow.source_path, localrule, the
# resource_scopes below and the executor plugins' settings are written for it
min_version("9.27")


if not workflow.config_settings.configfiles:

    configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/resources.smk"
include: "workflow/rules/light.smk"
include: "workflow/rules/download.smk"
include: "workflow/rules/model.smk"
include: "workflow/rules/tokenize.smk"
include: "workflow/rules/finetune.smk"
include: "workflow/rules/predict.smk"
include: "workflow/rules/score.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/pseudo_test.smk"
include: "workflow/rules/plots.smk"
include: "workflow/rules/submission.smk"


report: "workflow/report/workflow.rst"


# a cluster profile's --resources tokenize_slots=N is a pool per submitted job, not for the run
# (workflow/rules/tokenize.smk, profiles/slurm)
resource_scopes:
    tokenize_slots="local",


rule all:
    default_target: True
    input:
        # an update of the data lock (update_lock=true) downloads, and does nothing else
        (
            TARGETS.downloads(run_downloads(PLAN))
            if config.get("update_lock")
            else [TARGETS.tables(), TARGETS.plots()]
        ),


# `make submission`: every submission folder of the run, and the zips its coverage allows
rule submissions:
    input:
        TARGETS.submissions(),
    localrule: True
