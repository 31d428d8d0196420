"""source: release, against a loopback HTTP server: a good download, an interrupted one, a
checksum mismatch, a 404, no network, the mirror's URL mapping, archives, and checksums
recorded at a first download."""

from __future__ import annotations

import hashlib
import http.server
import io
import socket
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from mte.hub.release import (
    RECORDED,
    Release,
    ReleaseError,
    ReleaseFile,
    download,
    fetch_release,
    mirror_base,
    mirrored,
)

GOOD = b"xquad.de.json body: the genuine bytes\n" * 200


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Handler(http.server.BaseHTTPRequestHandler):
    """Serves the server's ``files`` (path -> bytes); ``/cut/...`` announces the whole length
    and sends half of it ``cuts`` times before it serves the whole."""

    def log_message(self, *args) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        server = self.server
        server.requests.append(self.path)
        path = self.path
        cut = path.startswith("/cut/")
        if cut:
            path = path[len("/cut") :]
        body = server.files.get(path)
        if body is None:
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if cut and server.cuts > 0:
            server.cuts -= 1
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.wfile.write(body)


@pytest.fixture
def server() -> Iterator[http.server.ThreadingHTTPServer]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.files, httpd.requests, httpd.cuts = {}, [], 0
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def _url(server, path: str) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}{path}"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _no_wait(_: float) -> None:
    pass


def test_a_good_download_lands_once_with_its_checksum(server, tmp_path: Path) -> None:
    server.files["/xquad/xquad.de.json"] = GOOD
    file = ReleaseFile(_url(server, "/xquad/xquad.de.json"), "xquad.de.json", _sha(GOOD))
    record = download(file, tmp_path, progress=False)
    assert (tmp_path / "xquad.de.json").read_bytes() == GOOD
    assert record["sha256"] == _sha(GOOD) and record["checksum"] == "pinned"
    assert record["downloaded"] and record["bytes"] == len(GOOD)
    assert not list(tmp_path.glob("*.part"))
    # there, with its checksum: not fetched again
    again = download(file, tmp_path, progress=False)
    assert not again["downloaded"] and len(server.requests) == 1


def test_an_interrupted_download_is_tried_again(server, tmp_path: Path) -> None:
    server.files["/a.json"], server.cuts = GOOD, 1
    file = ReleaseFile(_url(server, "/cut/a.json"), "a.json", _sha(GOOD))
    download(file, tmp_path, sleep=_no_wait, progress=False)
    assert (tmp_path / "a.json").read_bytes() == GOOD and len(server.requests) == 2


