"""`datasched run`, `datasched demo` and `datasched conformance`."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from datasched.errors import ProcessFailure, UserError, parse_json
from datasched.runner import Progress, SimulationError, run_simulation

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def register(subparsers) -> None:
    run = subparsers.add_parser("run", help="run one simulation (engine + decision process)")
    run.add_argument("--platform", required=True, help="SimGrid platform XML")
    run.add_argument("--workload", required=True, action="append", help="Batsim workload JSON (repeatable)")
    run.add_argument(
        "--scheduler", required=True, help="datasched policy name, pybatsim scheduler name (e.g. easyBackfill) or file"
    )
    run.add_argument("--options", default="{}", help="scheduler options as a JSON object")
    run.add_argument("--output", default="out", help="output folder (default: out)")
    run.add_argument(
        "--engine",
        default="sim",
        choices=["sim", "batsim"],
        help="simulation engine: sim (datasched-sim, default) or batsim (real Batsim 4.2.1 on PATH; only options "
        "Batsim knows)",
    )
    run.add_argument(
        "--decision-timeout",
        type=float,
        default=600.0,
        help="seconds the engine waits for each decision before failing",
    )
    run.add_argument(
        "--traffic-policy",
        default="none",
        help="IPC vs storage arbitration for datasched_phases jobs: none, np, ba:X, fp or "
        "weights:ipc=A,storage=B (docs/storage.md, Traffic policies)",
    )
    run.add_argument(
        "--ipc-fanout",
        type=int,
        default=0,
        help="approximate each all-to-all communicate phase of n > D+1 nodes by D calibrated flows per node "
        "(much faster on large jobs, not exact; see workloads/README.md section 3); default 0: exact",
    )
    run.add_argument(
        "--energy",
        action="store_true",
        help="simulate energy as Batsim 4.2.1 does with -E (the platform's wattage_per_state; docs/energy.md)",
    )
    run.add_argument("--engine-arg", action="append", default=[], help="extra engine argument (repeatable)")
    path = run.add_mutually_exclusive_group()
    path.add_argument(
        "--in-process",
        action="store_true",
        help="run a datasched policy inside the engine's process (no socket; same decisions, much faster on "
        "long traces): the default for our policies on datasched-sim; an error for pybatsim schedulers",
    )
    path.add_argument(
        "--protocol",
        action="store_true",
        help="run a datasched policy as a separate decision process over Batsim's protocol (ZeroMQ socket), as "
        "pybatsim schedulers and real Batsim always do",
    )
    run.set_defaults(func=cmd_run)

    demo = subparsers.add_parser("demo", help="run the demo simulation and draw its Gantt chart")
    demo.add_argument("--output", default="out/demo", help="output folder (default: out/demo)")
    demo.add_argument(
        "--storage",
        action="store_true",
        help="the storage-model demo: Markov applications with node NVM, remote NVM and SAN I/O",
    )
    demo.add_argument("--traffic-policy", default="np", help="with --storage: the engine's traffic policy")
    demo.set_defaults(func=cmd_demo)

    conf = subparsers.add_parser("conformance", help="compare the engine with real Batsim 4.2.1 reference runs")
    conf.add_argument("--cases", default=None, help="folder of conformance cases (default: tests/data/conformance)")
    conf.add_argument(
        "--engine",
        default="sim",
        choices=["sim", "batsim"],
        help="sim: compare datasched-sim with the references (default); batsim: regenerate the references with real "
        "Batsim on PATH (needs --into or --overwrite-references)",
    )
    conf.add_argument("--into", default=None, help="with --engine batsim: folder to write the regenerated cases into")
    conf.add_argument(
        "--overwrite-references",
        action="store_true",
        help="with --engine batsim: replace the references in the cases folder itself",
    )
    conf.add_argument("--case", action="append", default=[], help="only this case (repeatable)")
    conf.set_defaults(func=cmd_conformance)


def job_counts(p: Progress) -> str:
    """``S succeeded, K killed, R rejected`` (+ ``F failed``: a non-zero return code)."""
    failed = p.completed - p.succeeded - p.killed - p.rejected
    text = f"{p.succeeded} succeeded, {p.killed} killed, {p.rejected} rejected"
    return text + (f", {failed} failed" if failed > 0 else "")


def summary_of_jobs_csv(path: Path) -> str:
    """The final counts read back from ``_jobs.csv``, e.g. ``6 jobs: 4 succeeded, ...``."""
    import csv

    total = succeeded = killed = rejected = 0
    with open(path, newline="") as handle:  # streamed: a million-job run has a million rows
        for row in csv.DictReader(handle):
            total += 1
            state = row.get("final_state", "")
            succeeded += state == "COMPLETED_SUCCESSFULLY" and row.get("success") == "1"
            killed += state in ("COMPLETED_KILLED", "COMPLETED_WALLTIME_REACHED")
            rejected += state == "REJECTED"
    return f"{total} jobs: " + job_counts(Progress(total, total, 0.0, succeeded, killed, rejected))


class ProgressLine:
    """Prints one self-overwriting progress line on a terminal, a line every 10 % otherwise."""

    def __init__(self, label: str):
        self.label = label
        self.tty = sys.stderr.isatty()
        self.last_decile = -1

    def __call__(self, p: Progress) -> None:
        pct = 100.0 * p.completed / p.total if p.total else 100.0
        text = (
            f"[{self.label}] {p.completed}/{p.total} jobs finished ({pct:5.1f} %: {job_counts(p)}), "
            f"simulated time {p.simulated_time:,.0f} s"
        )
        if self.tty:
            print("\r" + text, end="", file=sys.stderr, flush=True)
        elif int(pct // 10) > self.last_decile:
            self.last_decile = int(pct // 10)
            print(text, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.tty:
            print(file=sys.stderr)


def _run(
    platform,
    workloads,
    scheduler,
    output,
    options=None,
    engine_args=(),
    decision_timeout=600.0,
    traffic_policy="none",
    ipc_fanout=0,
    engine="sim",
    in_process=False,
    command=None,
):
    progress = ProgressLine(Path(output).name)
    try:
        return run_simulation(
            platform,
            workloads,
            scheduler,
            output,
            scheduler_options=options,
            engine_args=engine_args,
            decision_timeout=decision_timeout,
            on_progress=progress,
            traffic_policy=traffic_policy,
            ipc_fanout=ipc_fanout,
            engine=engine,
            in_process=in_process,
            command=command,
        )
    except SimulationError as exc:
        raise ProcessFailure(str(exc)) from None
    finally:
        progress.close()


def runs_in_process(args) -> bool:
    """Our registered policies run in the engine's process unless ``--protocol`` (same
    decisions, about 3× faster end to end on delay_50k: docs/benchmarks.md); pybatsim
    schedulers and real Batsim always use the protocol path; ``--in-process`` insists (and
    fails with a one-line reason where it cannot)."""
    if args.in_process or args.protocol:
        return bool(args.in_process)
    from datasched.policy.registry import policy_names

    return args.engine == "sim" and args.scheduler in policy_names()


def cmd_run(args) -> int:
    from datasched.runner import remove_outputs

    if Path(args.output).is_dir():  # nothing of a previous run survives a failure, even this early
        remove_outputs(args.output)
    try:
        options = parse_json(args.options, "--options")
    except json.JSONDecodeError as exc:
        raise UserError(f"--options is not valid JSON: {exc}") from None
    if not isinstance(options, dict):
        raise UserError("--options must be a JSON object")
    result = _run(
        args.platform,
        args.workload,
        args.scheduler,
        args.output,
        options,
        [*args.engine_arg, "-E"] if args.energy and "-E" not in args.engine_arg else args.engine_arg,
        args.decision_timeout,
        args.traffic_policy,
        args.ipc_fanout,
        args.engine,
        runs_in_process(args),
        getattr(args, "invocation", None),
    )
    ours = [result.jobs_csv.parent / f"{result.prefix}_{name}.csv" for name in ("io", "data")]
    extra = "".join(f" {path}" for path in ours if path.exists())
    print(f"{summary_of_jobs_csv(result.jobs_csv)}")
    print(f"outputs: {result.jobs_csv} {result.schedule_csv}{extra} ({result.wall_seconds:.1f} s)")
    return 0


def cmd_demo(args) -> int:
    from datasched.analysis.gantt import plot_gantt

    if args.storage:
        return _storage_demo(args)
    result = _run(
        EXAMPLES / "demo_platform.xml",
        [EXAMPLES / "demo_workload.json"],
        "easyBackfill",
        args.output,
        command=getattr(args, "invocation", None),
    )
    png = Path(args.output) / "gantt.png"
    plot_gantt(result.jobs_csv, png, title="demo: pybatsim easyBackfill on datasched-sim")
    print(f"demo outputs: {result.jobs_csv}, {result.schedule_csv}")
    print(f"Gantt chart:  {png}")
    print(f"explorer:     {_explorer_page(args.output)}")
    return 0


def _explorer_page(output: str) -> Path:
    """The demo's `datasched explore` page (written into its output folder)."""
    from datasched.analysis.explore import explore

    return explore([output])


