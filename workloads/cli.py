"""``datasched workload ...`` sub-commands: from-swf, markov, from-workflow, from-wfcommons."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from datasched.errors import UserError, parse_yaml, read_utf8, yaml_error
from datasched.seeds import seed_argument

if TYPE_CHECKING:
    from datasched.workloads.phases import ProfileMode


def _bool_pair(parser: argparse.ArgumentParser, name: str, default: bool, help_text: str) -> None:
    parser.add_argument(
        f"--{name}",
        dest=name.replace("-", "_"),
        action=argparse.BooleanOptionalAction,
        default=default,
        help=f"{help_text} (default: {'on' if default else 'off'})",
    )


def register(subparsers: Any) -> None:
    workload = subparsers.add_parser("workload", help="create Batsim workload JSON files")
    sub = workload.add_subparsers(dest="workload_command", metavar="WORKLOAD_COMMAND")
    workload.set_defaults(func=lambda args: (workload.print_help(), 2)[1])

    swf = sub.add_parser("from-swf", help="convert an SWF trace (see workloads/README.md for every option)")
    swf.add_argument("swf", type=Path)
    swf.add_argument("-o", "--output", type=Path, required=True)
    swf.add_argument(
        "--on-malformed",
        choices=("reject", "skip"),
        default="reject",
        help="reject the file at the first malformed line, or skip malformed lines with a counted warning",
    )
    swf.add_argument(
        "--extra-fields",
        choices=("reject", "ignore"),
        default="reject",
        help="lines with more than 18 fields (extended archives: node list, queue, resource spec): reject the "
        "file, or keep the 18 standard fields and report how many lines had more (default: reject)",
    )
    swf.add_argument("--cores-per-node", type=int, default=1)
    swf.add_argument("--processors-field", choices=("allocated", "requested"), default="allocated")
    swf.add_argument(
        "--platform-nodes",
        type=int,
        default=None,
        help="platform size in nodes (default: header MaxProcs or MaxNodes / cores-per-node)",
    )
    _bool_pair(swf, "drop-failed-cancelled", False, "drop jobs with status 0 (failed) or 5 (cancelled)")
    _bool_pair(swf, "drop-zero-runtime", True, "drop jobs with run time 0 or unknown")
    _bool_pair(swf, "drop-zero-size", True, "drop jobs with 0 or unknown processors")
    swf.add_argument("--wider-than-platform", choices=("drop", "keep"), default="drop")
    swf.add_argument("--start-time", type=float, default=None, help="keep jobs submitted at or after (trace seconds)")
    swf.add_argument("--end-time", type=float, default=None, help="keep jobs submitted before (trace seconds)")
    swf.add_argument("--max-jobs", type=int, default=None)
    _bool_pair(swf, "shift-to-zero", True, "shift submit times so the first kept job is at 0")
    swf.add_argument("--walltime-fallback", choices=("runtime", "fixed", "max_runtime"), default="runtime")
    swf.add_argument("--walltime-factor", type=float, default=1.0)
    swf.add_argument("--walltime-fixed", type=float, default=None)
    swf.add_argument(
        "--walltime-margin",
        type=float,
        default=1.0,
        help="seconds added to walltimes derived from the run time (fallback, extend)",
    )
    swf.add_argument("--runtime-over-walltime", choices=("keep", "extend", "clip"), default="keep")
    swf.add_argument("--profile-type", choices=("delay", "parallel_homogeneous"), default="delay")
    swf.add_argument("--host-speed", type=float, default=None, help="flop/s per node for parallel_homogeneous")
    _bool_pair(swf, "keep-swf-fields", True, "copy the 18 SWF fields into each job's datasched_swf field")
    swf.set_defaults(func=run_from_swf)

    markov = sub.add_parser("markov", help="seed-000 Markov-chain applications (single or multi-application)")
    markov.add_argument("-o", "--output", type=Path, required=True)
    markov.add_argument("--seed", type=seed_argument, required=True)
    markov.add_argument(
        "--params",
        type=Path,
        default=None,
        help="YAML/JSON file of parameters (keys of SingleApplicationParams/MultiApplicationParams)",
    )
    markov.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one parameter (YAML value), e.g. --set kind=multi --set max_tasks=512",
    )
    _profile_arguments(markov)
    markov.set_defaults(func=run_markov)

    wf = sub.add_parser("from-workflow", help="convert a workflow file (YAML/JSON) to a workload")
    wf.add_argument("workflow", type=Path)
    wf.add_argument("-o", "--output", type=Path, required=True)
    wf.add_argument(
        "--style",
        choices=("as-written", "single-script", "chain", "dependency"),
        default="as-written",
        help="seed-001 submission style applied before conversion",
    )
    wf.add_argument("--workflow-name", default=None, help="only transform this workflow (default: all)")
    _profile_arguments(wf)
    wf.add_argument("--walltime-factor", type=float, default=1.0)
    wf.add_argument("--walltime-margin", type=float, default=1.0)
    wf.set_defaults(func=run_from_workflow)

    wfc = sub.add_parser(
        "from-wfcommons",
        help="convert a WfCommons instance (WfFormat 1.4/1.5 JSON, .gz too) to a workflow file",
    )
    wfc.add_argument("instance", type=Path)
    wfc.add_argument("-o", "--output", type=Path, required=True, help="workflow file: .json, else YAML")
    wfc.add_argument(
        "--host-speed", type=float, default=1e9, help="flop/s per node: runtime x speed flops (default: 1e9)"
    )
    wfc.add_argument(
        "--cores-per-node", type=int, default=1, help="a task of c cores takes ceil(c / this) nodes (default: 1)"
    )
    wfc.add_argument("--system-nodes", type=int, default=None, help="the workflow's system size (default: widest task)")
    wfc.set_defaults(func=run_from_wfcommons)

    large = sub.add_parser(
        "generate-large",
        help="many jobs (e.g. 1,000,000) by seeded bootstrap resampling of an SWF trace (workloads/resample.py)",
    )
    large.add_argument("--source", type=Path, required=True, help="SWF trace to resample (e.g. a Lublin model output)")
    large.add_argument("-o", "--output", type=Path, required=True)
    large.add_argument("--seed", type=seed_argument, required=True)
    large.add_argument("--jobs", type=int, required=True, help="number of jobs to generate")
    large.add_argument("--platform-nodes", type=int, required=True, help="nodes of the target platform")
    large.add_argument(
        "--offered-load",
        type=float,
        default=None,
        help="scale arrival gaps to this expected offered load (default: the trace's own)",
    )
    large.set_defaults(func=run_generate_large)


def run_from_swf(args: argparse.Namespace) -> int:
    from datasched.workloads.swf_convert import USED_FIELDS, convert_swf, make_options

    keys = (
        "cores_per_node",
        "processors_field",
        "platform_nodes",
        "drop_failed_cancelled",
        "drop_zero_runtime",
        "drop_zero_size",
        "wider_than_platform",
        "start_time",
        "end_time",
        "max_jobs",
        "shift_to_zero",
        "walltime_fallback",
        "walltime_factor",
        "walltime_fixed",
        "walltime_margin",
        "runtime_over_walltime",
        "profile_type",
        "host_speed",
        "keep_swf_fields",
    )
    options = make_options(**{k: getattr(args, k) for k in keys})
    report = convert_swf(args.swf, args.output, options, on_error=args.on_malformed, extra_fields=args.extra_fields)
    if report.extra_field_lines:
        print(
            f"datasched: warning: {args.swf}: {report.extra_field_lines} line(s) had more than 18 fields; the extra "
            "fields were ignored (--extra-fields ignore). Check the standard ones: extended archives may put "
            "placeholders such as 1 or 1024 where SWF means -1 (unknown)",
            file=sys.stderr,
        )
    if report.placeholder_suspects:
        used = {f.name.lower() for f in USED_FIELDS}
        names = ", ".join(
            f"{name}={value}" + (" (used by the conversion)" if name in used else "")
            for name, value in report.placeholder_suspects.items()
        )
        print(
            f"datasched: warning: {args.swf}: placeholder suspects, one value on every job: {names}; "
            "if these mean -1 (unknown), the columns carry no information (workloads/README.md, Extended traces)",
            file=sys.stderr,
        )
    for issue in report.issues[:20]:
        print(f"datasched: warning: skipped malformed line {issue}", file=sys.stderr)
    if report.issues:
        more = f" ({len(report.issues) - 20} more not shown)" if len(report.issues) > 20 else ""
        print(f"datasched: warning: skipped {len(report.issues)} malformed line(s){more}", file=sys.stderr)
    dropped = ", ".join(f"{k}={v}" for k, v in report.dropped.items() if v)
    print(
        f"{args.output}: {report.kept_jobs} jobs kept of {report.parsed_jobs} parsed"
        f" (dropped: {dropped or 'none'}); nb_res={report.nb_res};"
        f" walltime fallback used for {report.walltime_fallback_jobs};"
        f" run time > walltime for {report.runtime_over_walltime_jobs}"
    )
    return 0


def _parse_overrides(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise UserError(f"--set expects KEY=VALUE, got {item!r}")
        key, raw = item.split("=", 1)
        target = out
        parts = key.split(".")
        for part in parts[:-1]:  # sizes.n_phases=10 -> {"sizes": {"n_phases": 10}}
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise UserError(f"--set {key}: {part} was set to a value, not a mapping, by an earlier --set")
        try:
            target[parts[-1]] = parse_yaml(raw, f"--set {key}")
        except yaml.YAMLError as exc:
            raise yaml_error(f"--set {key}", exc, "YAML value") from None
    return out


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _profile_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profiles",
        choices=("composed", "phases"),
        default=None,
        help="phases: datasched_phases profiles, which our engine runs on its storage model (default for "
        "--engine sim); composed: Batsim-standard profiles carrying the phases, with device times fixed from "
        "nominal rates, so the storage policy changes nothing (default for --engine batsim)",
    )
    parser.add_argument(
        "--engine",
        choices=("sim", "batsim"),
        default="sim",
        help="the engine the workload is for: sim (datasched-sim, default) or batsim (real Batsim 4.2.1, which "
        "cannot run datasched_phases profiles: the default profiles become composed)",
    )


def profile_mode(args: argparse.Namespace) -> ProfileMode:
    """The profiles to write: as asked, else the faithful ones for the target engine (phases on
    ours, composed on real Batsim, which runs nothing else; said on stderr)."""
    if args.profiles is None:
        if args.engine == "batsim":
            print(
                "datasched: --engine batsim: writing composed profiles (real Batsim cannot run datasched_phases; "
                "device times become fixed delays from nominal rates)",
                file=sys.stderr,
            )
            return "composed"
        return "phases"
    if args.profiles == "phases" and args.engine == "batsim":
        raise UserError("--profiles phases with --engine batsim: real Batsim cannot run datasched_phases profiles")
    return "phases" if args.profiles == "phases" else "composed"


def run_markov(args: argparse.Namespace) -> int:
    from datasched.workloads import markov

    data: dict[str, Any] = {}
    if args.params is not None:
        try:
            loaded = parse_yaml(read_utf8(args.params), args.params)
        except OSError as exc:
            raise UserError(f"{args.params}: cannot read parameters: {exc.strerror}") from None
        except yaml.YAMLError as exc:
            raise yaml_error(args.params, exc) from None
        if not isinstance(loaded, dict):
            raise UserError(f"{args.params}: parameters must be a mapping")
        data = loaded
    data = _merge(data, _parse_overrides(args.set))
    if "seed" in data and data["seed"] != args.seed:  # never run with another seed than one asked for
        source = "--set" if "seed" in _parse_overrides(args.set) else str(args.params)
        raise UserError(f"{source}: seed {data['seed']!r} differs from --seed {args.seed} (give the seed once)")
    data["seed"] = args.seed
    try:
        params = markov.parse_params(data)
    except UserError as exc:  # name the parameter file too (the key is in the message)
        raise UserError(f"{args.params}: {exc}" if args.params is not None else str(exc)) from None
    model = markov.generate_from_seed(params)
    markov.write(model, args.output, profile_mode=profile_mode(args))
    print(f"{args.output}: {len(model.applications)} application(s), seed {params.seed}, nb_res={model.nb_res}")
    return 0


def run_from_workflow(args: argparse.Namespace) -> int:
    from datasched.workflows.convert import convert_workflow
    from datasched.workflows.model import load_workflow
    from datasched.workflows.submission import apply_style

    workflow = load_workflow(args.workflow)
    if args.style != "as-written":
        workflow = apply_style(workflow, args.style, args.workflow_name)
    convert_workflow(
        workflow,
        args.output,
        mode=profile_mode(args),
        walltime_factor=args.walltime_factor,
        walltime_margin=args.walltime_margin,
        source=args.workflow.name,
    )
    print(f"{args.output}: {len(workflow.steps)} job(s) from workflow file {args.workflow.name} (style {args.style})")
    return 0


def run_from_wfcommons(args: argparse.Namespace) -> int:
    import json

    from pydantic import ValidationError

    from datasched.policy.params import describe_validation_error
    from datasched.workflows.model import dump_workflow, workflow_to_dict
    from datasched.workflows.wfcommons import WfCommonsConversion, instance_to_workflow, load_instance

    try:
        params = WfCommonsConversion(
            host_speed=args.host_speed, cores_per_node=args.cores_per_node, system_nodes=args.system_nodes
        )
    except ValidationError as exc:
        raise UserError(f"workload from-wfcommons: {describe_validation_error(exc)}") from None
    workflow = instance_to_workflow(load_instance(args.instance), params, str(args.instance))
    if args.output.suffix == ".json":
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(workflow_to_dict(workflow), indent=1, sort_keys=True) + "\n")
    else:
        dump_workflow(workflow, args.output)
    print(
        f"{args.output}: {len(workflow.steps)} step(s), {len(workflow.data)} data item(s) from WfCommons instance "
        f"{args.instance.name}"
    )
    return 0


def run_generate_large(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from datasched.policy.params import describe_validation_error
    from datasched.workloads import resample

    try:
        params = resample.ResampleParams(
            jobs=args.jobs, platform_nodes=args.platform_nodes, offered_load=args.offered_load
        )
    except ValidationError as exc:
        raise UserError(f"workload generate-large: {describe_validation_error(exc)}") from None
    sample = resample.TraceSample.from_swf(args.source)
    count = resample.write(sample, params, args.seed, args.output)
    print(
        f"{args.output}: {count} jobs resampled from {args.source.name} ({len(sample.jobs)} jobs, "
        f"{sample.trace_nodes} nodes) for {params.platform_nodes} nodes, seed {args.seed}, offered load "
        f"{sample.offered_load(params.platform_nodes, sample.gap_scale(params)):.3f}"
    )
    return 0
