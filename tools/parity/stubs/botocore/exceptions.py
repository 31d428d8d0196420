"""Stub of botocore.exceptions.ClientError (imported, never raised, by transformers 2.4.1)."""


class ClientError(Exception):
    pass
