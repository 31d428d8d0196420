"""Rule predict: one language's evaluation set through a fine-tuned model."""

from mte.io import write_json, write_jsonl
from mte.modelling.features import load_features
from mte.runtime.logs import rule_logging, summary
from mte.steps.predict import predict_records
from mte.steps.provenance import prediction_machine

with rule_logging(snakemake) as log:
    features = load_features(snakemake.input.features)
    records = predict_records(
        snakemake.input.model,
        features,
        snakemake.params.batch_size,
        device=snakemake.params.device,
        precision=snakemake.params.precision,
    )
    write_jsonl(snakemake.output[0], records)
    write_json(
        snakemake.output.machine,
        prediction_machine(snakemake.params.device, snakemake.params.precision),
    )
    summary(f"{len(records)} predictions")
