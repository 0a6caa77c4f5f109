# Seed 003 (QoS-aware data staging on InfiniBand) artifact (analysis/seed003/): one job
# per case (a benchmark family on one SSD bandwidth and arbitration granularity, under every
# noise), then the figure, its plotted numbers and the report. SEED003* and
# seed003_qos_outputs() are in rules/common.smk.


wildcard_constraints:
    seed003=r"bench=(micro|collective|weights|stencil|cg)/ssd=[0-9.e+-]+/g=[0-9.e+-]+",


localrules:
    seed003_qos_artifact,


rule seed003_qos_case:
    input:
        spec_stamp=spec_stamp("seed003", SEED003),
    output:
        runs=f"{SEED003_RESULTS}/cases/{{seed003}}/runs.csv",
    params:
        spec=SEED003,
    log:
        f"{SEED003_RESULTS}/logs/cases/{{seed003}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/seed003_case.py"


rule seed003_qos_artifact:
    input:
        spec_stamp=spec_stamp("seed003", SEED003),
        runs=[f"{SEED003_RESULTS}/cases/{case.path}/runs.csv" for case in SEED003.cases()] if SEED003 else [],
    output:
        figure=f"{SEED003_DIR}/seed003_qos.png",
        plotted=f"{SEED003_DIR}/seed003_qos_plotted.csv",
        report=f"{SEED003_DIR}/report.md",
    params:
        spec=SEED003,
        variant=EXP.variant,
    log:
        f"{SEED003_RESULTS}/logs/artifact.log",
    script:
        "scripts/seed003_artifact.py"
