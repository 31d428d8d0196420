# XTREME's pseudo test analysis: the zero-shot model on the English test set machine-translated
# into each language, beside the human translation of the same items
use rule predict as predict_pseudo_test with:
    input:
        model=finetuned_dir,
        features=lambda wc: features_path(wc.model, wc.task, wc.lang, "pseudo-test"),
    output:
        "results/{model}/{task}/{variant}/{setting}/seed{seed}/pseudo-test/predictions/{lang}.jsonl",
    log:
        "results/logs/predict/{model}/{task}/{variant}/{setting}/seed{seed}/pseudo-test/{lang}.log",
    benchmark:
        "results/benchmarks/predict/{model}/{task}/{variant}/{setting}/seed{seed}/pseudo-test/{lang}.tsv"
    wildcard_constraints:
        setting="zero-shot",


use rule score as score_pseudo_test with:
    input:
        predictions="results/{model}/{task}/{variant}/{setting}/seed{seed}/pseudo-test/predictions/{lang}.jsonl",
        gold=lambda wc: data_path(wc.task, wc.lang, "pseudo-test"),
        base_model="resources/models/{model}",
        model=finetuned_dir,
        dev_gold=dev_gold,
        data_meta=lambda wc: [
            *score_data_meta(wc)[:-1],
            data_meta(wc.task, wc.lang, "pseudo-test"),
        ],
    output:
        "results/{model}/{task}/{variant}/{setting}/seed{seed}/pseudo-test/scores/{lang}.json",
    log:
        "results/logs/score/{model}/{task}/{variant}/{setting}/seed{seed}/pseudo-test/{lang}.log",
    benchmark:
        "results/benchmarks/score/{model}/{task}/{variant}/{setting}/seed{seed}/pseudo-test/{lang}.tsv"
    wildcard_constraints:
        setting="zero-shot",
    params:
        split="pseudo-test",
        statistics=score_statistics(),


rule pseudo_test_table:
    input:
        human=lambda wc: pseudo_test_inputs(wc.task, "human"),
        pseudo=lambda wc: pseudo_test_inputs(wc.task, "pseudo"),
        human_data=lambda wc: pseudo_test_data(wc.task, eval_split(wc.task)),
        pseudo_data=lambda wc: pseudo_test_data(wc.task, "pseudo-test"),
    output:
        csv=report(
            "results/runs/{run}/tables/{task}_pseudo_test.csv",
            caption="../report/pseudo_test.rst",
            category="Tables",
        ),
        md="results/runs/{run}/tables/{task}_pseudo_test.md",
        json="results/runs/{run}/tables/{task}_pseudo_test.json",
    log:
        "results/logs/aggregate/{run}/{task}_pseudo_test.log",
    benchmark:
        "results/benchmarks/aggregate/{run}/{task}_pseudo_test.tsv"
    conda:
        "../../envs/mte.yaml"
    threads: 1
    resources:
        **job_resources("light"),
    params:
        languages=lambda wc: pseudo_test_languages(wc.task),
    script:
        "../scripts/pseudo_test.py"
