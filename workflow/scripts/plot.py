"""Rules plot_*: figures from score files (the rule name says which)."""

from mte.io import read_json
from mte.logs import rule_logging
from mte.plots import plot_against_reference, plot_heatmap, plot_transfer_gaps
from mte.references import find_reference, load_references

with rule_logging(snakemake) as log:
    scores = [read_json(path) for path in snakemake.input.scores]
    out, wc = snakemake.output[0], snakemake.wildcards
    if snakemake.rule == "plot_heatmap":
        plot_heatmap(scores, wc.model, wc.setting, out)
    elif snakemake.rule == "plot_transfer_gaps":
        plot_transfer_gaps(scores, out)
    else:
        references = load_references(snakemake.input.references)
        entry = find_reference(references, wc.model, wc.task, wc.setting, snakemake.params.metric)
        plot_against_reference(scores, entry, out)
    log.info("wrote %s", out)
