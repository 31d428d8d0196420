"""Rule fetch_translation_model: a hub translation model into its folder, where the network is."""

from mte.hub.models import fetch_translation_model
from mte.runtime.logs import rule_logging, summary

with rule_logging(snakemake) as log:
    hub = snakemake.params.hub
    record = fetch_translation_model(hub["id"], hub["revision"], snakemake.output[0])
    summary(f"{record['id']} at commit {record['commit']}")
