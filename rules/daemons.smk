# Scheduling with storage daemons on the compute nodes (analysis/daemons_on_nodes/): one
# workload per platform and seed, one daemons file per platform and cost, one simulation per
# (platform, allocation, placement, cost, seed), then the figure, plotted numbers and report.
# DAEMONS*, daemons_on_nodes_outputs() and the input functions are in rules/common.smk; the
# summaries of an accumulating full variant in rules/accumulate.smk.


wildcard_constraints:
    daemonsw=r"platform=[A-Za-z0-9_-]+/seed=[0-9]+",
    daemonsf=r"platform=[A-Za-z0-9_-]+/cost=[0-9.e+-]+",
    daemons=r"platform=[A-Za-z0-9_-]+/allocation=[a-z_]+/placement=[a-z_]+/cost=[0-9.e+-]+/seed=[0-9]+",


localrules:
    daemons_on_nodes_workload,
    daemons_on_nodes_daemons_file,
    daemons_on_nodes_artifact,


rule daemons_on_nodes_workload:
    input:
        spec_stamp=spec_stamp("daemons", DAEMONS),
    output:
        f"{DAEMONS_RESULTS}/workloads/{{daemonsw}}.json",
    params:
        spec=DAEMONS,
    log:
        f"{DAEMONS_RESULTS}/logs/workloads/{{daemonsw}}.log",
    script:
        "scripts/daemons_on_nodes_workload.py"


rule daemons_on_nodes_daemons_file:
    input:
        spec_stamp=spec_stamp("daemons", DAEMONS),
    output:
        f"{DAEMONS_RESULTS}/daemons/{{daemonsf}}.json",
    params:
        spec=DAEMONS,
    log:
        f"{DAEMONS_RESULTS}/logs/daemons/{{daemonsf}}.log",
    script:
        "scripts/daemons_on_nodes_daemons_file.py"


rule daemons_on_nodes_simulate:
    input:
        unpack(_daemons_inputs),
        spec_stamp=spec_stamp("daemons", DAEMONS),
    output:
        jobs=f"{DAEMONS_RESULTS}/sims/{{daemons}}/out_jobs.csv",
        cost=f"{DAEMONS_RESULTS}/sims/{{daemons}}/cost.json",
    params:
        spec=DAEMONS,
        platform=lambda wildcards: str(DAEMONS.platforms[_daemons_run(wildcards).platform]),
        options=lambda wildcards: _daemons_run(wildcards).scheduler_options(),
        label=lambda wildcards: f"daemons {wildcards.daemons}",
        engine_args=lambda wildcards, input: ["--storage-daemons", input.daemons]
        if _daemons_run(wildcards).cpu_s_per_gb > 0
        else [],
        decision_timeout=EXP.decision_timeout,
    log:
        f"{DAEMONS_RESULTS}/logs/simulate/{{daemons}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed000_multiapp_simulate.py"


rule daemons_on_nodes_artifact:
    input:
        spec_stamp=spec_stamp("daemons", DAEMONS),
        jobs=[f"{DAEMONS_RESULTS}/sims/{run.path}/out_jobs.csv" for run in DAEMONS.runs()]
        if DAEMONS and not accumulates("daemons_on_nodes")
        else committed_summaries("daemons_on_nodes"),
    output:
        figure=f"{DAEMONS_DIR}/daemons_on_nodes.png",
        plotted=f"{DAEMONS_DIR}/daemons_on_nodes_plotted.csv",
        report=f"{DAEMONS_DIR}/report.md",
    params:
        spec=DAEMONS,
        variant=EXP.variant,
        sims=f"{DAEMONS_RESULTS}/sims",
        accumulate=accumulates("daemons_on_nodes"),
    log:
        f"{DAEMONS_RESULTS}/logs/artifact.log",
    script:
        "scripts/daemons_on_nodes_artifact.py"
