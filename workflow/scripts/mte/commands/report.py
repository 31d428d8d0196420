"""``mte-report``: the HTML report of any run (``make report CONFIG=...``, and ``make run``'s last
step), written to ``results/runs/{run}/report.html`` of that config's run.

Snakemake writes a report only when asked (``snakemake --report FILE``), and the file's place
depends on the run's name, which the config decides (its ``run``, else the config file's name):
this command works it out as the workflow does, asks Snakemake for the report with the project's
stylesheet (workflow/report/report.css), and says where it is."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

# the checkout this package lies in (workflow/scripts/mte/commands/report.py)
CHECKOUT = Path(__file__).resolve().parents[4]
STYLESHEET = CHECKOUT / "workflow" / "report" / "report.css"
DEFAULT_CONFIG = CHECKOUT / "config" / "config.yaml"


def run_config(configfiles: Sequence[str], overrides: Sequence[str]) -> dict:
    """The config a run of ``configfiles`` and ``--config`` ``overrides`` reads, merged as
    Snakemake merges them (each file updates the ones before; the overrides last)."""
    import yaml
    from snakemake.cli import parse_config
    from snakemake.utils import update_config

    config: dict = {}
    for path in configfiles or [DEFAULT_CONFIG]:
        update_config(config, yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {})
    update_config(config, parse_config(list(overrides)))
    return config


def report_path(directory: Path, configfiles: Sequence[str], overrides: Sequence[str]) -> Path:
    """results/runs/{run}/report.html of the run, in ``directory`` (the working directory)."""
    from mte.config.plan.keys import run_name

    run = run_name(run_config(configfiles, overrides), list(configfiles))
    return directory / "results" / "runs" / run / "report.html"


def snakemake_command(
    directory: Path, configfiles: Sequence[str], overrides: Sequence[str], out: Path
) -> list[str]:
    command = [
        sys.executable, "-m", "snakemake",
        "--snakefile", str(CHECKOUT / "Snakefile"),
        "--directory", str(directory),
    ]  # fmt: skip
    if configfiles:
        command += ["--configfile", *configfiles]
    if overrides:
        command += ["--config", *overrides]
    return [*command, "--report", str(out), "--report-stylesheet", str(STYLESHEET)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="mte-report",
        description="Write the HTML report of a finished run to results/runs/<run>/report.html "
        "(its tables on the first screen; figures, training curves and provenance in its "
        "menu). Give the config files and --config values the run was made with.",
    )
    parser.add_argument(
        "--configfile",
        nargs="+",
        default=[],
        help="the run's config file(s), as given to snakemake (default: config/config.yaml, "
        "the demo)",
    )
    parser.add_argument(
        "--config", nargs="+", default=[], metavar="KEY=VALUE", help="the run's --config values"
    )
    parser.add_argument(
        "--directory", default=".", help="the run's working directory (default: here)"
    )
    parser.add_argument("--out", help="where to write it (default: results/runs/<run>/report.html)")
    args = parser.parse_args(argv)
    directory = Path(args.directory).resolve()
    try:
        default = report_path(directory, args.configfile, args.config)
    except (OSError, ValueError) as error:
        print(f"mte-report: {error}", file=sys.stderr)
        return 2
    out = Path(args.out).resolve() if args.out else default
    index = default.parent / "scores.csv"
    if not index.is_file():
        print(
            f"mte-report: {default.parent} holds no finished run ({index.name} is missing): run "
            "the workflow with the same config first (snakemake --cores N "
            f"{' '.join(f'--configfile {c}' for c in args.configfile)})".rstrip(),
            file=sys.stderr,
        )
        return 1
    done = subprocess.run(snakemake_command(directory, args.configfile, args.config, out))
    if done.returncode == 0:
        print(f"Open {out} in a browser (tables: {default.parent / 'tables'})")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
