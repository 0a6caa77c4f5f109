# Seed 000 artifacts (analysis/seed000_fig6.py): one workload and one simulation per
# variant, then the figure, its plotted numbers and the report. FIG6, FIG6_RESULTS,
# FIG6_DIR and seed000_fig6_outputs() are in rules/common.smk.


wildcard_constraints:
    fig6=r"storage=[a-z0-9-]+/mem=[0-9.]+/remote=[0-9.]+/access=[DA]",


localrules:
    seed000_fig6_workload,
    seed000_fig6_artifact,


rule seed000_fig6_workload:
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
