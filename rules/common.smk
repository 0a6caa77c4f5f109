# Configuration loading and the path conventions every stage shares.
import hashlib
import os

from datasched.analysis.accumulate import spec_digest, summary_path
from datasched.analysis.accumulating_artifacts import artifact as accumulating_artifact
from datasched.analysis.experiment_config import NO_SEED, REPO_ROOT, load_config, scheduler_options
from datasched.analysis.burst_buffers.spec import BurstRun
from datasched.analysis.daemons_on_nodes.spec import DaemonsRun
from datasched.analysis.path_values import number, path_fields
from datasched.analysis.seed000.fig8.spec import Fig8Run
from datasched.analysis.seed000.fig9.spec import Fig9Run
from datasched.analysis.seed000.fig7.spec import Fig7Run
from datasched.analysis.seed000.fig10.spec import Fig10Run
from datasched.analysis.spec_stamp import write_spec_stamp
from datasched.errors import UserError
from datasched.platforms.catalog import catalog_path
from snakemake.exceptions import WorkflowError

CONFIG_SOURCE = ", ".join(str(f) for f in workflow.configfiles)

try:
    EXP = load_config(config, source=CONFIG_SOURCE)
except UserError as exc:
    raise WorkflowError(f"invalid configuration, nothing was run:\n{exc}") from None



def workdir_relative(path):
    """Relative to the working directory when inside it (portable paths in logs and reports)."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


RESULTS = workdir_relative(str(EXP.results_dir))
ARTIFACTS = workdir_relative(str(EXP.artifacts_dir))
NAME = "[A-Za-z0-9_-]+"


def spec_stamp(name, spec):
    """An input file holding a configuration section (analysis/spec_stamp.py): a rule that
    takes ``spec`` as a parameter lists it so that editing the section reruns the rule."""
    return write_spec_stamp(f"{RESULTS}/specs/{name}.json", spec)


wildcard_constraints:
    trace=NAME,
    policy=NAME,
    allocation=NAME,
    seed=rf"\d+|{NO_SEED}",


def sim_path(run, name):
    """Where a run's output file goes: the path encodes every parameter."""
    return f"{RESULTS}/sims/{run.path}/{name}"


def torus_dims_by_trace():
    """Torus dimensions of each trace's generated platform (for allocation compactness)."""
    dims = {}
    for name, trace in EXP.traces.items():
        topology = trace.platform.get("interconnect", {}).get("topology", {"kind": "torus", "dims": [4, 4, 4]})
        if topology.get("kind", "torus") == "torus":
            dims[name] = list(topology.get("dims", [4, 4, 4]))
    return dims


def policies_on_traces_outputs():
    pot = EXP.policies_on_traces
    if pot is None:
        return []
    gantts = [f"{ARTIFACTS}/gantt/{g.trace}_{g.policy}_{g.allocation}_seed-{g.seed}.png" for g in pot.gantt]
    return [
        f"{ARTIFACTS}/policies_on_traces.png",
        f"{ARTIFACTS}/policies_on_traces_plotted.csv",
        f"{ARTIFACTS}/report.md",
        *gantts,
    ]


FIG6 = EXP.seed000_fig6
FIG6_RESULTS = f"{RESULTS}/seed000_fig6"
FIG6_DIR = workdir_relative(str(EXP.seed000_fig6_dir)) if FIG6 else ""


def seed000_fig6_outputs():
    """Seed 000 Figure 6's artifact files (rules/seed000.smk), or none when not configured."""
    if not FIG6:
        return []
    return [f"{FIG6_DIR}/seed000_fig6.png", f"{FIG6_DIR}/seed000_fig6_plotted.csv", f"{FIG6_DIR}/report.md"]


FIG8 = EXP.seed000_fig8
FIG8_RESULTS = f"{RESULTS}/seed000_fig8"
FIG8_DIR = workdir_relative(str(EXP.seed000_fig8_dir)) if FIG8 else ""


def seed000_fig8_outputs():
    """Seed 000 Figure 8's artifact files (rules/seed000.smk), or none when not configured."""
    if not FIG8:
        return []
    return [f"{FIG8_DIR}/seed000_fig8.png", f"{FIG8_DIR}/seed000_fig8_plotted.csv", f"{FIG8_DIR}/report.md"]


FIG9 = EXP.seed000_fig9
FIG9_RESULTS = f"{RESULTS}/seed000_fig9"
FIG9_DIR = workdir_relative(str(EXP.seed000_fig9_dir)) if FIG9 else ""


def seed000_fig9_outputs():
    """Seed 000 Figure 9's artifact files (rules/seed000.smk), or none when not configured."""
    if not FIG9:
        return []
    return [f"{FIG9_DIR}/seed000_fig9.png", f"{FIG9_DIR}/seed000_fig9_plotted.csv", f"{FIG9_DIR}/report.md"]