def test_a_download_that_keeps_breaking_leaves_nothing(server, tmp_path: Path) -> None:
    server.files["/a.json"], server.cuts = GOOD, 99
    file = ReleaseFile(_url(server, "/cut/a.json"), "a.json", _sha(GOOD))
    with pytest.raises(ReleaseError) as caught:
        download(file, tmp_path, sleep=_no_wait, progress=False)
    assert f"broke off ({len(GOOD) // 2} of {len(GOOD)} bytes; tried 3 times)" in str(caught.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_checksum_mismatch_names_both_sums_and_keeps_nothing(server, tmp_path: Path) -> None:
    server.files["/a.json"] = b"not the genuine file\n"
    pinned = _sha(GOOD)
    file = ReleaseFile(_url(server, "/a.json"), "a.json", pinned)
    with pytest.raises(ReleaseError) as caught:
        download(file, tmp_path, progress=False)
    message = str(caught.value)
    assert _sha(b"not the genuine file\n") in message and pinned in message
    assert "nothing was kept" in message
    assert list(tmp_path.iterdir()) == []


def test_a_file_in_place_with_another_checksum_is_replaced(server, tmp_path: Path) -> None:
    server.files["/a.json"] = GOOD
    (tmp_path / "a.json").write_bytes(b"a truncated copy")
    download(ReleaseFile(_url(server, "/a.json"), "a.json", _sha(GOOD)), tmp_path, progress=False)
    assert (tmp_path / "a.json").read_bytes() == GOOD


def test_a_404_names_the_url(server, tmp_path: Path) -> None:
    url = _url(server, "/gone.json")
    with pytest.raises(ReleaseError, match=rf"{url}: HTTP 404 \(Not Found\)"):
        download(ReleaseFile(url, "gone.json", "0" * 64), tmp_path, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_no_network_is_one_line_naming_the_mirror_and_source_files(tmp_path: Path) -> None:
    port = _closed_port()
    url = f"http://127.0.0.1:{port}/xquad.de.json"
    with pytest.raises(ReleaseError) as caught:
        download(ReleaseFile(url, "xquad.de.json"), tmp_path, progress=False)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"cannot reach 127.0.0.1:{port} to download {url}")
    assert "MTE_RELEASE_MIRROR" in message and "release_mirror" in message
    assert "source: files" in message


def test_the_mirror_fetches_base_host_path(server, tmp_path: Path, monkeypatch) -> None:
    assert (
        mirrored("https://raw.githubusercontent.com/deepmind/xquad/master/x.json", "http://m/b/")
        == "http://m/b/raw.githubusercontent.com/deepmind/xquad/master/x.json"
    )
    assert mirrored("https://a.org/x", "") == "https://a.org/x"
    folder = tmp_path / "mirror"
    assert mirrored("https://a.org/x/y.zip", str(folder)) == f"{folder.as_uri()}/a.org/x/y.zip"
    monkeypatch.setenv("MTE_RELEASE_MIRROR", "http://env")
    assert mirror_base("http://config") == "http://env"
    monkeypatch.delenv("MTE_RELEASE_MIRROR")
    assert mirror_base("http://config") == "http://config" and mirror_base(None) == ""
    # a download through the mirror: the original URL is recorded, the mirror's is fetched
    server.files["/raw.githubusercontent.com/deepmind/xquad/master/xquad.de.json"] = GOOD
    original = "https://raw.githubusercontent.com/deepmind/xquad/master/xquad.de.json"
    base = _url(server, "")
    record = download(
        ReleaseFile(original, "xquad.de.json", _sha(GOOD)), tmp_path, base, progress=False
    )
    assert record["url"] == original and server.requests == [
        "/raw.githubusercontent.com/deepmind/xquad/master/xquad.de.json"
    ]


def test_an_unpinned_file_is_recorded_then_held_to_it(server, tmp_path: Path) -> None:
    server.files["/COPA.zip"] = GOOD
    file = ReleaseFile(_url(server, "/COPA.zip"), "data.bin")
    first = download(file, tmp_path, progress=False)
    assert first["checksum"] == "first download"
    assert (tmp_path / RECORDED).read_text() == f"{_sha(GOOD)}  data.bin\n"
    (tmp_path / "data.bin").unlink()
    server.files["/COPA.zip"] = b"changed upstream"
    with pytest.raises(ReleaseError, match=f"is not the recorded {_sha(GOOD)}"):
        download(file, tmp_path, progress=False)


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as handle:
        for name, data in members.items():
            handle.writestr(name, data)
    return buffer.getvalue()


def _tgz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as handle:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            handle.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_archives_are_extracted_for_the_languages_asked(server, tmp_path: Path) -> None:
    copa = _zip({"COPA/train.jsonl": b"{}\n", "COPA/val.jsonl": b"{}\n"})
    ud = _tgz({
        "ud-treebanks-v2.5/UD_German-GSD/de_gsd-ud-test.conllu": b"1\tx\n",
        "ud-treebanks-v2.5/UD_French-GSD/fr_gsd-ud-test.conllu": b"1\ty\n",
        "ud-treebanks-v2.5/UD_German-GSD/README.md": b"readme",
    })  # fmt: skip
    server.files.update({"/COPA.zip": copa, "/ud.tgz": ud, "/xquad.de.json": GOOD})
    release = Release(
        files=(
            ReleaseFile(_url(server, "/COPA.zip"), "COPA.zip", _sha(copa), ("en",)),
            ReleaseFile(_url(server, "/ud.tgz"), "ud.tgz", _sha(ud), ("de", "fr"),
                        members=("*/UD_*/{lang}_*-ud-*.conllu",)),
            ReleaseFile(_url(server, "/xquad.de.json"), "xquad.de.json", _sha(GOOD), ("de",)),
        ),
        checksums="pinned",
    )  # fmt: skip
    record = fetch_release(release, ["de"], tmp_path, progress=False)
    assert [f["name"] for f in record["files"]] == ["ud.tgz", "xquad.de.json"]
    tree = tmp_path / "ud-treebanks-v2.5"
    assert [p.name for p in tree.rglob("*.conllu")] == ["de_gsd-ud-test.conllu"]
    assert not (tree / "UD_German-GSD/README.md").exists() and not (tmp_path / "COPA").exists()
    # French asked later: the archive is not fetched again, its French member is extracted
    fetch_release(release, ["de", "fr"], tmp_path, progress=False)
    assert sorted(p.name for p in tree.rglob("*.conllu")) == [
        "de_gsd-ud-test.conllu",
        "fr_gsd-ud-test.conllu",
    ]
    assert server.requests.count("/ud.tgz") == 1
    fetch_release(release, ["en"], tmp_path, progress=False)
    assert (tmp_path / "COPA/val.jsonl").read_bytes() == b"{}\n"


def test_an_archive_member_outside_its_folder_is_refused(server, tmp_path: Path) -> None:
    evil = _tgz({"../escaped.txt": b"x"})
    server.files["/evil.tgz"] = evil
    release = Release(files=(ReleaseFile(_url(server, "/evil.tgz"), "evil.tgz", _sha(evil)),),
                      checksums="pinned")  # fmt: skip
    with pytest.raises(ReleaseError, match="would be written outside its folder"):
        fetch_release(release, ["de"], tmp_path / "release", progress=False)
    assert not (tmp_path / "escaped.txt").exists()
