"""Logging of rule scripts into the rule's ``log:`` file (progress bars included)."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def rule_logging(snakemake: Any) -> Iterator[logging.Logger]:
    """Send stderr (tqdm bars, warnings) and the ``logging`` records to the rule's log file.

    Sets torch's thread count to the rule's ``threads`` so that parallel jobs do not
    oversubscribe the CPU. Errors are logged and re-raised, so Snakemake reports the job failed.
    """
    log_path = snakemake.log[0] if snakemake.log else None
    handle = open(log_path, "w", encoding="utf-8", buffering=1) if log_path else sys.stderr
    saved_stderr = sys.stderr
    sys.stderr = handle
    logging.basicConfig(
        stream=handle,
        level=logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        force=True,
    )
    logger = logging.getLogger(f"mte.rule.{snakemake.rule}")
    try:
        import torch

        torch.set_num_threads(max(1, int(snakemake.threads)))
        yield logger
    except Exception as err:
        logger.error("%s: %s", type(err).__name__, err)
        saved_stderr.write(f"{type(err).__name__}: {err}\n")
        raise
    finally:
        sys.stderr = saved_stderr
        if handle is not saved_stderr:
            handle.close()


def progress_bar(**kwargs: Any) -> Any:
    """A tqdm bar on stderr; redrawn every 10 s when stderr is a log file, not a terminal."""
    from tqdm import tqdm

    interval = 0.1 if sys.stderr.isatty() else 10.0
    return tqdm(file=sys.stderr, mininterval=interval, **kwargs)
