"""A dataset repository on the Hugging Face hub as a spec names it: the commit read, how the
pinned datasets takes it, and the pages that showed what it holds and which commit to read."""

from __future__ import annotations

import re
from dataclasses import dataclass

# the branch where the hub keeps its parquet export of a repository (its dataset viewer's files):
# what a repository that holds only a loading script is read from. The hub's converter may
# rewrite this branch after a conversion, so an export is read at a commit of it only where a
# page or public code showed one (and it stayed the branch's tip: allenai/social_i_qa's did for
# months); otherwise at the branch. Either way its resolved commit is recorded and its content
# held by the run's data lock (mte.hub.lock)
PARQUET_EXPORT = "refs/convert/parquet"
# how the pinned datasets reads a hub repository:
#   "loads": data files the hub's configs block (or its plain layout) names: read as the
#     repository's config, at the pinned revision
#   "files": parquet files at the pinned revision, named by ``files`` (a loading script beside
#     them, which datasets refuses, is never run)
#   "script": a loading script only: its parquet export (PARQUET_EXPORT) is read instead
HUB_STATUSES = ("loads", "files", "script")


def is_commit(revision: str | None) -> bool:
    """A full commit (40 hex digits), not a branch or tag that may move."""
    return revision is not None and re.fullmatch(r"[0-9a-f]{40}", revision) is not None


@dataclass(frozen=True)
class HubRepo:
    """A dataset repository on the Hugging Face hub as a spec reads it: the commit read, how
    the pinned datasets takes it, the page that shows what it holds, and where the commit was
    seen (the hub cannot be reached from where this was written: its pages, and public code
    that pins it, were read instead)."""

    id: str
    # the commit read (40 hex digits; for status "script", a commit of the parquet export); a
    # branch only where no page or code showed a commit
    # (``seen`` says so); the commit a download resolves is recorded in its data record and
    # in the run's data lock either way
    revision: str
    # the page read (a tree, commit or discussion page) and what it shows
    page: str
    holds: str
    # where the pinned commit was seen, or why there is none
    seen: str = ""
    status: str = "loads"
    # "files": the parquet files of a config's split, relative to the repository's root
    # ({config} the config, {split} the hub's split name)
    files: str = "{config}/{split}-*.parquet"

    @property
    def pinned(self) -> bool:
        return is_commit(self.revision)

    @property
    def read_revision(self) -> str:
        """The revision a download asks for: the pinned commit (for a repository that holds only
        a loading script, a commit of its parquet export), else the branch: the parquet
        export's for such a repository."""
        if self.status == "script" and not self.pinned:
            return PARQUET_EXPORT
        return self.revision
