"""Rules plot_*: figures from score files, and a fine-tune's training curves from its
training.json (the rule name says which)."""

from pathlib import Path

from mte.io import read_json
from mte.published import load_references
from mte.runtime.logs import rule_logging
from mte.steps.plots import (
    plot_against_reference,
    plot_heatmap,
    plot_language_gaps,
    plot_training_curves,
    plot_transfer_gaps,
)
from mte.tables.references import find_reference

with rule_logging(snakemake) as log:
    out, wc = snakemake.output[0], snakemake.wildcards
    if snakemake.rule.startswith("plot_training"):
        record = read_json(Path(snakemake.input.model) / "training.json")
        language = f", {wc.lang}" if "lang" in wc.keys() else ""
        title = f"{wc.model}, {wc.task}, {wc.setting}{language}, seed {wc.seed}"
        plot_training_curves(record, title, out)
    elif snakemake.rule == "plot_heatmap":
        scores = [read_json(path) for path in snakemake.input.scores]
        plot_heatmap(scores, wc.model, wc.setting, out)
    elif snakemake.rule == "plot_language_gaps":
        plot_language_gaps([read_json(path) for path in snakemake.input.scores], out)
    elif snakemake.rule == "plot_transfer_gaps":
        plot_transfer_gaps([read_json(path) for path in snakemake.input.scores], out)
    else:
        scores = [read_json(path) for path in snakemake.input.scores]
        references = load_references(snakemake.input.references)
        languages = {score["language"] for score in scores}
        metric = snakemake.params.metric
        entry = find_reference(references, wc.model, wc.task, wc.setting, metric, languages)
        plot_against_reference(scores, entry, out)
    log.info("wrote %s", out)
