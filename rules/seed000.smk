# Seed 000 artifacts (analysis/seed000/fig6/, analysis/seed000/fig8/): workloads,
# one simulation per variant, then the figure, its plotted numbers and the report. FIG6*,
# FIG8* and seed000_fig{6,8}_outputs() are in rules/common.smk.


wildcard_constraints:
    fig6=r"storage=[a-z0-9-]+/mem=[0-9.]+/remote=[0-9.]+/access=(D|A|As)",
    fig8w=r"topology=[A-Za-z0-9_-]+/seed=[0-9]+",
    fig8=r"topology=[A-Za-z0-9_-]+/storage=[a-z]+-[DAL]/seed=[0-9]+",
    fig9p=r"topology=[A-Za-z0-9_-]+/mode=(unified|san)/servers=[0-9]+",
    fig9w=r"topology=[A-Za-z0-9_-]+/staging=[a-z_]+/servers=[0-9]+/seed=[0-9]+",
    fig9=r"topology=[A-Za-z0-9_-]+/series=(I-A|Cache|SAN)/staging=[a-z_]+/servers=[0-9]+/seed=[0-9]+",


localrules:
    seed000_fig6_workload,
    seed000_fig6_artifact,
    seed000_fig8_workload,
    seed000_fig8_artifact,
    seed000_fig9_platform,
    seed000_fig9_workload,
    seed000_fig9_artifact,


rule seed000_fig6_workload:
    input:
        spec_stamp=spec_stamp("fig6", FIG6),
    output:
        f"{FIG6_RESULTS}/workloads/{{fig6}}.json",
    params:
        spec=FIG6,
    log:
        f"{FIG6_RESULTS}/logs/workloads/{{fig6}}.log",
    script:
        "scripts/seed000_fig6_workload.py"


rule seed000_fig6_simulate:
    input:
        workload=rules.seed000_fig6_workload.output[0],
        # the platform file itself: a regenerated catalog (e.g. another routing) reruns the sims
        platform=str(FIG6.platform) if FIG6 else [],
    output:
        jobs=f"{FIG6_RESULTS}/sims/{{fig6}}/out_jobs.csv",
    params:
        platform=str(FIG6.platform) if FIG6 else "",
        traffic_policy=FIG6.traffic_policy if FIG6 else "np",
        decision_timeout=EXP.decision_timeout,
    log:
        f"{FIG6_RESULTS}/logs/simulate/{{fig6}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed000_fig6_simulate.py"


rule seed000_fig6_artifact:
    input:
        spec_stamp=spec_stamp("fig6", FIG6),
        jobs=[f"{FIG6_RESULTS}/sims/{run.path}/out_jobs.csv" for run in FIG6.runs()] if FIG6 else [],
    output:
        figure=f"{FIG6_DIR}/seed000_fig6.png",
        plotted=f"{FIG6_DIR}/seed000_fig6_plotted.csv",
        report=f"{FIG6_DIR}/report.md",
    params:
        spec=FIG6,
        variant=EXP.variant,
        sims=f"{FIG6_RESULTS}/sims",
    log:
        f"{FIG6_RESULTS}/logs/artifact.log",
    script:
        "scripts/seed000_fig6_artifact.py"


rule seed000_fig8_workload:
    input:
        spec_stamp=spec_stamp("fig8", FIG8),
    output:
        f"{FIG8_RESULTS}/workloads/{{fig8w}}.json",
    params:
        spec=FIG8,
    log:
        f"{FIG8_RESULTS}/logs/workloads/{{fig8w}}.log",
    script:
        "scripts/seed000_fig8_workload.py"


