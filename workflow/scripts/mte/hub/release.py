"""The authors' released files by URL (a task's ``source: release``): downloaded once into the
task's release folder, each checked against its SHA-256, archives extracted, then read by the
task's file readers as ``source: files`` reads a folder.

A download goes to ``<name>.part`` and is renamed into place only once it is complete and its
checksum holds, so an interrupted or corrupt download never leaves a plausible file behind. A
file whose checksum could not be pinned from the genuine file is checked against the one
recorded at its first download. ``MTE_RELEASE_MIRROR=<base>`` (or the config's
``release_mirror``) fetches ``<base>/<host>/<path>`` for ``https://<host>/<path>``: an
institutional mirror, or a folder, for machines without the internet.
"""

from __future__ import annotations

import fnmatch
import http.client
import logging
import os
import shutil
import tarfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mte.errors import MteError
from mte.io import sha256_file

log = logging.getLogger(__name__)

MIRROR_VARIABLE = "MTE_RELEASE_MIRROR"
# where the checksums of files that could not be pinned are recorded at their first download
RECORDED = ".recorded.sha256"
ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar.bz2", ".tar")
CHUNK = 1 << 16


class ReleaseError(MteError):
    """A released file could not be downloaded, or is not the file it should be."""


@dataclass(frozen=True)
class ReleaseFile:
    """One file of a release: its URL, where it lands in the release folder, its SHA-256."""

    url: str
    # its path in the release folder (the task's file layouts read it there)
    name: str
    # pinned from the genuine file; "" where none could be read (recorded at first download)
    sha256: str = ""
    # the languages it serves; empty: every language
    languages: tuple[str, ...] = ()
    # an archive's members to extract (fnmatch patterns on their paths, {lang} filled with each
    # language asked for); empty: every member
    members: tuple[str, ...] = ()

    @property
    def archive(self) -> bool:
        return self.name.endswith(ARCHIVE_SUFFIXES)


@dataclass(frozen=True)
class Release:
    """A task's released files, as the authors' download scripts fetch them."""

    files: tuple[ReleaseFile, ...]
    # where the pinned checksums come from (docs/data-sources.md says it per task)
    checksums: str
    # the folder, inside the release folder, that the task's file layouts are read from ("":
    # the release folder), and per language where it differs (UD v2.7 for XTREME-R's five)
    root: str = ""
    roots: dict[str, str] = field(default_factory=dict)
    # where the authors' script does something no URL does (a preprocessing step), in a line
    note: str = ""

    def files_for(self, languages: Iterable[str]) -> list[ReleaseFile]:
        """The files the given languages need: each file once, in the release's order."""
        wanted = set(languages)
        return [f for f in self.files if not f.languages or wanted & set(f.languages)]

    def root_for(self, language: str) -> str:
        return self.roots.get(language, self.root)


def mirror_base(configured: str | None = None) -> str:
    """The mirror to fetch from: ``MTE_RELEASE_MIRROR``, else the config's ``release_mirror``,
    else none ("")."""
    return (os.environ.get(MIRROR_VARIABLE) or configured or "").strip()


def mirrored(url: str, base: str) -> str:
    """``url`` as a mirror at ``base`` serves it: ``<base>/<host>/<path>``. A base that is a
    folder (no scheme) is read as a file URL."""
    if not base:
        return url
    parts = urllib.parse.urlsplit(url)
    if "://" not in base:
        base = Path(base).resolve().as_uri()
    return f"{base.rstrip('/')}/{parts.netloc}{parts.path}"


def read_recorded(folder: Path) -> dict[str, str]:
    """The checksums recorded at first download in ``folder``: name -> SHA-256."""
    path = folder / RECORDED
    if not path.is_file():
        return {}
    recorded = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        digest, _, name = line.partition("  ")
        if digest and name:
            recorded[name] = digest
    return recorded


def _record(folder: Path, name: str, digest: str) -> None:
    recorded = read_recorded(folder)
    recorded[name] = digest
    lines = [f"{value}  {key}" for key, value in sorted(recorded.items())]
    (folder / RECORDED).write_text("\n".join(lines) + "\n", encoding="utf-8")


def expected_checksum(file: ReleaseFile, folder: Path) -> tuple[str, str]:
    """The SHA-256 the file must have and where it comes from: "pinned" (the spec),
    "recorded" (its first download), or ("", "first download") where neither exists yet."""
    if file.sha256:
        return file.sha256, "pinned"
    recorded = read_recorded(folder).get(file.name, "")
    return recorded, "recorded" if recorded else "first download"


def _describe(err: BaseException) -> str:
    reason = getattr(err, "reason", None) or err
    return f"{type(reason).__name__}: {reason}" if not str(reason) else str(reason)


