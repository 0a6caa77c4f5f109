# Seed 004 (storage daemons on compute nodes) artifact (analysis/seed004/):
# one job per node model x HPL size x configuration (every placement, daemon cost and seed
# of it), then the figure, its plotted numbers and the report. SEED004* and
# seed004_interference_outputs() are in rules/common.smk.


wildcard_constraints:
    seed004=r"model=[A-Za-z0-9.+-]+/n=[0-9]+/config=[a-z-]+",


localrules:
    seed004_interference_artifact,


rule seed004_interference_case:
    input:
        spec_stamp=spec_stamp("seed004", SEED004),
    output:
        runs=f"{SEED004_RESULTS}/cases/{{seed004}}/runs.csv",
        cost=f"{SEED004_RESULTS}/cases/{{seed004}}/cost.json",
    params:
        spec=SEED004,
    log:
        f"{SEED004_RESULTS}/logs/cases/{{seed004}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed004_case.py"


rule seed004_interference_artifact:
    input:
        spec_stamp=spec_stamp("seed004", SEED004),
        runs=[f"{SEED004_RESULTS}/cases/{case.path}/runs.csv" for case in SEED004.cases()]
        if SEED004 and not accumulates("seed004_interference")
        else committed_summaries("seed004_interference"),
    output:
        figure=f"{SEED004_DIR}/seed004_interference.png",
        fig5=f"{SEED004_DIR}/seed004_fig5.png",
        fig6=f"{SEED004_DIR}/seed004_fig6.png",
        plotted=f"{SEED004_DIR}/seed004_interference_plotted.csv",
        report=f"{SEED004_DIR}/report.md",
    params:
        spec=SEED004,
        variant=EXP.variant,
        cases=f"{SEED004_RESULTS}/cases",
        accumulate=accumulates("seed004_interference"),
    log:
        f"{SEED004_RESULTS}/logs/artifact.log",
    script:
        "scripts/seed004_artifact.py"
