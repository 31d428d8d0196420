"""Fixtures of the workflow tests."""

from tests.workflow.family_run import family_run  # noqa: F401 (a session fixture)
