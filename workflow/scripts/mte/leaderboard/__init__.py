"""A leaderboard across runs: any number of run folders (``results/runs/{run}``, each with the
``scores.csv`` index its ``describe_run`` job writes) read into one table, a row per model x
setting x run, a column per suite average (XTREME's, GLUE's) and per task average, each with its
bootstrap interval, a paired significance test against the column's best row where both rows
scored the same test items, and the published rows of both papers (``config/references``)
beside ours. Written as ``leaderboard.csv`` and a sortable ``leaderboard.html``
(``mte-leaderboard``, ``make leaderboard``; docs/leaderboard.md).

A column is a weighted sum of per-language metrics (its "terms"): a task's average is the mean
of its primary metric over the row's languages, as the run's own table prints it; a suite's is
the suite's average (XTREME: per task the mean over its languages of the task's summary cell,
QA's the mean of F1 and exact match; GLUE: mean over its averaged tasks' metrics), as the run's
suite table prints it. Intervals and tests follow the same weights, on the bootstrap resamples
and per-example statistics of the score files (mte.stats.statistics).
"""
