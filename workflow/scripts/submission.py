"""Rule submission: one model x setting x seed of a finished run as the leaderboard submission
folder XTREME's evaluate.py reads (mte.submission.export)."""

from mte.runtime.logs import rule_logging
from mte.submission.export import Entry, export_submission
from mte.submission.versions import leaderboard

with rule_logging(snakemake) as log:
    board = leaderboard(snakemake.wildcards.board)
    entries = [Entry(**entry) for entry in snakemake.params.entries]
    missing = export_submission(entries, board, snakemake.output[0])
    log.info("%s: %d file(s) written", snakemake.output[0], len(entries))
    for line in missing:
        # one line each: what the leaderboard scores and the run lacks
        log.warning("missing: %s", line)
