# Allocators against the data-access optimum (analysis/placement_gap/): one job draws
# every moment, solves the CP-SAT optimum and runs every allocator; no simulation.
# PLACEMENT* and placement_gap_outputs() are in rules/common.smk.


localrules:
    placement_gap_artifact,


rule placement_gap_artifact:
    input:
        spec_stamp=spec_stamp("placement", PLACEMENT),
        platforms=list(PLACEMENT.platforms.values()) if PLACEMENT else [],
    output:
        figure=f"{PLACEMENT_DIR}/placement_gap.png",
        plotted=f"{PLACEMENT_DIR}/placement_gap_plotted.csv",
        report=f"{PLACEMENT_DIR}/report.md",
    params:
        spec=PLACEMENT,
        variant=EXP.variant,
    log:
        f"{RESULTS}/placement_gap/artifact.log",
    script:
        "scripts/placement_gap_artifact.py"