DAEMONS = EXP.daemons_on_nodes
DAEMONS_RESULTS = f"{RESULTS}/daemons_on_nodes"
DAEMONS_DIR = workdir_relative(str(EXP.daemons_on_nodes_dir)) if DAEMONS else ""


def daemons_on_nodes_outputs():
    """The storage-daemons scheduling artifact's files (rules/daemons.smk), or none."""
    if not DAEMONS:
        return []
    return [f"{DAEMONS_DIR}/daemons_on_nodes.png", f"{DAEMONS_DIR}/daemons_on_nodes_plotted.csv", f"{DAEMONS_DIR}/report.md"]


def _daemons_run(wildcards):
    return DaemonsRun.from_path(wildcards.daemons)


def _daemons_inputs(wildcards):
    run = _daemons_run(wildcards)
    return {
        "workload": f"{DAEMONS_RESULTS}/workloads/{run.workload_path}.json",
        "daemons": f"{DAEMONS_RESULTS}/daemons/platform={run.platform}/cost={number(run.cpu_s_per_gb)}.json",
    }


BURST = EXP.burst_buffers
BURST_RESULTS = f"{RESULTS}/burst_buffers"
BURST_DIR = workdir_relative(str(EXP.burst_buffers_dir)) if BURST else ""


def burst_buffers_outputs():
    """The burst-buffers scheduling artifact's files (rules/burst_buffers.smk), or none."""
    if not BURST:
        return []
    return [f"{BURST_DIR}/burst_buffers.png", f"{BURST_DIR}/burst_buffers_plotted.csv", f"{BURST_DIR}/report.md"]


def _burst_run(wildcards):
    return BurstRun.from_path(wildcards.burst)


def _burst_inputs(wildcards):
    run = _burst_run(wildcards)
    inputs = {
        "workload": f"{BURST_RESULTS}/workloads/{run.workload_path}.json",
        "platform": f"{BURST_RESULTS}/platforms/{run.platform_path}.xml",
    }
    if run.staging_servers > 0:
        inputs["layer"] = f"{BURST_RESULTS}/staging_layer.json"
    return inputs


PLACEMENT = EXP.placement_gap
PLACEMENT_DIR = workdir_relative(str(EXP.placement_gap_dir)) if PLACEMENT else ""


def placement_gap_outputs():
    """The allocators-against-the-optimum artifact's files (rules/placement.smk), or none."""
    if not PLACEMENT:
        return []
    return [f"{PLACEMENT_DIR}/placement_gap.png", f"{PLACEMENT_DIR}/placement_gap_plotted.csv", f"{PLACEMENT_DIR}/report.md"]


SEED002 = EXP.seed002_twins
SEED002_RESULTS = f"{RESULTS}/seed002_twins"
SEED002_DIR = workdir_relative(str(EXP.seed002_twins_dir)) if SEED002 else ""


def seed002_twins_outputs():
    """Seed 002's artifact files (rules/seed002.smk), or none when not configured."""
    if not SEED002:
        return []
    return [
        f"{SEED002_DIR}/seed002_twins.png",
        f"{SEED002_DIR}/seed002_twins_ifer.png",
        f"{SEED002_DIR}/seed002_twins_sizes.png",
        f"{SEED002_DIR}/seed002_twins_plotted.csv",
        f"{SEED002_DIR}/seed002_twins_scheduling.csv",
        f"{SEED002_DIR}/report.md",
    ]


def seed002_scheduling_runs():
    """One row file per configuration x seed of seed 002's scheduling section (none if unset)."""
    spec = SEED002.scheduling if SEED002 else None
    if spec is None:
        return []
    return [f"{SEED002_RESULTS}/scheduling/configuration={c}/seed={s}/runs.csv" for c, s in spec.runs()]


SEED003 = EXP.seed003_qos
SEED003_RESULTS = f"{RESULTS}/seed003_qos"
SEED003_DIR = workdir_relative(str(EXP.seed003_qos_dir)) if SEED003 else ""


def seed003_qos_outputs():
    """Seed 003's artifact files (rules/seed003.smk), or none when not configured."""
    if not SEED003:
        return []
    return [f"{SEED003_DIR}/seed003_qos.png", f"{SEED003_DIR}/seed003_qos_plotted.csv", f"{SEED003_DIR}/report.md"]


SEED004 = EXP.seed004_interference
SEED004_RESULTS = f"{RESULTS}/seed004_interference"
SEED004_DIR = workdir_relative(str(EXP.seed004_interference_dir)) if SEED004 else ""


