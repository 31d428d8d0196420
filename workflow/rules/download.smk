# a split of a task's released data (or its hub rows), where the network is (run_locally)
rule download:
    input:
        get_download_inputs,
    output:
        data=DATA,
        meta=DATA_META,
    log:
        log_path("download", DATA_JOB),
    benchmark:
        benchmark_path("download", DATA_JOB)
    wildcard_constraints:
        split="|".join(ORIGINAL_SPLITS),
    localrule: runs_locally("network")
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("prepare"),
    params:
        code=code_of("download.py", "read"),
        source=INPUTS.source_params,
        translation=INPUTS.translation_params,
        # the data lock's file and the task's records in it (docs/data-sources.md)
        lock=INPUTS.lock_params,
        device=config["device"],
    script:
        "../scripts/download.py"


# a translated split (translate-train, translate-test, pseudo-test): the released translation
# files, or the original split translated by a model (on a GPU, fetched before by
# fetch_translation_model where the network is)
use rule download as translate with:
    input:
        unpack(INPUTS.translation),
    log:
        log_path("translate", DATA_JOB),
    benchmark:
        benchmark_path("translate", DATA_JOB)
    wildcard_constraints:
        split="|".join(TRANSLATED_SPLITS),
    localrule: False
    resources:
        **translation_resources(),


rule fetch_translation_model:
    output:
        directory(TRANSLATION_MODEL),
    log:
        log_path("fetch_translation_model", "{translator}"),
    benchmark:
        benchmark_path("fetch_translation_model", "{translator}")
    localrule: runs_locally("network")
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("prepare"),
    params:
        code=code_of("fetch_translation_model.py"),
        hub=lambda wc: translator_on_hub(wc.translator),
    script:
        "../scripts/fetch_translation_model.py"


# the authors' released files of a task (source: release): downloaded once, where the network
# is, checked against their SHA-256 and extracted; the record names what the run's languages
# needed (a language added later fetches its own files and keeps the others)
rule fetch_release:
    output:
        RELEASE_RECORD,
    log:
        log_path("fetch_release", RELEASE_JOB),
    benchmark:
        benchmark_path("fetch_release", RELEASE_JOB)
    wildcard_constraints:
        release="[0-9a-f]{8}",
    localrule: runs_locally("network")
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("prepare"),
    params:
        code=code_of("fetch_release.py"),
        languages=lambda wc: PLAN.release_languages(wc.task),
        folder=lambda wc: RELEASE_DIR.format(task=wc.task),
        mirror=config["release_mirror"],
    script:
        "../scripts/fetch_release.py"
