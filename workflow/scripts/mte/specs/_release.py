"""What the specs' releases repeat, written once: the SHA-256 pinned from each genuine file,
kept in ``checksums/<task>.sha256`` (sha256sum's format, each file headed by where its sums
come from); a file without one is checked against the sum recorded at its first download."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

from mte.hub.release import ReleaseFile

CHECKSUMS = Path(__file__).parent / "checksums"


@cache
def pinned(task: str) -> dict[str, str]:
    """``checksums/<task>.sha256``: file name -> SHA-256 (none where the file is absent)."""
    path = CHECKSUMS / f"{task}.sha256"
    if not path.is_file():
        return {}
    sums = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            digest, _, name = line.partition("  ")
            sums[name] = digest
    return sums


def released(
    task: str, url: str, name: str, languages: Iterable[str] = (), members: Iterable[str] = ()
) -> ReleaseFile:
    """One file of ``task``'s release with its pinned checksum, where there is one."""
    return ReleaseFile(
        url=url,
        name=name,
        sha256=pinned(task).get(name, ""),
        languages=tuple(languages),
        members=tuple(members),
    )
