"""Readers: released benchmark formats and hub schemas into canonical examples.

Every reader returns a list of dicts in the family's canonical schema (DESIGN.md) and raises
:class:`mte.errors.InputError` with the file and line for anything it cannot read.
"""
