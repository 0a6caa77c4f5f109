# Stage 4: tidy tables of per-run metrics and their summary over seeds; Gantt charts.


rule policies_on_traces_tables:
    input:
        jobs=[sim_path(run, "out_jobs.csv") for run in EXP.all_runs()],
    output:
        runs=f"{RESULTS}/tables/policies_on_traces_runs.csv",
        summary=f"{RESULTS}/tables/policies_on_traces_summary.csv",
    params:
        nodes={name: trace.nodes for name, trace in EXP.traces.items()},
        torus_dims=torus_dims_by_trace(),
    log:
        f"{RESULTS}/logs/tables/policies_on_traces.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "scripts/tables.py"


rule gantt:
    input:
        jobs=f"{RESULTS}/sims/trace={{trace}}/policy={{policy}}/allocation={{allocation}}/seed={{seed}}/out_jobs.csv",
    output:
        f"{ARTIFACTS}/gantt/{{trace}}_{{policy}}_{{allocation}}_seed-{{seed}}.png",
    log:
        f"{RESULTS}/logs/gantt/{{trace}}_{{policy}}_{{allocation}}_{{seed}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "scripts/gantt.py"
