"""Run every registered task once on the tiny model and tiny released-format files.

    python tools/tiny_every_task.py WORKDIR [--data FOLDER] [--only TASK,...] [--repo CHECKOUT]

WORKDIR receives the config (config.yaml) and the results; the tiny data and the tiny model are
written to --data (default WORKDIR/data) unless they are there already. Two runs compared with
each other read the same --data folder, since the data's folder names are digests of its path.
--repo names the checkout whose Snakefile runs (default: this one), so that two versions of the
workflow can be run on the same inputs and their trees compared with tools/compare_results.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.workflow.every_task import config, write_data, write_tiny_model  # noqa: E402
from tests.workflow.snakemake_runner import run_snakemake  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workdir", type=Path)
    parser.add_argument("--data", type=Path, help="the tiny data's folder (default WORKDIR/data)")
    parser.add_argument(
        "--only",
        help="comma-separated task names: run these alone (e.g. the tasks an older "
        "checkout knows, to compare its tree with a newer one's)",
    )
    parser.add_argument("--repo", type=Path, default=REPO, help="checkout whose Snakefile runs")
    args = parser.parse_args()
    workdir = args.workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    data = (args.data or workdir / "data").resolve()
    if not data.exists():
        write_data(data)
    if not (data / "tiny-model").exists():
        write_tiny_model(data / "tiny-model")
    config_path = workdir / "config.yaml"
    chosen = config(data)
    if args.only:
        only = args.only.split(",")
        unknown = sorted(set(only) - set(chosen["tasks"]))
        if unknown:
            parser.error(f"--only names tasks this script does not configure: {unknown}")
        chosen["tasks"] = {name: chosen["tasks"][name] for name in only}
    config_path.write_text(yaml.safe_dump(chosen), encoding="utf-8")
    run = run_snakemake(workdir, config_path, repo=args.repo.resolve(), capture=False, timeout=None)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
