"""Leaderboard submissions: a run's predictions written as the XTREME and XTREME-R submission
folders that the authors' evaluate.py reads (``export``), and any such folder scored with the
project's statistics (``scoring``, the ``mte-evaluate`` command). Which tasks, folders,
languages and groups each leaderboard has is the suites' data (``versions``)."""