def seed004_interference_outputs():
    """Seed 004's artifact files (rules/seed004.smk), or none when not configured."""
    if not SEED004:
        return []
    return [
        f"{SEED004_DIR}/seed004_interference.png",
        f"{SEED004_DIR}/seed004_fig5.png",
        f"{SEED004_DIR}/seed004_fig6.png",
        f"{SEED004_DIR}/seed004_interference_plotted.csv",
        f"{SEED004_DIR}/report.md",
    ]


SEED001 = EXP.seed001_workflows
SEED001_RESULTS = f"{RESULTS}/seed001_workflows"
SEED001_DIR = workdir_relative(str(EXP.seed001_workflows_dir)) if SEED001 else ""


SEED001_WF = EXP.seed001_wfcommons
SEED001_WF_RESULTS = f"{RESULTS}/seed001_wfcommons"
SEED001_WF_DIR = workdir_relative(str(EXP.seed001_wfcommons_dir)) if SEED001_WF else ""


def seed001_wfcommons_outputs():
    """Seed 001 on WfCommons shapes (rules/seed001.smk), or none when not configured."""
    if not SEED001_WF:
        return []
    return [f"{SEED001_WF_DIR}/seed001_wfcommons.png", f"{SEED001_WF_DIR}/seed001_wfcommons_plotted.csv",
            f"{SEED001_WF_DIR}/report.md"]  # fmt: skip


SEED001_PC = EXP.seed001_pagecache
SEED001_PC_RESULTS = f"{RESULTS}/seed001_pagecache"
SEED001_PC_DIR = workdir_relative(str(EXP.seed001_pagecache_dir)) if SEED001_PC else ""


def seed001_pagecache_outputs():
    """Seed 001's Tables 1-3 artifact files (rules/seed001.smk), or none when not configured."""
    if not SEED001_PC:
        return []
    return [f"{SEED001_PC_DIR}/seed001_tables1-3.png", f"{SEED001_PC_DIR}/seed001_tables1-3_plotted.csv",
            f"{SEED001_PC_DIR}/report.md"]  # fmt: skip


def seed001_workflows_outputs():
    """Seed 001's Table 4 artifact files (rules/seed001.smk), or none when not configured."""
    if not SEED001:
        return []
    return [f"{SEED001_DIR}/seed001_table4.png", f"{SEED001_DIR}/seed001_table4_plotted.csv",
            f"{SEED001_DIR}/seed001_fig8_fig9_timelines.png", f"{SEED001_DIR}/seed001_table4_model.png",
            f"{SEED001_DIR}/seed001_table4_model_plotted.csv", f"{SEED001_DIR}/report.md"]  # fmt: skip


FIG7 = EXP.seed000_fig7
FIG7_RESULTS = f"{RESULTS}/seed000_fig7"
FIG7_DIR = workdir_relative(str(EXP.seed000_fig7_dir)) if FIG7 else ""
FIG10 = EXP.seed000_fig10
FIG10_RESULTS = f"{RESULTS}/seed000_fig10"
FIG10_DIR = workdir_relative(str(EXP.seed000_fig10_dir)) if FIG10 else ""
ABSTRACT = EXP.seed000_abstract
ABSTRACT_DIR = workdir_relative(str(EXP.seed000_abstract_dir)) if ABSTRACT else ""


def seed000_fig7_outputs():
    """Seed 000 Figure 7's artifact files, or none when not configured."""
    if not FIG7:
        return []
    return [f"{FIG7_DIR}/seed000_fig7.png", f"{FIG7_DIR}/seed000_fig7_plotted.csv", f"{FIG7_DIR}/report.md"]


def seed000_fig10_outputs():
    """Seed 000 Figure 10's artifact files, or none when not configured."""
    if not FIG10:
        return []
    return [f"{FIG10_DIR}/seed000_fig10.png", f"{FIG10_DIR}/seed000_fig10_plotted.csv", f"{FIG10_DIR}/report.md"]


def seed000_abstract_outputs():
    """The abstract's headline claims judged from Figure 6's numbers, or none."""
    if not ABSTRACT or not FIG6:
        return []
    return [f"{ABSTRACT_DIR}/report.md"]


def _fig8_workload(wildcards):
    run = Fig8Run.from_path(wildcards.fig8)
    return f"{FIG8_RESULTS}/workloads/{run.workload_path}.json"


def _fig8_platform(wildcards):
    return str(FIG8.platforms[Fig8Run.from_path(wildcards.fig8).topology])


def _fig9_unified_platform(wildcards):
    fields = path_fields(wildcards.fig9w)
    return f"{FIG9_RESULTS}/platforms/topology={fields['topology']}/mode=unified/servers={fields['servers']}.xml"


