# Full variants that accumulate (analysis/accumulate.py, docs/cluster.md): for each artifact
# named under `accumulate:` in the config, every simulation job's summary is written under
# the artifact's folder, runs/<unit>.json (committed), and the artifact is drawn from the
# summaries present (listed in a stamp file, so that committed units never rerun). `datasched reproduce --full --only NAME --max-cpu-hours H` asks for the
# next slice of summaries; the `<NAME>_runs` targets below ask for all of them.
import hashlib

from datasched.analysis.accumulate import spec_digest, summary_path
from datasched.analysis.accumulating_artifacts import artifact as accumulating_artifact
from datasched.analysis.experiment_config import REPO_ROOT


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


# Local rules: a summary is a few lines read from a finished job's output (on a cluster, a
# second Slurm job per simulation would double the queueing for nothing).
localrules:
    seed000_fig8_summary,
    seed000_fig9_summary,
    seed004_interference_summary,


rule seed000_fig8_summary:
    input:
        result=f"{FIG8_RESULTS}/sims/{{fig8}}/out_jobs.csv",
        cost=f"{FIG8_RESULTS}/sims/{{fig8}}/cost.json",
    output:
        f"{FIG8_DIR}/runs/{{fig8}}.json",
    params:
        artifact="seed000_fig8",
        unit=lambda wildcards: wildcards.fig8,
        digest=summary_digest("seed000_fig8") if FIG8 else "",
    script:
        "scripts/accumulate_summary.py"


rule seed000_fig9_summary:
    input:
        result=f"{FIG9_RESULTS}/sims/{{fig9}}/out_jobs.csv",
        cost=f"{FIG9_RESULTS}/sims/{{fig9}}/cost.json",
    output:
        f"{FIG9_DIR}/runs/{{fig9}}.json",
    params:
        artifact="seed000_fig9",
        unit=lambda wildcards: wildcards.fig9,
        digest=summary_digest("seed000_fig9") if FIG9 else "",
    script:
        "scripts/accumulate_summary.py"


rule seed004_interference_summary:
    input:
        result=f"{SEED004_RESULTS}/cases/{{seed004}}/runs.csv",
        cost=f"{SEED004_RESULTS}/cases/{{seed004}}/cost.json",
    output:
        f"{SEED004_DIR}/runs/{{seed004}}.json",
    params:
        artifact="seed004_interference",
        unit=lambda wildcards: wildcards.seed004,
        digest=summary_digest("seed004_interference") if SEED004 else "",
    script:
        "scripts/accumulate_summary.py"


rule seed000_fig8_runs:
    input:
        missing_summaries("seed000_fig8"),


rule seed000_fig9_runs:
    input:
        missing_summaries("seed000_fig9"),


rule seed004_interference_runs:
    input:
        missing_summaries("seed004_interference"),
