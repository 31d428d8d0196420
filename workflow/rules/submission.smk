# XTREME and XTREME-R leaderboard submissions of a finished run (`make submission`,
# docs/submission.md): per model x setting x seed, the folder the authors' evaluate.py reads,
# then its zip. Not part of `all`: a run's tables never wait for them.


use rule light_step as submission with:
    input:
        INPUTS.submission_files,
    output:
        directory(SUBMISSION),
    log:
        log_path("submission", SUBMISSION_JOB),
    benchmark:
        benchmark_path("submission", SUBMISSION_JOB)
    wildcard_constraints:
        board="|".join(re.escape(name) for name in leaderboards()),
    localrule: runs_locally("light")
    params:
        **light_script("submission.py"),
        entries=INPUTS.submission_entries,


use rule light_step as submission_zip with:
    input:
        SUBMISSION,
    output:
        SUBMISSION_ZIP,
    log:
        log_path("submission", f"{SUBMISSION_JOB}.zip"),
    benchmark:
        benchmark_path("submission", f"{SUBMISSION_JOB}.zip")
    wildcard_constraints:
        board="|".join(re.escape(name) for name in leaderboards()),
    localrule: runs_locally("light")
    params:
        **light_script("submission_zip.py"),
        incomplete=config["submission"]["zip_incomplete"],