def _fig9_catalog_platform(wildcards):
    fields = path_fields(wildcards.fig9p)
    return str(catalog_path(f"{FIG9.topologies[fields['topology']]}-{fields['mode']}"))


def _fig9_inputs(wildcards):
    run = Fig9Run.from_path(wildcards.fig9)
    return {
        "workload": f"{FIG9_RESULTS}/workloads/{run.workload_path}.json",
        "platform": f"{FIG9_RESULTS}/platforms/{run.platform_path}.xml",
    }


onsuccess:
    for folder, outputs in (
        (ARTIFACTS, policies_on_traces_outputs()),
        (FIG6_DIR, seed000_fig6_outputs()),
        (FIG8_DIR, seed000_fig8_outputs()),
        (FIG9_DIR, seed000_fig9_outputs()),
        (PLACEMENT_DIR, placement_gap_outputs()),
        (DAEMONS_DIR, daemons_on_nodes_outputs()),
        (BURST_DIR, burst_buffers_outputs()),
        (SEED002_DIR, seed002_twins_outputs()),
        (SEED003_DIR, seed003_qos_outputs()),
        (SEED004_DIR, seed004_interference_outputs()),
        (SEED001_DIR, seed001_workflows_outputs()),
        (SEED001_WF_DIR, seed001_wfcommons_outputs()),
        (SEED001_PC_DIR, seed001_pagecache_outputs()),
        (FIG7_DIR, seed000_fig7_outputs()),
        (FIG10_DIR, seed000_fig10_outputs()),
        (ABSTRACT_DIR, seed000_abstract_outputs()),
    ):
        if outputs and all(os.path.exists(p) for p in outputs):
            print(f"\ndatasched: artifact '{EXP.variant}' is ready in {folder}")
            for path in outputs:
                print(f"  {path}")


# Full variants that accumulate (rules/accumulate.smk, analysis/accumulate.py).
def accumulates(name):
    return name in EXP.accumulate


def _accumulating(name):
    """(artifact description, spec, folder relative to the working directory)."""
    art = accumulating_artifact(name)
    return art, art.spec(EXP), workdir_relative(str(art.folder(EXP)))


def committed_summaries(name):
    """The artifact's input when it accumulates: a stamp listing the committed summaries and a
    digest of each (rewritten only when that changes, as spec stamps are). Not the summary files
    themselves: as inputs they would bring their producing jobs into the artifact's graph, and
    Snakemake would rerun a committed unit's simulation whenever its missing intermediate files
    have newer inputs (a fresh clone's spec stamp, a workload generated since)."""
    if not accumulates(name):
        return []
    art, spec, folder = _accumulating(name)
    listing = {}
    for unit in art.accumulating.units(spec):
        path = summary_path(folder, unit)
        if path.is_file():
            listing[unit] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return [spec_stamp(f"{name}-summaries", listing)]


def missing_summaries(name):
    """The planned summaries not committed yet, in run order (the `<NAME>_runs` targets). Only
    the missing ones: a committed one in the graph could rerun its simulation (see above);
    summaries of an edited config are remade by `datasched reproduce --only`, which forces them."""
    if not accumulates(name):
        return []
    art, spec, folder = _accumulating(name)
    paths = (summary_path(folder, unit) for unit in art.accumulating.ordered_units(spec))
    return [str(p) for p in paths if not p.is_file()]


def summary_digest(name):
    art = accumulating_artifact(name)
    spec = art.spec(EXP)
    return spec_digest(spec, REPO_ROOT) if spec is not None else ""


# report.html beside every report.md (rules/report_pages.smk, analysis/report_html.py)
def report_pages_inputs():
    """Every report.md of this variant's artifacts, and the plotted CSVs its page draws."""
    outputs = [
        *policies_on_traces_outputs(),
        *seed000_fig6_outputs(),
        *seed000_fig8_outputs(),
        *seed000_fig9_outputs(),
        *placement_gap_outputs(),
        *daemons_on_nodes_outputs(),
        *burst_buffers_outputs(),
        *seed002_twins_outputs(),
        *seed003_qos_outputs(),
        *seed004_interference_outputs(),
        *seed001_workflows_outputs(),
        *seed001_wfcommons_outputs(),
        *seed001_pagecache_outputs(),
        *seed000_fig7_outputs(),
        *seed000_fig10_outputs(),
        *seed000_abstract_outputs(),
    ]
    return sorted({o for o in outputs if o.endswith(".md") or o.endswith("_plotted.csv")})


def report_pages_outputs():
    return sorted({os.path.join(os.path.dirname(o), "report.html") for o in report_pages_inputs() if o.endswith(".md")})
