# The directives every light step shares: a score, a table, a figure, the run's pages. Each
# such rule is `use rule light_step as <name> with:` and names its own inputs, outputs, log,
# benchmark and params, `script` among them: Snakemake's `use rule ... with:` cannot replace
# a rule's script, but it fills a script path from the params, so the one template serves them all.
# Each light rule says `localrule: runs_locally("light")` itself: a `with:` block always
# overwrites the parent's localrule (Snakemake's RuleInfo.localrule defaults to False, not None).


rule light_step:
    """The template of the light rules; not a step of its own."""
    log:
        log_path("light", "template"),
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        script=template_only,
    script:
        "../scripts/{params.script}"
