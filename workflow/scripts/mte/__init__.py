"""multilingual-transfer-eval: the package behind the Snakemake workflow.

One module per concern: ``tasks`` (the benchmark registry), ``readers`` (released formats and
hub schemas into canonical examples), ``data`` (materialising a task x language x split),
``models`` (preparing a Hugging Face folder), ``features`` / ``finetune`` / ``predict``
(modelling), ``metrics`` and ``scoring`` (official semantics), ``tables`` (aggregation),
``provenance`` (what produced a number), ``config`` (checks beyond the JSON Schema).
"""

__version__ = "0.1.0"

import os as _os

# PyTorch's CPU allocator backs large tensors with transparent huge pages when this is set;
# it reads the variable once, at its first allocation, so it must be set before any tensor
# exists: importing this package first does that. On a CPU, fine-tuning allocates a fresh
# 384 MB embedding gradient every step, and with 4 KB pages each step pays ~100k page faults
# (0.2 s per allocation here, 0.08 s with huge pages). A value set by the user is kept.
_os.environ.setdefault("THP_MEM_ALLOC_ENABLE", "1")