#: Seconds per window of the storage demo's measured link load (out_links.csv; the explorer draws it).
STORAGE_DEMO_LINK_WINDOW = 2.0


def _storage_demo(args) -> int:
    """Six Markov applications (seed 000's multi-application model, small) on the
    8-node unified test platform, EASY with sequential allocation; prints where each
    job's bytes went (out_io.csv)."""
    import csv

    from datasched.analysis.gantt import plot_gantt
    from datasched.platforms.catalog import catalog_path

    platform = catalog_path("small-test-unified")
    result = _run(
        platform,
        [EXAMPLES / "demo_phases.json"],
        "easy",
        args.output,
        {"allocation": "sequential"},
        engine_args=(f"--link-load-window={STORAGE_DEMO_LINK_WINDOW:g}",),
        traffic_policy=args.traffic_policy,
        command=getattr(args, "invocation", None),
    )
    png = Path(args.output) / "gantt.png"
    plot_gantt(result.jobs_csv, png, title=f"storage demo: easy, traffic policy {args.traffic_policy}")
    io_csv = result.jobs_csv.parent / f"{result.prefix}_io.csv"
    with open(io_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    print(
        f"{'job':>4} {'storage':>9} {'access':>9} {'DRAM GB':>8} {'local GB':>8} {'remote GB':>9} {'SAN GB':>7}"
        f" {'I/O s':>7} {'IPC s':>7}"
    )
    for row in rows:
        gb = {k: float(row[f"{k}_bytes"]) / 1e9 for k in ("dram", "local_nvm", "remote_nvm", "san")}
        io_s = float(row["read_phase_seconds"]) + float(row["write_phase_seconds"])
        print(
            f"{row['job_id']:>4} {row['allocation']:>9} {row['access']:>9} {gb['dram']:8.1f} {gb['local_nvm']:8.1f}"
            f" {gb['remote_nvm']:9.1f} {gb['san']:7.1f} {io_s:7.1f} {float(row['communicate_phase_seconds']):7.1f}"
        )
    print(f"demo outputs: {result.jobs_csv}, {io_csv}")
    print(f"Gantt chart:  {png}")
    print(f"explorer:     {_explorer_page(args.output)}")
    return 0


def cmd_conformance(args) -> int:
    from datasched import conformance

    # resolved here: the decision processes run in their output folders (issue 33)
    root = Path(args.cases).resolve() if args.cases else conformance.DEFAULT_CASES
    if not root.is_dir():
        raise UserError(f"conformance cases folder not found: {root}")
    cases = conformance.case_dirs(root)
    unknown = sorted(set(args.case) - {c.name for c in cases})
    if unknown:
        raise UserError(f"--case: no case named {', '.join(unknown)} in {root}")
    if args.case:
        cases = [c for c in cases if c.name in args.case]
    if args.engine == "batsim":
        return _regenerate(cases, root, args)
    if args.into or args.overwrite_references:
        raise UserError("--into and --overwrite-references regenerate references: they need --engine batsim")
    identical = 0
    for case in cases:
        with tempfile.TemporaryDirectory() as tmp:
            result = conformance.check_case(case, Path(tmp))
        identical += result.identical
        how = " (replayed decisions, see JUSTIFIED_BY_REPLAY)" if case.name in conformance.JUSTIFIED_BY_REPLAY else ""
        absent = [
            k.name for k in conformance.OUTPUT_KINDS[:3] if k.name not in result.files and "run" not in result.files
        ]
        note = f"; no {', '.join(absent)} reference (see the cases' README.md)" if absent else ""
        print(
            f"{'identical' if result.identical else 'DIFFERENT'}  {case.name}: {result.nb_jobs} jobs{how}; "
            f"{result.files_text()}{note}"
        )
        for diff in result.differences[:10]:
            print(f"    {diff}")
    print(f"{identical}/{len(cases)} cases identical")
    return 0 if identical == len(cases) else 1


def _regenerate(cases, root: Path, args) -> int:
    """``conformance --engine batsim``: rerun every case on real Batsim into new reference folders."""
    from datasched import batsim_backend, conformance

    if args.overwrite_references and args.into:
        raise UserError("give either --into or --overwrite-references, not both")
    if not (args.overwrite_references or args.into):
        raise UserError(
            "--engine batsim regenerates the references: give --into FOLDER (or --overwrite-references to replace "
            f"those in {root})"
        )
    into = root if args.overwrite_references else Path(args.into).resolve()
    if not args.overwrite_references and into.resolve() == root.resolve():
        raise UserError(
            f"--into {into} is the cases folder itself: use --overwrite-references to replace its references"
        )
    batsim_backend.find_batsim()
    same = failed = 0
    for case in cases:
        result = conformance.regenerate_case(case, into, overwrite=args.overwrite_references)
        same += result.identical
        failed += result.files.get("run") == "failed"
        print(f"{'same' if result.identical else 'CHANGED'}  {case.name}: {result.files_text()} -> {into / case.name}")
        for diff in result.differences[:10]:
            print(f"    {diff}")
    print(f"{len(cases) - failed}/{len(cases)} cases regenerated, {same} equal to the previous references")
    return 1 if failed else 0