def _transfer(
    url: str, part: Path, label: str, timeout: float, progress: bool
) -> tuple[int, int | None]:
    """Stream ``url`` into ``part``; the bytes read and the length the server announced."""
    from mte.runtime.logs import progress_bar

    request = urllib.request.Request(url, headers={"User-Agent": "mte-release"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        got = 0
        bar = progress_bar(
            total=total, desc=label, unit="B", unit_scale=True, leave=False, disable=not progress
        )
        with bar, part.open("wb") as out:
            while True:
                try:
                    chunk = response.read(CHUNK)
                except http.client.IncompleteRead as err:
                    out.write(err.partial)
                    got += len(err.partial)
                    break
                if not chunk:
                    break
                out.write(chunk)
                got += len(chunk)
                bar.update(len(chunk))
    return got, total


def download(
    file: ReleaseFile,
    folder: Path,
    base: str = "",
    attempts: int = 3,
    timeout: float = 60.0,
    sleep: Callable[[float], None] = time.sleep,
    progress: bool = True,
) -> dict[str, Any]:
    """Download one file into ``folder`` (unless it is there with its checksum) and return
    its record: url, name, sha256, bytes, checksum (pinned, recorded or first download).
    Raises :class:`ReleaseError` naming the URL; nothing partial is left in place."""
    dest = folder / file.name
    expected, how = expected_checksum(file, folder)
    if dest.is_file() and expected and sha256_file(dest) == expected:
        return {"url": file.url, "name": file.name, "sha256": expected, "checksum": how,
                "bytes": dest.stat().st_size, "downloaded": False}  # fmt: skip
    url = mirrored(file.url, base)
    where = f" (through the mirror {base})" if base else ""
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    broke = ""
    try:
        for attempt in range(1, attempts + 1):
            try:
                got, total = _transfer(url, part, file.name, timeout, progress)
            except urllib.error.HTTPError as err:
                raise ReleaseError(
                    f"{url}: HTTP {err.code} ({err.reason}){where}: the file is not there; "
                    "the release has moved, or the mirror lacks it"
                ) from None
            except (urllib.error.URLError, OSError) as err:
                if isinstance(err, (ConnectionResetError, TimeoutError)) and attempt < attempts:
                    broke = _describe(err)
                    sleep(2.0 * attempt)
                    continue
                host = urllib.parse.urlsplit(url).netloc or url
                raise ReleaseError(
                    f"cannot reach {host} to download {url} ({_describe(err)}): without the "
                    f"internet, set {MIRROR_VARIABLE} (or the config key release_mirror) to a "
                    "mirror of the release, or give the task source: files with the released "
                    "files at hand (docs/data-sources.md)"
                ) from None
            if total is None or got == total:
                break
            broke = f"{got} of {total} bytes"
            if attempt < attempts:
                log.warning("%s broke off after %s; trying again", url, broke)
                sleep(2.0 * attempt)
        else:
            raise ReleaseError(
                f"{url}{where}: the download broke off ({broke}; tried {attempts} times); "
                "nothing was kept"
            )
        actual = sha256_file(part)
        if expected and actual != expected:
            raise ReleaseError(
                f"{url}{where}: SHA-256 {actual} is not the {how} {expected}: this is not the "
                f"file the release was {'pinned' if how == 'pinned' else 'first downloaded'} "
                "as; nothing was kept"
            )
        os.replace(part, dest)
    finally:
        part.unlink(missing_ok=True)
    if not expected:
        _record(folder, file.name, actual)
    return {"url": file.url, "name": file.name, "sha256": actual, "checksum": how,
            "bytes": dest.stat().st_size, "downloaded": True}  # fmt: skip


def _safe_members(names: Iterable[str], archive: Path) -> None:
    for name in names:
        path = Path(name)
        if path.is_absolute() or ".." in path.parts:
            raise ReleaseError(f"{archive}: member {name!r} would be written outside its folder")


def _wanted(name: str, members: tuple[str, ...]) -> bool:
    return not members or any(fnmatch.fnmatch(name, pattern) for pattern in members)


def extract(archive: Path, folder: Path, members: tuple[str, ...] = ()) -> None:
    """Extract ``archive`` (its ``members`` where given) into ``folder``, through a temporary
    folder renamed member by member, once, marked by a file that names the archive's
    checksum."""
    # what was extracted, by the archive's checksum and the members asked for
    done = "\n".join([sha256_file(archive), *sorted(members)])
    marker = folder / f".extracted-{archive.name}"
    if marker.is_file() and marker.read_text(encoding="utf-8").strip() == done:
        return
    staging = folder / f".extracting-{archive.name}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as handle:
                names = [n for n in handle.namelist() if _wanted(n, members)]
                _safe_members(names, archive)
                handle.extractall(staging, members=names)
        else:
            with tarfile.open(archive) as handle:
                chosen = [m for m in handle.getmembers() if _wanted(m.name, members)]
                _safe_members([m.name for m in chosen], archive)
                handle.extractall(staging, members=chosen, filter="data")
        for member in sorted(path for path in staging.rglob("*") if not path.is_dir()):
            target = folder / member.relative_to(staging)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(member, target)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError) as err:
        raise ReleaseError(f"{archive}: not a readable archive ({err})") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    marker.write_text(done + "\n", encoding="utf-8")


def fetch_release(
    release: Release,
    languages: Iterable[str],
    folder: str | Path,
    base: str = "",
    progress: bool = True,
    **options: Any,
) -> dict[str, Any]:
    """Every file of ``release`` that ``languages`` need, in ``folder``: downloaded, checked,
    archives extracted. Returns the record of what is there (for the data records)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    records = []
    languages = sorted(set(languages))
    for file in release.files_for(languages):
        record = download(file, folder, base, progress=progress, **options)
        if file.archive:
            served = [lang for lang in languages if not file.languages or lang in file.languages]
            members = tuple(
                dict.fromkeys(m.format(lang=lang) for m in file.members for lang in served)
            )
            extract(folder / file.name, folder, members)
        records.append(record)
    return {"mirror": base or None, "checksums": release.checksums, "files": records}
