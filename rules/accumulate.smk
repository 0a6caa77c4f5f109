# Full variants that accumulate (analysis/accumulate.py, docs/cluster.md): for each artifact
# named under `accumulate:` in the config, every simulation job's summary is written under
# the artifact's folder, runs/<unit>.json (committed), and the artifact is drawn from the
# summaries present (listed in a stamp file, so that committed units never rerun).
# `datasched reproduce --full --only NAME --max-cpu-hours H` asks for the next slice of
# summaries; the `<NAME>_runs` targets below ask for all of them. Their functions
# (committed_summaries, missing_summaries, summary_digest) are in rules/common.smk.


# Local rules: a summary is a few lines read from a finished job's output (on a cluster, a
# second Slurm job per simulation would double the queueing for nothing).
localrules:
    seed000_fig8_summary,
    daemons_on_nodes_summary,
    burst_buffers_summary,
    seed000_fig9_summary,
    seed000_fig7_summary,
    seed000_fig10_summary,
    seed004_interference_summary,
    seed002_twins_case_summary,
    seed002_twins_scheduling_summary,


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
    log:
        f"{FIG8_RESULTS}/logs/summaries/{{fig8}}.log",
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
    log:
        f"{FIG9_RESULTS}/logs/summaries/{{fig9}}.log",
    script:
        "scripts/accumulate_summary.py"


rule seed000_fig7_summary:
    input:
        result=f"{FIG7_RESULTS}/sims/{{fig7}}/out_jobs.csv",
        cost=f"{FIG7_RESULTS}/sims/{{fig7}}/cost.json",
    output:
        f"{FIG7_DIR}/runs/{{fig7}}.json",
    params:
        artifact="seed000_fig7",
        unit=lambda wildcards: wildcards.fig7,
        digest=summary_digest("seed000_fig7") if FIG7 else "",
    log:
        f"{FIG7_RESULTS}/logs/summaries/{{fig7}}.log",
    script:
        "scripts/accumulate_summary.py"


rule seed000_fig10_summary:
    input:
        result=f"{FIG10_RESULTS}/sims/{{fig10}}/out_jobs.csv",
        cost=f"{FIG10_RESULTS}/sims/{{fig10}}/cost.json",
    output:
        f"{FIG10_DIR}/runs/{{fig10}}.json",
    params:
        artifact="seed000_fig10",
        unit=lambda wildcards: wildcards.fig10,
        digest=summary_digest("seed000_fig10") if FIG10 else "",
    log:
        f"{FIG10_RESULTS}/logs/summaries/{{fig10}}.log",
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
    log:
        f"{SEED004_RESULTS}/logs/summaries/{{seed004}}.log",
    script:
        "scripts/accumulate_summary.py"


rule seed002_twins_case_summary:
    input:
        result=f"{SEED002_RESULTS}/cases/{{seed002}}/runs.csv",
        cost=f"{SEED002_RESULTS}/cases/{{seed002}}/cost.json",
    output:
        f"{SEED002_DIR}/runs/cases/{{seed002}}.json",
    params:
        artifact="seed002_twins",
        unit=lambda wildcards: f"cases/{wildcards.seed002}",
        digest=summary_digest("seed002_twins") if SEED002 else "",
    log:
        f"{SEED002_RESULTS}/logs/summaries/cases/{{seed002}}.log",
    script:
        "scripts/accumulate_summary.py"


rule seed002_twins_scheduling_summary:
    input:
        result=f"{SEED002_RESULTS}/scheduling/configuration={{seed002_configuration}}/seed={{seed002_seed}}/runs.csv",
        cost=f"{SEED002_RESULTS}/scheduling/configuration={{seed002_configuration}}/seed={{seed002_seed}}/cost.json",
    output:
        f"{SEED002_DIR}/runs/scheduling/configuration={{seed002_configuration}}/seed={{seed002_seed}}.json",
    params:
        artifact="seed002_twins",
        unit=lambda wildcards: f"scheduling/configuration={wildcards.seed002_configuration}/seed={wildcards.seed002_seed}",
        digest=summary_digest("seed002_twins") if SEED002 else "",
    log:
        f"{SEED002_RESULTS}/logs/summaries/scheduling/{{seed002_configuration}}-{{seed002_seed}}.log",
    script:
        "scripts/accumulate_summary.py"


rule daemons_on_nodes_summary:
    input:
        result=f"{DAEMONS_RESULTS}/sims/{{daemons}}/out_jobs.csv",
        cost=f"{DAEMONS_RESULTS}/sims/{{daemons}}/cost.json",
    output:
        f"{DAEMONS_DIR}/runs/{{daemons}}.json",
    params:
        artifact="daemons_on_nodes",
        unit=lambda wildcards: wildcards.daemons,
        digest=summary_digest("daemons_on_nodes") if DAEMONS else "",
    log:
        f"{DAEMONS_RESULTS}/logs/summaries/{{daemons}}.log",
    script:
        "scripts/accumulate_summary.py"


rule burst_buffers_summary:
    input:
        result=f"{BURST_RESULTS}/sims/{{burst}}/out_jobs.csv",
        cost=f"{BURST_RESULTS}/sims/{{burst}}/cost.json",
    output:
        f"{BURST_DIR}/runs/{{burst}}.json",
    params:
        artifact="burst_buffers",
        unit=lambda wildcards: wildcards.burst,
        digest=summary_digest("burst_buffers") if BURST else "",
    log:
        f"{BURST_RESULTS}/logs/summaries/{{burst}}.log",
    script:
        "scripts/accumulate_summary.py"


rule burst_buffers_runs:
    input:
        missing_summaries("burst_buffers"),


rule daemons_on_nodes_runs:
    input:
        missing_summaries("daemons_on_nodes"),


rule seed000_fig8_runs:
    input:
        missing_summaries("seed000_fig8"),


rule seed000_fig9_runs:
    input:
        missing_summaries("seed000_fig9"),


rule seed004_interference_runs:
    input:
        missing_summaries("seed004_interference"),


rule seed000_fig7_runs:
    input:
        missing_summaries("seed000_fig7"),


rule seed000_fig10_runs:
    input:
        missing_summaries("seed000_fig10"),


rule seed002_twins_runs:
    input:
        missing_summaries("seed002_twins"),