rule seed000_fig8_simulate:
    input:
        spec_stamp=spec_stamp("fig8", FIG8),
        workload=_fig8_workload,
        platform=_fig8_platform,
    output:
        jobs=f"{FIG8_RESULTS}/sims/{{fig8}}/out_jobs.csv",
        cost=f"{FIG8_RESULTS}/sims/{{fig8}}/cost.json",
    params:
        spec=FIG8,
        platform=_fig8_platform,
        options=lambda wildcards: Fig8Run.from_path(wildcards.fig8).scheduler_options(FIG8),
        label=lambda wildcards: f"fig8 {wildcards.fig8}",
        decision_timeout=EXP.decision_timeout,
    log:
        f"{FIG8_RESULTS}/logs/simulate/{{fig8}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed000_multiapp_simulate.py"


rule seed000_fig8_artifact:
    input:
        spec_stamp=spec_stamp("fig8", FIG8),
        jobs=[f"{FIG8_RESULTS}/sims/{run.path}/out_jobs.csv" for run in FIG8.runs()]
        if FIG8 and not accumulates("seed000_fig8")
        else committed_summaries("seed000_fig8"),
    output:
        figure=f"{FIG8_DIR}/seed000_fig8.png",
        plotted=f"{FIG8_DIR}/seed000_fig8_plotted.csv",
        report=f"{FIG8_DIR}/report.md",
    params:
        spec=FIG8,
        variant=EXP.variant,
        sims=f"{FIG8_RESULTS}/sims",
        accumulate=accumulates("seed000_fig8"),
    log:
        f"{FIG8_RESULTS}/logs/artifact.log",
    script:
        "scripts/seed000_fig8_artifact.py"


rule seed000_fig9_platform:
    input:
        spec_stamp=spec_stamp("fig9", FIG9),
        # the catalog entry it varies: a regenerated catalog (e.g. another routing) regenerates it
        catalog=_fig9_catalog_platform,
    output:
        f"{FIG9_RESULTS}/platforms/{{fig9p}}.xml",
    params:
        spec=FIG9,
    log:
        f"{FIG9_RESULTS}/logs/platforms/{{fig9p}}.log",
    script:
        "scripts/seed000_fig9_platform.py"


rule seed000_fig9_workload:
    input:
        spec_stamp=spec_stamp("fig9", FIG9),
        platform=_fig9_unified_platform,
    output:
        f"{FIG9_RESULTS}/workloads/{{fig9w}}.json",
    params:
        spec=FIG9,
    log:
        f"{FIG9_RESULTS}/logs/workloads/{{fig9w}}.log",
    script:
        "scripts/seed000_fig9_workload.py"


rule seed000_fig9_simulate:
    input:
        unpack(_fig9_inputs),
        spec_stamp=spec_stamp("fig9", FIG9),
    output:
        jobs=f"{FIG9_RESULTS}/sims/{{fig9}}/out_jobs.csv",
        cost=f"{FIG9_RESULTS}/sims/{{fig9}}/cost.json",
    params:
        spec=FIG9,
        platform=lambda wildcards, input: input.platform,
        options=lambda wildcards: Fig9Run.from_path(wildcards.fig9).scheduler_options(FIG9),
        label=lambda wildcards: f"fig9 {wildcards.fig9}",
        decision_timeout=EXP.decision_timeout,
    log:
        f"{FIG9_RESULTS}/logs/simulate/{{fig9}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed000_multiapp_simulate.py"


rule seed000_fig9_artifact:
    input:
        spec_stamp=spec_stamp("fig9", FIG9),
        jobs=[f"{FIG9_RESULTS}/sims/{run.path}/out_jobs.csv" for run in FIG9.runs()]
        if FIG9 and not accumulates("seed000_fig9")
        else committed_summaries("seed000_fig9"),
    output:
        figure=f"{FIG9_DIR}/seed000_fig9.png",
        plotted=f"{FIG9_DIR}/seed000_fig9_plotted.csv",
        report=f"{FIG9_DIR}/report.md",
    params:
        spec=FIG9,
        variant=EXP.variant,
        sims=f"{FIG9_RESULTS}/sims",
        accumulate=accumulates("seed000_fig9"),
    log:
        f"{FIG9_RESULTS}/logs/artifact.log",
    script:
        "scripts/seed000_fig9_artifact.py"
