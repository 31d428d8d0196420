"""Fixtures of the evaluate.py parity tier: the shared run of every family and its export."""

from tests.workflow.family_run import family_run  # noqa: F401 (a session fixture)
from tests.workflow.test_submission import exported  # noqa: F401 (a module fixture)
