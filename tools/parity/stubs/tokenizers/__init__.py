"""Stub: transformers 2.4.1 imports the Rust ``tokenizers`` 0.0.11 (Python 3.5-3.8 wheels only)
for its *Fast classes, which the parity harness never builds: XTREME's scripts use the slow
Python tokenizers. Touching anything here fails loudly."""


def __getattr__(name):
    raise RuntimeError(f"tokenizers.{name}: tokenizers is stubbed in the parity environment")
