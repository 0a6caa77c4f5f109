"""``datasched reproduce``: run the paper artifacts' pipeline with one command.

A thin front end to Snakemake (the pipeline itself is the top-level ``Snakefile``):
it picks the variant's config, runs Snakemake from the repository root so relative
paths in the configs hold wherever it is called from, and resumes interrupted runs
(``--rerun-incomplete``). Snakemake prints its progress and, at the end, where the
figures are.

    python -m datasched.analysis.reproduce --quick          # or: datasched reproduce --quick
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from datasched.errors import ERROR_PREFIX, USER_ERROR_STATUS, UserError, refuse_special_file

from .experiment_config import REPO_ROOT, load_config_file

VARIANTS = ("quick", "full", "test")


def snakemake_command(
    variant: str, cores: int, extra: list[str] | None = None, configfile: str | Path | None = None
) -> list[str]:
    config = Path(configfile) if configfile else REPO_ROOT / "config" / f"{variant}.yaml"
    refuse_special_file(config)
    if not config.is_file():
        raise UserError(f"config file not found: {config}")
    # Validated here too (Snakefile's rules/common.smk does it again): a broken YAML or a
    # bad key is then one line naming the file and line, before Snakemake starts.
    load_config_file(config)
    return [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO_ROOT / "Snakefile"),
        "--directory",
        str(REPO_ROOT),
        "--configfile",
        str(config),
        "--cores",
        str(cores),
        "--rerun-incomplete",
        "--printshellcmds",
        *(extra or []),
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group()
    for variant in VARIANTS:
        which.add_argument(
            f"--{variant}",
            dest="variant",
            action="store_const",
            const=variant,
            help=f"run the {variant} variant (config/{variant}.yaml)",
        )
    parser.add_argument("--configfile", default=None, help="another config file (overrides the variant's)")
    parser.add_argument("--cores", "-c", type=int, default=2, help="cores Snakemake may use (default 2)")
    parser.add_argument("--dry-run", "-n", action="store_true", help="list the jobs without running them")
    parser.add_argument(
        "--only",
        action="append",
        metavar="ARTIFACT",
        help="run the next slice of this accumulating artifact (e.g. seed000_fig9; repeatable), then rebuild "
        "its figure and report from the committed summaries (docs/cluster.md)",
    )
    parser.add_argument(
        "--max-cpu-hours",
        type=float,
        default=None,
        metavar="H",
        help="with --only: the slice's CPU budget, estimated from the committed runs (default: every missing run)",
    )
    parser.add_argument(
        "snakemake_args",
        nargs=argparse.REMAINDER,
        help="further Snakemake arguments after `--` (e.g. -- --executor slurm -j 100)",
    )
    parser.set_defaults(variant="quick")


def run(args: argparse.Namespace) -> int:
    extra = [a for a in args.snakemake_args if a != "--"]
    if args.dry_run:
        extra.append("--dry-run")
    if args.max_cpu_hours is not None and not args.only:
        raise UserError("--max-cpu-hours needs --only ARTIFACT (the artifact whose next slice runs)")
    if args.only:
        from .reproduce_slice import run_slice

        config = Path(args.configfile) if args.configfile else REPO_ROOT / "config" / f"{args.variant}.yaml"
        base = snakemake_command(args.variant, args.cores, [], args.configfile)
        print("datasched: " + " ".join(base), file=sys.stderr, flush=True)
        return run_slice(load_config_file(config), args.only, args.max_cpu_hours, args.cores, base, extra)
    command = snakemake_command(args.variant, args.cores, extra, args.configfile)
    print("datasched: " + " ".join(command), file=sys.stderr, flush=True)
    return subprocess.run(command, cwd=REPO_ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasched.analysis.reproduce", description=__doc__.splitlines()[0])
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except UserError as exc:
        print(f"{ERROR_PREFIX}{exc}", file=sys.stderr)
        return USER_ERROR_STATUS


if __name__ == "__main__":
    sys.exit(main())
