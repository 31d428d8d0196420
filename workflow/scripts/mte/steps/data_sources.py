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
    "loads": "its configs, at the commit",
    "files": "its parquet files by path, at the commit",
    "script": f"its parquet export ({PARQUET_EXPORT}): main holds only a loading script",
    "unsettled": "tried as it is; on a loading-script refusal, its parquet export",
}

INTRO = """# Where each benchmark's data comes from

<!-- Written by `make data-sources` (mte.steps.data_sources) from the task specs: do not edit. -->

A task reads its data from one of four sources (`tasks.<task>.source`,
[config/README.md](../config/README.md)):

- **hub**: `datasets.load_dataset` on the Hugging Face hub, at the commit its spec pins. The
  pinned `datasets` (5.x) refuses a repository that keeps a loading script at its root, even with
  data files beside it: such a repository is read from its parquet export
  (`refs/convert/parquet`, the config as `data_dir`), or, where the files sit beside the script at
  a known commit, as those parquet files by path. Where the pages could not settle whether a
  repository still holds a script, it is tried first, and a refusal falls back to its export with
  one line saying so. A repository that holds only a script is named as such, apart from an
  unreachable hub. `MTE_HUB_DIR=<folder>` reads `<folder>/<owner>/<name>` (or
  `<owner>/<name>@<revision>`, the revision's `/` written `%2F`) instead of the hub: a copy of
  the repository, for a machine without the network.
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
resolved to, the route; or the files with their SHA-256 and the release's URLs. The data folder's
name holds a digest of the source's pins (commits, checksums), so a new pin is new data.

The hub's pages were read on 2026-12-03 through a search of stored pages (the hub itself cannot
be reached from where this project is written); "the page read" is the page each verdict rests
on.
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
        "| repository | commit read | read as | the page read: what it shows | tasks |",
        "|---|---|---|---|---|",
    ]
    pinned = 0
    for repo_id in sorted(repos, key=str.lower):
        repo = repos[repo_id]
        route = ROUTES[repo.status]
        # what is read: the export's commit for a script-only repository
        read = repo.export_revision if repo.status == "script" else repo.revision
        pinned += len(read) == 40
        if repo.status == "unsettled":
            route += f" at {_commit(repo.export_revision)}"
        page = repo.page.split("/datasets/")[-1]
        lines.append(
            f"| `{repo.id}` | {_commit(read)} | {route} | [{page}]({repo.page}): {repo.holds} "
            f"| {', '.join(_repo_tasks(repo))} |"
        )
    lines += [
        "",
        f"{pinned} of {len(repos)} repositories are pinned to a commit read on a page; the others "
        "name the branch no page showed in full, and each download records the commit it "
        "resolved (the data record's `commit`).",
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
