"""What the rule scripts call, one module per step of the workflow: data, tokenisation,
fine-tuning, prediction, scoring, suite tables, figures, analyses, provenance."""
