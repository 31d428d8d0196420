"""What a rule script says, and where: the rule's ``log:`` file holds everything as plain text
(progress bars, warnings, records, a failure's traceback); the console gets a few lines per job
(where its log is, progress of long loops, one summary line or one failure line)."""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import logging
import os
import re
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from mte.io import with_umask_modes

# the logger whose records also go to the console (the terminal running snakemake)
CONSOLE = "mte.console"
# terminal escape sequences (colours, bold: transformers' load report) kept out of log files
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
LOG_ROOT = "results/logs/"


class PlainTextLog:
    """A log file as plain text: escape sequences removed, and every log record on a line of
    its own even when a progress bar (which redraws its line with ``\\r``) was drawn last."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle
        self.at_line_start = True

    def write(self, text: str) -> int:
        text = ANSI_ESCAPE.sub("", text)
        if text:
            self.handle.write(text)
            self.at_line_start = text.endswith("\n")
        return len(text)

    def start_line(self) -> None:
        if not self.at_line_start:
            self.write("\n")

    def flush(self) -> None:
        self.handle.flush()

    def isatty(self) -> bool:
        return False

    def close(self) -> None:
        self.handle.close()


class _RecordHandler(logging.StreamHandler):
    """Writes each record on a new line of a :class:`PlainTextLog`."""

    def emit(self, record: logging.LogRecord) -> None:
        if isinstance(self.stream, PlainTextLog):
            self.stream.start_line()
        super().emit(record)


def job_name(snakemake: Any) -> str:
    """A job's name on the console: its log path without the folder and extension (the rule
    and the wildcards, e.g. ``finetune/e5-small/xnli/demo/zero-shot/seed1``)."""
    if snakemake.log:
        path = str(snakemake.log[0])
        _, root, below = path.partition(LOG_ROOT)
        return str(Path(below if root else path).with_suffix(""))
    return str(snakemake.rule)


def duration(seconds: float) -> str:
    """``45s``, ``3m05s``, ``2h07m``: elapsed times and ETAs on the console."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def announce(message: str, *args: Any) -> None:
    """A line for the log file and for the console (progress of a long loop)."""
    logging.getLogger(CONSOLE).info(message, *args)


_summary: list[str] = []


def summary(message: str, *args: Any) -> None:
    """What the job did, for the one line it ends with on the console ("done in 2m10s: ...");
    ``args`` are formatted into ``message`` as a logging call's are."""
    _summary[:] = [message % args if args else message]


def limit_torch_threads(threads: int) -> None:
    """``torch.set_num_threads(threads)`` (at least 1) for this process, without importing
    torch: a job that never loads it (a download, a table, a figure) would pay seconds for the
    import alone, and a run has hundreds of them. Loaded already, torch is set now; else at its
    import, by a finder that sets it once torch's module has run. (The OpenMP variables would
    not do: torch caps them at the machine's cores, and ``set_num_threads`` does not.)"""
    threads = max(1, threads)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)
        return
    for finder in [f for f in sys.meta_path if isinstance(f, _ThreadsAtTorchImport)]:
        sys.meta_path.remove(finder)
    sys.meta_path.insert(0, _ThreadsAtTorchImport(threads))


class _ThreadsAtTorchImport(importlib.abc.MetaPathFinder):
    """Finds torch as the other finders do, and sets its thread count after its import."""

    def __init__(self, threads: int) -> None:
        self.threads = threads

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "torch":
            return None
        sys.meta_path.remove(self)  # once, and the search below must not find this again
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        run_module = spec.loader.exec_module
        threads = self.threads

        def run_then_set_threads(module: Any) -> None:
            run_module(module)
            module.set_num_threads(threads)

        spec.loader.exec_module = run_then_set_threads  # type: ignore[method-assign]
        return spec


@contextlib.contextmanager
def rule_logging(snakemake: Any) -> Iterator[logging.Logger]:
    """Send stderr (tqdm bars, warnings) and the ``logging`` records to the rule's log file as
    plain text; records of :data:`CONSOLE` also go to the console, prefixed by the job's name.

    Sets torch's thread count to the rule's ``threads`` so that parallel jobs do not
    oversubscribe the CPU (:func:`limit_torch_threads`). A job whose ``gpu`` resource asks for
    a GPU takes a free one of the machine first, before CUDA starts (:mod:`mte.runtime.gpus`), and
    holds it until it ends.

    A job that called :func:`summary` ends with one console line. A
    failure is one console line (the error and the log's path); its traceback goes to the log
    only, and the script exits with status 1, so Snakemake reports the job failed.
    """
    log_path = str(snakemake.log[0]) if snakemake.log else None
    console = sys.stderr
    handle: Any = console
    if log_path:
        handle = PlainTextLog(open(log_path, "w", encoding="utf-8", buffering=1))
    name = job_name(snakemake)
    sys.stderr = handle
    file_handler = _RecordHandler(handle)
    file_handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[file_handler], force=True)
    console_logger = logging.getLogger(CONSOLE)
    console_logger.handlers.clear()
    if handle is not console:
        console_handler = logging.StreamHandler(console)
        console_handler.setFormatter(logging.Formatter(f"[{name}] %(message)s"))
        console_logger.addHandler(console_handler)
    logger = logging.getLogger(f"mte.rule.{snakemake.rule}")
    started = time.perf_counter()
    _summary.clear()
    claim = None
    try:
        from mte.runtime.gpus import SCHEDULER_ENV, claim_for_job

        # where the job ran: on a cluster, the submitting host or a compute node's job
        slurm_job = os.environ.get(SCHEDULER_ENV)
        logger.info(
            "host %s, %s",
            socket.gethostname(),
            f"SLURM job {slurm_job}" if slurm_job else "not in a SLURM job",
        )

        resources = getattr(snakemake, "resources", None)
        # the device its rule's params carry (the plan's); a rule without one runs no model
        device = getattr(getattr(snakemake, "params", None), "device", None)
        if device is not None:
            claim = claim_for_job(int(getattr(resources, "gpu", 0) or 0), device)
        limit_torch_threads(int(snakemake.threads))
        yield logger
        # every output with the modes the user's umask gives (model weights included)
        for output in getattr(snakemake, "output", None) or ():
            with_umask_modes(output)
        if _summary:
            announce("done in %s: %s", duration(time.perf_counter() - started), _summary[0])
    except Exception as err:
        logger.exception("%s: %s", type(err).__name__, err)
        where = f" (log: {log_path})" if log_path else ""
        console.write(f"[{name}] failed: {type(err).__name__}: {err}{where}\n")
        # the traceback is in the log; on the console the message above is the whole story
        raise SystemExit(1) from None
    finally:
        if claim is not None:
            claim.release()
        sys.stderr = console
        console_logger.handlers.clear()
        if handle is not console:
            handle.close()


def progress_bar(**kwargs: Any) -> Any:
    """A tqdm bar on stderr; redrawn every 10 s when stderr is a log file, not a terminal."""
    from tqdm import tqdm

    interval = 0.1 if sys.stderr.isatty() else 10.0
    return tqdm(file=sys.stderr, mininterval=interval, **kwargs)
