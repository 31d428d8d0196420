"""Reaching the Hugging Face hub: offline switches, a fast reachability check, retries with
backoff for a flaky network, and checksums of what was downloaded.

Without a network, a job should fail in seconds with a message saying how to use local
files, not after minutes of a library's own retries; with a flaky one, it should try again a
few times before it gives up.
"""

from __future__ import annotations

import logging
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
)

from mte.errors import MteError
from mte.io import sha256_file

log = logging.getLogger(__name__)

T = TypeVar("T")

TRUE_VALUES = {"1", "on", "yes", "true"}
# errors that say the thing is not there or not allowed: trying again cannot help
PERMANENT = (
    "LocalEntryNotFoundError",
    "OfflineModeIsEnabled",
    "RepositoryNotFoundError",
    "RevisionNotFoundError",
    "EntryNotFoundError",
    "GatedRepoError",
    "DatasetNotFoundError",
    "FileNotFoundError",
)
# errors of a connection that broke or timed out: another try may well succeed
TRANSIENT = (
    "Timeout",
    "ConnectError",
    "ConnectionError",
    "ConnectionResetError",
    "RemoteProtocolError",
    "ChunkedEncodingError",
    "ReadError",
    "IncompleteRead",
)


class HubUnavailableError(MteError):
    """The hub could not be reached (offline, or the id/config does not exist)."""


def hub_endpoint() -> str:
    return os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")


def offline_requested() -> bool:
    """Whether ``HF_HUB_OFFLINE`` or ``HF_DATASETS_OFFLINE`` asks for no network at all."""
    return any(
        os.environ.get(name, "").strip().lower() in TRUE_VALUES
        for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")
    )


def check_hub_reachable(
    what: str,
    hint: str,
    attempts: int = 3,
    timeout: float = 5.0,
    delay: float = 1.0,
    sleep: Callable[[float], None] | None = None,
) -> None:
    """Raise :class:`HubUnavailableError` (``what`` failed; ``hint`` says what to do instead)
    unless the hub answers an HTTP request within ``timeout`` seconds, tried ``attempts``
    times ``delay``, ``2 * delay``, ... apart. Any HTTP answer, an error status included,
    shows that the network works. Proxies in the environment are used."""
    endpoint = hub_endpoint()

    def answers() -> None:
        request = urllib.request.Request(endpoint, method="HEAD")
        try:
            with urllib.request.urlopen(request, timeout=timeout):
                return
        except urllib.error.HTTPError:
            return

    try:
        _retrying(
            attempts, delay, sleep, retry_if_exception_type((urllib.error.URLError, OSError))
        )(answers)
    except (urllib.error.URLError, OSError) as err:
        failure = str(getattr(err, "reason", err))
        raise HubUnavailableError(
            f"{what}: the Hugging Face hub ({endpoint}) cannot be reached ({failure}; tried "
            f"{attempts} times). {hint}"
        ) from None


def _retrying(
    attempts: int,
    delay: float,
    sleep: Callable[[float], None] | None,
    retry: Any,
    before_sleep: Callable[[RetryCallState], None] | None = None,
) -> Retrying:
    """tenacity's loop: ``attempts`` tries, ``delay``, ``2 * delay``, ... apart, the last
    error raised as it is."""
    return Retrying(
        stop=stop_after_attempt(attempts),
        wait=wait_exponential(multiplier=delay, exp_base=2, min=0, max=float("inf")),
        retry=retry,
        sleep=sleep or time.sleep,
        before_sleep=before_sleep,
        reraise=True,
    )


def _chain(err: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    while err is not None and err not in seen:
        seen.append(err)
        err = err.__cause__ or err.__context__
    return seen


def is_transient(err: BaseException) -> bool:
    """A broken or timed-out connection, or an HTTP 429 / 5xx answer: worth another try.
    Not found, gated, offline mode: not."""
    chain = _chain(err)
    names = [cls.__name__ for e in chain for cls in type(e).__mro__]
    if any(name in PERMANENT for name in names):
        return False
    for e in chain:
        status = getattr(getattr(e, "response", None), "status_code", None)
        if status is not None:
            return status == 429 or status >= 500
    return any(marker in name for name in names for marker in TRANSIENT)


def with_retries(
    call: Callable[[], T],
    what: str,
    attempts: int = 4,
    delay: float = 2.0,
    sleep: Callable[[float], None] | None = None,
) -> T:
    """``call()``, tried again after ``delay``, ``2 * delay``, ... seconds when it fails in a
    transient way (see :func:`is_transient`), ``attempts`` times in all."""

    def warn(state: RetryCallState) -> None:
        err = state.outcome.exception()
        log.warning(
            "%s failed (%s: %s); trying again in %.0f s",
            what,
            type(err).__name__,
            err,
            state.upcoming_sleep,
        )

    return _retrying(attempts, delay, sleep, retry_if_exception(is_transient), warn)(call)


def hub_caller(what: str, hint: str) -> Callable[[Callable[[], T]], T]:
    """The policy of every hub access, as a function that makes one call under it: offline
    (:func:`offline_requested`), one try from the local cache; otherwise the hub must answer
    within seconds (:func:`check_hub_reachable`), then a call that fails in a transient way is
    tried again (:func:`with_retries`, 4 attempts)."""
    offline = offline_requested()
    if not offline:
        check_hub_reachable(what, hint)
    attempts = 1 if offline else 4

    def call(run: Callable[[], T]) -> T:
        return with_retries(run, what, attempts)

    return call


def verify_checksums(folder: str | Path, expected: dict[str, str], source: str) -> None:
    """Compare each file's SHA-256 with the one the hub recorded for it (``expected``:
    relative path -> hex digest); a difference is an error naming the file."""
    folder = Path(folder)
    for name, digest in sorted(expected.items()):
        path = folder / name
        if not path.is_file():
            raise MteError(f"{path}: missing after downloading {source}")
        actual = sha256_file(path)
        if actual != digest:
            raise MteError(
                f"{path}: SHA-256 {actual} is not the {digest} that {source} records for it; "
                "the download is corrupt or incomplete: delete the folder and run again"
            )


def recorded_checksums(siblings: list[Any]) -> dict[str, str]:
    """The SHA-256 the hub records for each large (LFS) file of a repository listing."""
    checksums = {}
    for sibling in siblings or []:
        lfs = getattr(sibling, "lfs", None)
        sha = getattr(lfs, "sha256", None) if lfs is not None else None
        if sha is None and isinstance(lfs, dict):
            sha = lfs.get("sha256")
        if sha:
            checksums[sibling.rfilename] = sha
    return checksums
