"""Rule tokenize: canonical examples into model-specific features."""

from transformers import AutoTokenizer

from mte.features import save_features, tokenize_pairs
from mte.io import read_jsonl
from mte.logs import rule_logging
from mte.tasks import get_task

with rule_logging(snakemake) as log:
    tokenizer = AutoTokenizer.from_pretrained(snakemake.input.model)
    examples = read_jsonl(snakemake.input.data)
    task = get_task(snakemake.wildcards.task)
    features = tokenize_pairs(tokenizer, examples, task, snakemake.params.max_length)
    save_features(features, snakemake.output[0])
    log.info(
        "%d examples, %d truncated to %d",
        len(examples),
        features["truncated"],
        features["max_length"],
    )
