"""Rule tokenize: canonical examples into model-specific features."""

from mte.hub.models import load_tokenizer
from mte.io import read_jsonl
from mte.modelling.features import save_features
from mte.registry import get_task
from mte.runtime.logs import rule_logging, summary
from mte.steps.featurize import tokenize_examples

with rule_logging(snakemake) as log:
    task = get_task(snakemake.wildcards.task)
    # the fine-tune's task decides them (SQuAD's for XQuAD): mte.config.plan.records.Tokenization
    options = dict(snakemake.params.options)
    tokenizer = load_tokenizer(
        snakemake.input.model, options["do_lower_case"], options["tokenization"]
    )
    examples = read_jsonl(snakemake.input.data)
    training = snakemake.wildcards.split in ("train", "translate-train")
    features = tokenize_examples(tokenizer, examples, task, training=training, **options)
    save_features(features, snakemake.output[0])
    if features.get("windows") == "run_squad":
        log.info(
            "run_squad windows: %d sub-tokens between window starts, questions cut to %d",
            options["doc_stride"],
            options["max_query_length"],
        )
    summary(
        "%d examples, %d inputs of at most %d sub-tokens; %d pairs truncated, %d sentences split",
        len(examples),
        len(features["input_ids"]),
        features["max_length"],
        features.get("truncated", 0),
        features.get("split_sentences", 0),
    )
