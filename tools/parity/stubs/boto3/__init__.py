"""Stub: transformers 2.4.1's file_utils imports boto3 for s3:// downloads, which the parity
harness never makes (every tokenizer is read from a local folder)."""


def resource(*args, **kwargs):
    raise RuntimeError("boto3 is stubbed in the parity environment: no s3:// downloads")
