"""The hub without a network: fail fast with a way out, retry a flaky connection, verify
checksums; the offline switches."""

from __future__ import annotations

import http.server
import socket
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

import mte.hub.network
from mte.errors import MteError
from mte.hub.network import (
    HubUnavailableError,
    check_hub_reachable,
    is_transient,
    offline_requested,
    recorded_checksums,
    verify_checksums,
    with_retries,
)
from mte.io import sha256_file


class ConnectError(Exception):
    """Named as httpx names a refused or failed connection."""


class RepositoryNotFoundError(Exception):
    """Named as huggingface_hub names an unknown repository."""


def _http_error(status: int) -> Exception:
    err = Exception(f"HTTP {status}")
    err.response = SimpleNamespace(status_code=status)
    return err


def _flaky(failures: list[Exception], result: str = "done"):
    calls = []

    def call() -> str:
        calls.append(1)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        return result

    return call, calls


def test_a_flaky_connection_is_retried_with_growing_waits() -> None:
    call, calls = _flaky([ConnectError("reset"), TimeoutError("read timed out")])
    waits: list[float] = []
    assert with_retries(call, "download", sleep=waits.append) == "done"
    assert len(calls) == 3 and waits == [2.0, 4.0]


def test_retries_end_and_the_last_error_is_raised() -> None:
    call, calls = _flaky([_http_error(503)] * 10)
    waits: list[float] = []
    with pytest.raises(Exception, match="HTTP 503"):
        with_retries(call, "download", attempts=4, sleep=waits.append)
    assert len(calls) == 4 and waits == [2.0, 4.0, 8.0]


@pytest.mark.parametrize(
    "error",
    [RepositoryNotFoundError("no such repo"), _http_error(404), ValueError("bad config")],
    ids=["not-found", "http-404", "other"],
)
def test_what_another_try_cannot_fix_is_not_retried(error: Exception) -> None:
    call, calls = _flaky([error])
    waits: list[float] = []
    with pytest.raises(type(error)):
        with_retries(call, "download", sleep=waits.append)
    assert len(calls) == 1 and waits == []


def test_transient_or_not_follows_the_cause_chain() -> None:
    try:
        try:
            raise ConnectError("[Errno 104] Connection reset by peer")
        except ConnectError as inner:
            raise RuntimeError("download failed") from inner
    except RuntimeError as outer:
        assert is_transient(outer)
    assert is_transient(_http_error(429)) and is_transient(_http_error(502))
    assert not is_transient(_http_error(401))

    class OfflineModeIsEnabled(ConnectionError):
        pass

    # a ConnectionError, but the offline switch: no retry
    assert not is_transient(OfflineModeIsEnabled("offline"))


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_hub_fails_after_a_few_quick_tries(monkeypatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{_closed_port()}")
    waits: list[float] = []
    with pytest.raises(HubUnavailableError) as caught:
        check_hub_reachable("could not load x", "Use local files.", sleep=waits.append)
    assert waits == [1.0, 2.0]
    message = str(caught.value)
    assert message.startswith("could not load x: the Hugging Face hub (http://127.0.0.1:")
    assert "tried 3 times" in message and message.endswith("Use local files.")


def test_any_http_answer_means_the_hub_is_reachable(monkeypatch) -> None:
    class NotFound(http.server.BaseHTTPRequestHandler):
        def do_HEAD(self) -> None:
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.server_port}")
        waits: list[float] = []
        check_hub_reachable("x", "y", sleep=waits.append)
        assert waits == []
    finally:
        server.shutdown()


@pytest.mark.parametrize(
    ("variables", "offline"),
    [
        ({}, False),
        ({"HF_HUB_OFFLINE": "1"}, True),
        ({"HF_DATASETS_OFFLINE": "TRUE"}, True),
        ({"HF_HUB_OFFLINE": "0"}, False),
    ],
)
def test_offline_switches(monkeypatch, variables: dict[str, str], offline: bool) -> None:
    for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert offline_requested() is offline


def test_a_dataset_without_network_fails_fast_and_says_how_to_use_local_files(
    monkeypatch,
) -> None:
    from mte.hub.datasets import load_split_files

    for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{_closed_port()}")
    waits: list[float] = []
    monkeypatch.setattr(mte.hub.network.time, "sleep", waits.append)
    with pytest.raises(HubUnavailableError) as caught:
        load_split_files("facebook/xnli", "de", "validation")
    assert waits == [1.0, 2.0]  # the reachability check's tries, nothing else
    assert "give the task (source: files, path:) a local copy" in str(caught.value)


def test_downloaded_files_are_checked_against_the_recorded_checksums(tmp_path: Path) -> None:
    (tmp_path / "model.safetensors").write_bytes(b"weights")
    (tmp_path / "config.json").write_text("{}")
    siblings = [
        SimpleNamespace(rfilename="model.safetensors", lfs={"sha256": "0" * 64}),
        SimpleNamespace(rfilename="config.json", lfs=None),  # small files: no LFS record
    ]
    assert recorded_checksums(siblings) == {"model.safetensors": "0" * 64}
    with pytest.raises(MteError, match="model.safetensors: SHA-256 .* is not the 0000"):
        verify_checksums(tmp_path, recorded_checksums(siblings), "org/model at abc")
    good = {"model.safetensors": sha256_file(tmp_path / "model.safetensors")}
    verify_checksums(tmp_path, good, "org/model at abc")
    with pytest.raises(MteError, match="missing after downloading org/model"):
        verify_checksums(tmp_path, {"other.safetensors": "1" * 64}, "org/model")
