"""Command-line entry points that work on a whole run or the task registry (``mte-report``,
``mte-tasks``); the leaderboard's is ``mte.leaderboard.cli``."""
