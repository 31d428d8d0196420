"""multilingual-transfer-eval: the package behind the Snakemake workflow.

Read it top down; each package imports only those below it (``.importlinter``, ``make lint``):

- ``config``: the configuration (schema, queries, checks, the cache keys that decide reruns);
- ``steps``: what the rules' scripts call, one module per step (data, featurize, finetune,
  predict, scoring, summary, plots, analyses, provenance); ``leaderboard``: runs side by side;
- ``registry``: every task family, task and suite, checked against the family contract;
- ``specs``: one module per benchmark, its tasks as records;
- ``families``: one package per task family (readers, features, head, metrics, scoring);
- ``modelling`` (devices, batching, features, heads, trainer, embeddings, translation) and
  ``tables`` (a task's table, statistics columns, published rows, notes, the renderer);
- ``tasks`` (the records a spec is written in, settings, languages) and ``stats`` (metrics,
  intervals and tests, ranking, alignment);
- ``hub`` (the hub, released files, models built offline), ``runtime`` (logs, GPUs, the code
  digest), ``io`` and ``text`` (files and lines), ``errors``.
"""

__version__ = "0.1.0"
