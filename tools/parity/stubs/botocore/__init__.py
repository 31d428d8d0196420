"""Stub: imported beside boto3 by transformers 2.4.1's file_utils (see ../boto3)."""
