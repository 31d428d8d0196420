"""A dataset repository on the Hugging Face hub as a spec names it: the commit read, how the
pinned datasets takes it, and the page that showed what it holds."""

from __future__ import annotations

import re
from dataclasses import dataclass

# the branch where the hub keeps its parquet export of a repository (its dataset viewer's files):
# what a repository that holds only a loading script is read from
PARQUET_EXPORT = "refs/convert/parquet"
# how the pinned datasets reads a hub repository:
#   "loads": data files the hub's configs block (or its plain layout) names: read as the
#     repository's config, at the pinned revision
#   "files": parquet files at the pinned revision, named by ``files`` (a loading script beside
#     them, which datasets refuses, is never run)
#   "script": a loading script only: its parquet export (``export_revision``) is read instead
#   "unsettled": the pages read do not show whether it loads: tried as "loads", and on a
#     loading-script refusal read from its parquet export, with one line saying so
HUB_STATUSES = ("loads", "files", "script", "unsettled")


@dataclass(frozen=True)
class HubRepo:
    """A dataset repository on the Hugging Face hub as a spec reads it: the commit read, how
    the pinned datasets takes it, and the page that shows what it holds (the hub cannot be
    reached from where this was written: its pages were read instead)."""

    id: str
    # the commit read (40 hex digits), or a branch where no page read showed a full commit;
    # the commit a download resolves is recorded in its data record either way
    revision: str
    # the page read (a tree, commit or discussion page) and what it shows
    page: str
    holds: str
    status: str = "loads"
    # "files": the parquet files of a config's split, relative to the repository's root
    # ({config} the config, {split} the hub's split name)
    files: str = "{config}/{split}-*.parquet"
    # the parquet export's commit where a page showed one; else its branch
    export_revision: str = PARQUET_EXPORT

    @property
    def pinned(self) -> bool:
        return re.fullmatch(r"[0-9a-f]{40}", self.revision) is not None
