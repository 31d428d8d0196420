"""Stub of botocore.config.Config (imported, never called, by transformers 2.4.1)."""


class Config:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("botocore is stubbed in the parity environment")
