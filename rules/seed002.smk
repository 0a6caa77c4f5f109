# Seed 002 (TWINS) artifact (analysis/seed002/): one job per test (every
# configuration x seed of one access pattern, operation, request size, HDD alpha and seek
# scale, or one IFER offset), then the figures (makespans, IFER against dt, request sizes),
# the plotted numbers and the report. SEED002* and seed002_twins_outputs() are in
# rules/common.smk. The scheduling section (EASY on a Markov
# phase workload through the forwarding layer, analysis/seed002/scheduling.py): one job per
# configuration x seed. Both kinds of job are the units of the full variant, which accumulates
# (rules/accumulate.smk, analysis/seed002/units.py).


wildcard_constraints:
    seed002=r"kind=(single|ifer)/pattern=[a-z_]+/op=(read|write)/size=[0-9]+/alpha=[0-9.e+-]+(/seek=[0-9.e+-]+)?(/cache=[a-z0-9-]+)?/dt=[0-9.e+-]+",
    seed002_configuration=r"[a-z0-9-]+",
    seed002_seed=r"[0-9]+",


localrules:
    seed002_twins_artifact,


rule seed002_twins_case:
    input:
        spec_stamp=spec_stamp("seed002", SEED002),
    output:
        runs=f"{SEED002_RESULTS}/cases/{{seed002}}/runs.csv",
        cost=f"{SEED002_RESULTS}/cases/{{seed002}}/cost.json",
    params:
        spec=SEED002,
        platform="platforms/catalog/seed002-forwarding.xml",
    log:
        f"{SEED002_RESULTS}/logs/cases/{{seed002}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed002_case.py"


rule seed002_twins_scheduling_run:
    input:
        spec_stamp=spec_stamp("seed002", SEED002),
    output:
        run=f"{SEED002_RESULTS}/scheduling/configuration={{seed002_configuration}}/seed={{seed002_seed}}/runs.csv",
        cost=f"{SEED002_RESULTS}/scheduling/configuration={{seed002_configuration}}/seed={{seed002_seed}}/cost.json",
    params:
        spec=SEED002,
        platform="platforms/catalog/seed002-forwarding.xml",
    log:
        f"{SEED002_RESULTS}/logs/scheduling/{{seed002_configuration}}-{{seed002_seed}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed002_scheduling_run.py"


rule seed002_twins_artifact:
    input:
        spec_stamp=spec_stamp("seed002", SEED002),
        runs=[f"{SEED002_RESULTS}/cases/{case.path}/runs.csv" for case in SEED002.cases()]
        if SEED002 and not accumulates("seed002_twins")
        else committed_summaries("seed002_twins"),
        scheduling=seed002_scheduling_runs() if not accumulates("seed002_twins") else [],
    output:
        figure=f"{SEED002_DIR}/seed002_twins.png",
        ifer=f"{SEED002_DIR}/seed002_twins_ifer.png",
        sizes=f"{SEED002_DIR}/seed002_twins_sizes.png",
        plotted=f"{SEED002_DIR}/seed002_twins_plotted.csv",
        scheduling=f"{SEED002_DIR}/seed002_twins_scheduling.csv",
        report=f"{SEED002_DIR}/report.md",
    params:
        spec=SEED002,
        variant=EXP.variant,
        sims=SEED002_RESULTS,
        accumulate=accumulates("seed002_twins"),
    log:
        f"{SEED002_RESULTS}/logs/artifact.log",
    script:
        "scripts/seed002_artifact.py"
