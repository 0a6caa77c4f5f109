# Seed 001 Table 4 artifact (analysis/seed001_workflows/): one job runs the small
# simulations (the bookkeeping runs: every submission style x NVM rates x data-unaware/aware;
# the model runs of analysis/seed001_workflows/model_*.py: sizes x Lustre rate x node tier x style
# x background load; in process), then the figures, their plotted numbers and the report. SEED001* and seed001_workflows_outputs()
# are in rules/common.smk.


localrules:
    seed001_workflows_artifact,
    seed001_wfcommons_artifact,
    seed001_pagecache_artifact,


rule seed001_workflows_artifact:
    input:
        spec_stamp=spec_stamp("seed001", SEED001),
        workflow=workdir_relative(str(SEED001.workflow)) if SEED001 else [],
    output:
        figure=f"{SEED001_DIR}/seed001_table4.png",
        plotted=f"{SEED001_DIR}/seed001_table4_plotted.csv",
        timelines=f"{SEED001_DIR}/seed001_fig8_fig9_timelines.png",
        model_figure=f"{SEED001_DIR}/seed001_table4_model.png",
        model_plotted=f"{SEED001_DIR}/seed001_table4_model_plotted.csv",
        report=f"{SEED001_DIR}/report.md",
    params:
        spec=SEED001,
        variant=EXP.variant,
        work=SEED001_RESULTS,
    log:
        f"{SEED001_RESULTS}/artifact.log",
    script:
        "scripts/seed001_artifact.py"


# Seed 001 on real workflow shapes (analysis/seed001_wfcommons/): one job runs every
# (instance, size scale, style, platform, variant) simulation in process, then the figure,
# its plotted numbers and the report.
rule seed001_wfcommons_artifact:
    input:
        spec_stamp=spec_stamp("seed001_wf", SEED001_WF),
        instances=[workdir_relative(str(p)) for a in SEED001_WF.apps for p in a.instances] if SEED001_WF else [],
    output:
        figure=f"{SEED001_WF_DIR}/seed001_wfcommons.png",
        plotted=f"{SEED001_WF_DIR}/seed001_wfcommons_plotted.csv",
        report=f"{SEED001_WF_DIR}/report.md",
    params:
        spec=SEED001_WF,
        variant=EXP.variant,
        work=SEED001_WF_RESULTS,
    log:
        f"{SEED001_WF_RESULTS}/artifact.log",
    script:
        "scripts/seed001_wfcommons_artifact.py"


# Seed 001 Tables 1-3, the producer-consumer benchmark (analysis/seed001_pagecache/): one
# job runs every distinct (hardware, page cache, file set, jitter, seed) simulation in
# process, then the figure, its plotted numbers and the report.
rule seed001_pagecache_artifact:
    input:
        spec_stamp=spec_stamp("seed001_pagecache", SEED001_PC),
    output:
        figure=f"{SEED001_PC_DIR}/seed001_tables1-3.png",
        plotted=f"{SEED001_PC_DIR}/seed001_tables1-3_plotted.csv",
        report=f"{SEED001_PC_DIR}/report.md",
    params:
        spec=SEED001_PC,
        variant=EXP.variant,
        work=SEED001_PC_RESULTS,
    log:
        f"{SEED001_PC_RESULTS}/artifact.log",
    script:
        "scripts/seed001_pagecache_artifact.py"
