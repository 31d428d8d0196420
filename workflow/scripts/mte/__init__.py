"""multilingual-transfer-eval: the package behind the Snakemake workflow.

One module per concern: ``tasks`` (the benchmark registry), ``readers`` (released formats and
hub schemas into canonical examples), ``data`` (materialising a task x language x split),
``models`` (preparing a Hugging Face folder), ``features`` / ``finetune`` / ``predict``
(modelling), ``metrics`` and ``scoring`` (official semantics), ``tables`` (aggregation),
``provenance`` (what produced a number), ``config`` (checks beyond the JSON Schema).
"""

__version__ = "0.1.0"
