# Scheduling with burst buffers in front of the SAN (analysis/burst_buffers/): one platform per
# system and number of staging servers, one workload per system and seed, one staging-layer
# file, one simulation per (platform, allocation, staging servers, seed), then the figure,
# plotted numbers and report. BURST*, burst_buffers_outputs() and the input functions are in
# rules/common.smk; the summaries of an accumulating full variant in rules/accumulate.smk.


wildcard_constraints:
    burstp=r"platform=[A-Za-z0-9_-]+/servers=[0-9]+",
    burstw=r"platform=[A-Za-z0-9_-]+/seed=[0-9]+",
    burst=r"platform=[A-Za-z0-9_-]+/allocation=[a-z_]+/servers=[0-9]+/seed=[0-9]+",


localrules:
    burst_buffers_platform,
    burst_buffers_workload,
    burst_buffers_layer,
    burst_buffers_artifact,


rule burst_buffers_platform:
    input:
        spec_stamp=spec_stamp("burst", BURST),
    output:
        f"{BURST_RESULTS}/platforms/{{burstp}}.xml",
    params:
        spec=BURST,
    log:
        f"{BURST_RESULTS}/logs/platforms/{{burstp}}.log",
    script:
        "scripts/burst_buffers_platform.py"


rule burst_buffers_workload:
    input:
        spec_stamp=spec_stamp("burst", BURST),
        platform=lambda wildcards: f"{BURST_RESULTS}/platforms/{wildcards.burstw.split('/')[0]}/servers=0.xml",
    output:
        f"{BURST_RESULTS}/workloads/{{burstw}}.json",
    params:
        spec=BURST,
    log:
        f"{BURST_RESULTS}/logs/workloads/{{burstw}}.log",
    script:
        "scripts/burst_buffers_workload.py"


rule burst_buffers_layer:
    input:
        spec_stamp=spec_stamp("burst", BURST),
    output:
        f"{BURST_RESULTS}/staging_layer.json",
    params:
        spec=BURST,
    log:
        f"{BURST_RESULTS}/logs/staging_layer.log",
    script:
        "scripts/burst_buffers_layer.py"


rule burst_buffers_simulate:
    input:
        unpack(_burst_inputs),
        spec_stamp=spec_stamp("burst", BURST),
    output:
        jobs=f"{BURST_RESULTS}/sims/{{burst}}/out_jobs.csv",
        cost=f"{BURST_RESULTS}/sims/{{burst}}/cost.json",
    params:
        spec=BURST,
        platform=lambda wildcards, input: input.platform,
        options=lambda wildcards: _burst_run(wildcards).scheduler_options(BURST),
        label=lambda wildcards: f"burst {wildcards.burst}",
        engine_args=lambda wildcards, input: _burst_run(wildcards).engine_args(input.get("layer", "")),
        decision_timeout=EXP.decision_timeout,
    log:
        f"{BURST_RESULTS}/logs/simulate/{{burst}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed000_multiapp_simulate.py"


rule burst_buffers_artifact:
    input:
        spec_stamp=spec_stamp("burst", BURST),
        jobs=[f"{BURST_RESULTS}/sims/{run.path}/out_jobs.csv" for run in BURST.runs()]
        if BURST and not accumulates("burst_buffers")
        else committed_summaries("burst_buffers"),
    output:
        figure=f"{BURST_DIR}/burst_buffers.png",
        plotted=f"{BURST_DIR}/burst_buffers_plotted.csv",
        report=f"{BURST_DIR}/report.md",
    params:
        spec=BURST,
        variant=EXP.variant,
        sims=f"{BURST_RESULTS}/sims",
        accumulate=accumulates("burst_buffers"),
    log:
        f"{BURST_RESULTS}/logs/artifact.log",
    script:
        "scripts/burst_buffers_artifact.py"
