# Seed 000's traffic-priority figures and the abstract's headline claims
# (analysis/seed000/fig7/, analysis/seed000/fig10/, analysis/seed000/abstract.py):
# one workload per variant or seed, one simulation per run, then the figure, its plotted numbers
# and the report (from the simulations, or from the committed summaries when the full variant
# accumulates: rules/accumulate.smk). FIG7*, FIG10*, ABSTRACT* and
# seed000_{fig7,fig10,abstract}_outputs() are in rules/common.smk.


wildcard_constraints:
    fig7=r"io=(none|per_task)-[0-9]+/storage=stg-[0-9]+/remote=[0-9.]+/policy=[a-z0-9.-]+/sharing=(activity|flow)",
    fig7w=r"io=(none|per_task)-[0-9]+/storage=stg-[0-9]+/remote=[0-9.]+",
    fig10=r"io=(none|per_task)/topology=[A-Za-z0-9_-]+/policy=[a-z0-9.-]+/seed=[0-9]+",
    fig10w=r"io=(none|per_task)/topology=[A-Za-z0-9_-]+/seed=[0-9]+",


localrules:
    seed000_fig7_workload,
    seed000_fig7_artifact,
    seed000_fig10_workload,
    seed000_fig10_artifact,
    seed000_abstract_report,


rule seed000_fig7_workload:
    input:
        spec_stamp=spec_stamp("fig7", FIG7),
    output:
        f"{FIG7_RESULTS}/workloads/{{fig7w}}.json",
    params:
        spec=FIG7,
    log:
        f"{FIG7_RESULTS}/logs/workloads/{{fig7w}}.log",
    script:
        "scripts/seed000_fig7_workload.py"


rule seed000_fig7_simulate:
    input:
        workload=lambda wildcards: f"{FIG7_RESULTS}/workloads/{Fig7Run.from_path(wildcards.fig7).workload_path}.json",
    output:
        jobs=f"{FIG7_RESULTS}/sims/{{fig7}}/out_jobs.csv",
        cost=f"{FIG7_RESULTS}/sims/{{fig7}}/cost.json",
    params:
        platform=str(FIG7.platform) if FIG7 else "",
        decision_timeout=EXP.decision_timeout,
    log:
        f"{FIG7_RESULTS}/logs/simulate/{{fig7}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed000_fig7_simulate.py"


rule seed000_fig7_artifact:
    input:
        spec_stamp=spec_stamp("fig7", FIG7),
        jobs=[f"{FIG7_RESULTS}/sims/{run.path}/out_jobs.csv" for run in FIG7.runs()]
        if FIG7 and not accumulates("seed000_fig7")
        else committed_summaries("seed000_fig7"),
    output:
        figure=f"{FIG7_DIR}/seed000_fig7.png",
        plotted=f"{FIG7_DIR}/seed000_fig7_plotted.csv",
        report=f"{FIG7_DIR}/report.md",
    params:
        figure="fig7",
        spec=FIG7,
        variant=EXP.variant,
        sims=f"{FIG7_RESULTS}/sims",
        accumulate=accumulates("seed000_fig7"),
    log:
        f"{FIG7_RESULTS}/logs/artifact.log",
    script:
        "scripts/seed000_traffic_artifact.py"


rule seed000_fig10_workload:
    input:
        spec_stamp=spec_stamp("fig10", FIG10),
    output:
        f"{FIG10_RESULTS}/workloads/{{fig10w}}.json",
    params:
        spec=FIG10,
    log:
        f"{FIG10_RESULTS}/logs/workloads/{{fig10w}}.log",
    script:
        "scripts/seed000_fig10_workload.py"


rule seed000_fig10_simulate:
    input:
        spec_stamp=spec_stamp("fig10", FIG10),
        workload=lambda wildcards: f"{FIG10_RESULTS}/workloads/{Fig10Run.from_path(wildcards.fig10).workload_path}.json",
    output:
        jobs=f"{FIG10_RESULTS}/sims/{{fig10}}/out_jobs.csv",
        cost=f"{FIG10_RESULTS}/sims/{{fig10}}/cost.json",
    params:
        spec=FIG10,
        decision_timeout=EXP.decision_timeout,
    log:
        f"{FIG10_RESULTS}/logs/simulate/{{fig10}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed000_fig10_simulate.py"


rule seed000_fig10_artifact:
    input:
        spec_stamp=spec_stamp("fig10", FIG10),
        jobs=[f"{FIG10_RESULTS}/sims/{run.path}/out_jobs.csv" for run in FIG10.runs()]
        if FIG10 and not accumulates("seed000_fig10")
        else committed_summaries("seed000_fig10"),
    output:
        figure=f"{FIG10_DIR}/seed000_fig10.png",
        plotted=f"{FIG10_DIR}/seed000_fig10_plotted.csv",
        report=f"{FIG10_DIR}/report.md",
    params:
        figure="fig10",
        spec=FIG10,
        variant=EXP.variant,
        sims=f"{FIG10_RESULTS}/sims",
        accumulate=accumulates("seed000_fig10"),
    log:
        f"{FIG10_RESULTS}/logs/artifact.log",
    script:
        "scripts/seed000_traffic_artifact.py"


rule seed000_abstract_report:
    input:
        fig6=f"{FIG6_DIR}/seed000_fig6_plotted.csv" if FIG6 else [],
    output:
        report=f"{ABSTRACT_DIR}/report.md",
    params:
        variant=EXP.variant,
    log:
        f"{RESULTS}/seed000_abstract/logs/report.log",
    script:
        "scripts/seed000_abstract_report.py"


rule seed000_fig7:
    input:
        seed000_fig7_outputs(),


rule seed000_fig10:
    input:
        seed000_fig10_outputs(),


rule seed000_abstract:
    input:
        seed000_abstract_outputs(),
