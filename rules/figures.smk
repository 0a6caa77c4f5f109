# Stage 5: the artifacts' figures, their plotted numbers (CSV) and reports.


localrules:
    platform,
    workload,
    policies_on_traces_tables,
    gantt,
    policies_on_traces_figure,
    policies_on_traces_report,


rule policies_on_traces_figure:
    input:
        summary=rules.policies_on_traces_tables.output.summary,
    output:
        figure=f"{ARTIFACTS}/policies_on_traces.png",
        plotted=f"{ARTIFACTS}/policies_on_traces_plotted.csv",
    params:
        traces=list(EXP.policies_on_traces.traces) if EXP.policies_on_traces else [],
        policies=list(EXP.policies_on_traces.policies) if EXP.policies_on_traces else [],
        allocations=list(EXP.policies_on_traces.allocations) if EXP.policies_on_traces else [],
        title=f"Policies on real traces ({EXP.variant})",
    log:
        f"{RESULTS}/logs/figures/policies_on_traces.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "scripts/figure_policies_on_traces.py"


rule policies_on_traces_report:
    input:
        plotted=rules.policies_on_traces_figure.output.plotted,
        figure=rules.policies_on_traces_figure.output.figure,
        runs=rules.policies_on_traces_tables.output.runs,
        workloads=lambda wildcards: [f"{RESULTS}/workloads/{t}.json" for t in EXP.policies_on_traces.traces],
    output:
        f"{ARTIFACTS}/report.md",
    params:
        config_source=CONFIG_SOURCE,
    log:
        f"{RESULTS}/logs/figures/policies_on_traces_report.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "scripts/report_policies_on_traces.py"
