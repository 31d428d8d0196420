"""docs/data-sources.md, written from the specs: each hub repository with the commit read and
the page that shows it, each task's hub source and release (URLs and checksums), and which of
them the paper configs use. ``make data-sources`` writes it; a test holds the file to it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from mte.hub.release import Release
from mte.hub.repos import PARQUET_EXPORT, HubRepo
from mte.registry import TASKS
from mte.tasks.spec import Task

PAPER_CONFIGS = ("xlmr", "xtreme", "xtreme-r")
# a release with more files than this lists its first few, then how many follow
LISTED_FILES = 4
ROUTES = {
    "loads": "its configs, at the revision read",
    "files": "its parquet files by path, at the revision read",
    "script": f"its parquet export ({PARQUET_EXPORT}): main holds only a loading script",
}

INTRO = """# Where each benchmark's data comes from

<!-- Written by `make data-sources` (mte.steps.data_sources) from the task specs: do not edit. -->

A task reads its data from one of four sources (`tasks.<task>.source`,
[config/README.md](../config/README.md)):

- **hub**: the Hugging Face hub through `datasets`' own builders, at the full commit its spec
  pins (the table below says where each commit was seen). The pinned `datasets` (5.x) refuses a
  repository that keeps a loading script at its root: a repository whose data files sit beside
  a script is read as those parquet files by path at the commit, and one that holds only a
  script from its parquet export (`refs/convert/parquet`, the config as `data_dir`). A commit
  the hub does not serve stops the download with one line naming the repository, the revision,
  the task and the way out (`tasks.<task>.revision`, or `source: release`); it is never
  replaced by `main`. `MTE_HUB_DIR=<folder>` reads a copy instead of the hub, for a machine
  without the network: `<owner>/<name>@<revision>` (a copy at that revision, its `/` written
  `%2F`), or `<owner>/<name>` as a `git clone` of the hub repository with the pinned commit
  checked out (a clone without the commit: not served, as on the hub); a plain folder of that
  name stands for a branch (`main`, the export), never for a pinned commit. PAWS-X's hub rows
  keep the old loading script's label -1 where the release's label was missing or not 0/1:
  they are read as XTREME's reader (`third_party/processors/pawsx.py`) reads such a line, a
  test row labelled `0` (its reader's label for a test line without one), a training or dev row
  left out (its reader cannot read one); the download's log and data record count them
  (`unlabelled`), and its console line says so.
- **release**: the authors' own files by URL, as their download scripts fetch them, downloaded
  once into `resources/releases/<task>/` (rule `fetch_release`, a progress bar per file), each
  checked against its SHA-256 and renamed into place only when whole; archives extracted (only
  the asked languages' members). A checksum is *pinned* from the genuine file where a snapshot
  of the repository that hosts it could be read, else *recorded* at the first download
  (`resources/releases/<task>/.recorded.sha256`) and held to after. `MTE_RELEASE_MIRROR=<base>`
  (or the config's `release_mirror`) fetches `<base>/<host>/<path>` for `https://<host>/<path>`:
  an institutional mirror, or a folder laid out so.
- **files**: a folder of the released files you already have
  ([running.md](running.md#running-on-local-files)).
- **demo**: the small demo sets shipped in the package.

Every data record (`resources/data/<task>/<data>/<lang>/<split>.meta.json`, and each score's
provenance) names what was read: the repository, the revision asked for and the commit it
resolved to, the route, each data file read with its digest; or the files with their SHA-256
and the release's URLs. The data folder's name holds a digest of the source's pins (commits,
checksums), so a new pin is new data.

## The data lock

A pin names what to read; the lock says what was read, and holds every later download to it.
Each run config has one lock file beside it, `config/<name>.lock` for `config/<name>.yaml`
(`config/config.lock` for the demo; the config's `data_lock` names another file, or `false`
for none). The end of a run that ran jobs records, per task x language x split, the commit a hub
revision resolved to, the digest of each file read (the hub's LFS SHA-256, or its git blob id for
a file kept in git; a local or released file's SHA-256) and the SHA-256 and count of the
canonical examples file the download wrote, under the task's data folder name. It is YAML with
sorted keys, written by the workflow: commit it with the config, and a teammate's run reads the
same bytes or is told it does not.

- **A later download of the same source and pins that reads other bytes stops**, naming the
  file, both SHA-256 sums (examples and each file read) and the commits, and keeps nothing. A
  branch that moved, a parquet export regenerated, a file replaced under a tag or a local file
  edited all land here. A run also checks, before planning, that the data already in its
  folders agrees with the lock (one line saying how many files agree, or a stop naming each that
  does not).
- **`make update-lock CONFIG=config/<name>.yaml`** (`snakemake --config update_lock=true`)
  accepts other bytes on purpose: its target is every download of the run and nothing else,
  and the end of it rewrites the lock and says what changed, one line per file with both sums.
  The task's accepted data then has a digest of its own in the lock, which enters the task's
  data key: the next run downloads it again into the new folder and reruns that task's jobs,
  and only that task's; results made from the old data keep their folders. To look again at
  a source that may have moved, remove its data folder (`resources/data/<task>/`) and run.
- **A first download only records**: it never renames what it made, so writing the lock plans
  nothing new. A config that changes a task's pins names a new data folder and its entries
  replace the old ones.
- **The parquet export** (`refs/convert/parquet`) of a repository that holds only a loading
  script is read at the branch, not at one of its commits: the hub's converter squashes that
  branch's history after each conversion, so an export commit pinned today may not resolve
  later. Its resolved commit is recorded, and its identity is the lock's.

MTEB and the hub's own clients stop at the pin; the lock checks the bytes.

The hub's pages and the public code that pins these repositories were read on 2026-12-05
through a search of stored pages and code (the hub itself cannot be reached from where this
project is written); "the page read" is the page each verdict rests on.
"""


def _repo_tasks(repo: HubRepo) -> list[str]:
    return sorted(name for name, task in TASKS.items() if repo in task.hub_repos)


def _commit(revision: str) -> str:
    return f"`{revision[:12]}`" if len(revision) == 40 else f"`{revision}` (not pinned)"


def hub_table() -> list[str]:
    repos: dict[str, HubRepo] = {}
    for task in TASKS.values():
        for repo in task.hub_repos:
            repos.setdefault(repo.id, repo)
    lines = [
        "## Hub repositories",
        "",
        "| repository | revision read | read as | where the commit was seen | the page read: what "
        "it shows | tasks |",
        "|---|---|---|---|---|---|",
    ]
    pinned, unpinned = 0, []
    for repo_id in sorted(repos, key=str.lower):
        repo = repos[repo_id]
        route = ROUTES[repo.status]
        read = repo.read_revision
        if len(read) == 40:
            pinned += 1
        else:
            unpinned.append(f"`{repo.id}`")
        page = repo.page.split("/datasets/")[-1]
        lines.append(
            f"| `{repo.id}` | {_commit(read)} | {route} | {repo.seen} | [{page}]({repo.page}): "
            f"{repo.holds} | {', '.join(_repo_tasks(repo))} |"
        )
    lines += [
        "",
        f"{pinned} of {len(repos)} repositories are pinned to a full commit seen on a page or in "
        f"public code that pins it. {', '.join(unpinned)} are read at a branch: no page or code "
        "read shows a commit of them (the script-only ones are read from their parquet export's "
        "branch, which the hub may rewrite after a conversion). For every repository, "
        "pinned or not, each download records the commit it resolved (the data record's "
        "`commit`) and the run's data lock holds the SHA-256 of what was read (below).",
        "",
        "None of these commits has been read from the live hub by this project: they were taken "
        "from stored pages and public code on 2026-12-05. A commit the hub does not serve stops "
        "the download with one line naming the repository, the revision, the task and the way "
        "out (`tasks.<task>.revision`, or `source: release`).",
        "",
    ]
    return lines


def _hub_lines(task: Task) -> list[str]:
    if not task.hub_id:
        return ["- hub: none (the release's files only)"]
    configs = sorted({config for _, config in task.hub_configs.values()} - {None})
    shown = ", ".join(f"`{c}`" for c in configs[:3])
    if len(configs) > 3:
        shown += f", ... ({len(configs)} configs)"
    splits = ", ".join(f"{ours} = `{theirs}`" for ours, theirs in task.hub_splits.items())
    repos = ", ".join(f"`{r.id}` at {_commit(r.revision)}" for r in task.hub_repos)
    where = f"configs {shown}" if shown else "the language as config"
    return [f"- hub: {repos}; {where}; splits {splits}"]


def _release_lines(release: Release | None, why: str = "") -> list[str]:
    if release is None:
        return [f"- release: none here{': ' + why if why else ''}"]
    pinned = sum(1 for f in release.files if f.sha256)
    lines = [
        f"- release: {len(release.files)} file(s), {pinned} with a pinned SHA-256; checksums: "
        f"{release.checksums}"
    ]
    for file in release.files[:LISTED_FILES]:
        digest = f"`{file.sha256[:16]}...`" if file.sha256 else "recorded at first download"
        lines.append(f"  - <{file.url}> -> `{file.name}`: {digest}")
    if len(release.files) > LISTED_FILES:
        lines.append(
            f"  - ... and {len(release.files) - LISTED_FILES} more of the same kind "
            "(mte/specs/checksums/ holds every pinned sum)"
        )
    if release.note:
        lines.append(f"  - as the authors' script does it: {release.note}")
    return lines


def paper_sources(repo_root: Path) -> dict[str, dict[str, str]]:
    """config name -> task -> the source it uses."""
    used = {}
    for name in PAPER_CONFIGS:
        config = yaml.safe_load((repo_root / "config" / f"{name}.yaml").read_text(encoding="utf-8"))
        used[name] = {t: (c or {}).get("source", "hub") for t, c in config["tasks"].items()}
    return used


def task_sections(used: dict[str, dict[str, str]]) -> list[str]:
    lines = ["## Tasks", ""]
    for name in sorted(TASKS):
        task = TASKS[name]
        lines += [f"### {task.title} (`{name}`)", ""]
        lines += _hub_lines(task)
        lines += _release_lines(task.release, task.no_release)
        if task.manual_step:
            lines.append(f"- a step no URL can do: {task.manual_step}")
        configs = [
            f"{config}: {sources[name]}" for config, sources in used.items() if name in sources
        ]
        lines.append(f"- paper configs: {', '.join(configs) if configs else 'none'}")
        lines.append("")
    return lines


def document(repo_root: Path) -> str:
    used = paper_sources(repo_root)
    lines = [INTRO, *hub_table(), *task_sections(used)]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[4]
    path = root / "docs" / "data-sources.md"
    text = document(root)
    if args.check:
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            print(f"{path} is stale: run make data-sources", file=sys.stderr)
            return 1
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
