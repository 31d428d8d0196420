"""Rule tokenize: canonical examples into model-specific features."""

from mte.config.queries import models_of
from mte.hub.models import load_tokenizer
from mte.io import read_jsonl
from mte.modelling.features import save_features
from mte.registry import get_task
from mte.runtime.logs import rule_logging, summary
from mte.steps.featurize import tokenize_examples

with rule_logging(snakemake) as log:
    task = get_task(snakemake.wildcards.task)
    # the fine-tune's task decides it (SQuAD's for XQuAD); it names the features' folder, so
    # it is read here rather than as a param (a new param would redo every tokenisation)
    owner = snakemake.config["tasks"][models_of(task.name, snakemake.config) or task.name]
    tokenization = snakemake.config["tokenization"]
    tokenizer = load_tokenizer(
        snakemake.input.model, owner.get("do_lower_case", False), tokenization
    )
    examples = read_jsonl(snakemake.input.data)
    features = tokenize_examples(
        tokenizer,
        examples,
        task,
        snakemake.params.max_length,
        label_subword=snakemake.params.label_subword,
        doc_stride=snakemake.params.doc_stride,
        windows=owner.get("windows", "run_qa"),
        max_query_length=owner.get("max_query_length", 64),
        do_lower_case=owner.get("do_lower_case", False),
        training=snakemake.wildcards.split in ("train", "translate-train"),
        tokenization=tokenization,
    )
    save_features(features, snakemake.output[0])
    if features.get("windows") == "run_squad":
        log.info(
            "run_squad windows: %d sub-tokens between window starts, questions cut to %d",
            snakemake.params.doc_stride,
            owner.get("max_query_length", 64),
        )
    summary(
        "%d examples, %d inputs of at most %d sub-tokens; %d pairs truncated, %d sentences split",
        len(examples),
        len(features["input_ids"]),
        features["max_length"],
        features.get("truncated", 0),
        features.get("split_sentences", 0),
    )
