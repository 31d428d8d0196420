# XTREME's pseudo test analysis: the zero-shot model on the English test set machine-translated
# into each language, beside the human translation of the same items
use rule predict as predict_pseudo_test with:
    input:
        model=INPUTS.finetuned_model,
        features=INPUTS.pseudo_test_features,
    output:
        PSEUDO_TEST_PREDICTIONS,
        machine=PSEUDO_TEST_MACHINE,
    log:
        log_path("predict", PSEUDO_TEST_JOB),
    benchmark:
        benchmark_path("predict", PSEUDO_TEST_JOB)
    wildcard_constraints:
        setting="zero-shot",


use rule score as score_pseudo_test with:
    input:
        predictions=PSEUDO_TEST_PREDICTIONS,
        machine=PSEUDO_TEST_MACHINE,
        gold=INPUTS.pseudo_test_gold,
        base_model=MODEL,
        model=INPUTS.finetuned_model,
        dev_gold=INPUTS.dev_gold,
        data_meta=INPUTS.pseudo_test_data_meta,
    output:
        PSEUDO_TEST_SCORES,
    log:
        log_path("score", PSEUDO_TEST_JOB),
    benchmark:
        benchmark_path("score", PSEUDO_TEST_JOB)
    wildcard_constraints:
        setting="zero-shot",
    localrule: runs_locally("light")
    params:
        code=code_of("score.py", "score"),
        split="pseudo-test",
        statistics=INPUTS.score_statistics(),


use rule light_step as pseudo_test_table with:
    input:
        human=lambda wc: INPUTS.pseudo_test_scores(wc.task, SCORES),
        pseudo=lambda wc: INPUTS.pseudo_test_scores(wc.task, PSEUDO_TEST_SCORES),
        human_data=lambda wc: INPUTS.pseudo_test_data(
            wc.task, PLAN.task(wc.task).eval_split
        ),
        pseudo_data=lambda wc: INPUTS.pseudo_test_data(wc.task, "pseudo-test"),
    output:
        csv=report(
            table_path("{task}_pseudo_test", "csv"),
            caption="../report/pseudo_test.rst",
            category="Tables",
        ),
        md=table_path("{task}_pseudo_test", "md"),
        json=table_path("{task}_pseudo_test", "json"),
    log:
        log_path("aggregate", "{run}/{task}_pseudo_test"),
    benchmark:
        benchmark_path("aggregate", "{run}/{task}_pseudo_test")
    localrule: runs_locally("light")
    params:
        **light_script("pseudo_test.py"),
        languages=lambda wc: INPUTS.pseudo_test_languages(wc.task),
