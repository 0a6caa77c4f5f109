# datasched experiment pipeline: configuration, stages and targets only.
#
#   snakemake -c2 --configfile config/quick.yaml            # quick variant (CI, `make reproduce`)
#   snakemake -c2 --configfile config/full.yaml             # full variant
#   snakemake --profile profiles/slurm-cluster --configfile config/full.yaml   # on Slurm (docs/cluster.md)
#
# The configuration is validated (config/schema.json + the package's typed models)
# before any job runs; see paper-artifacts/README.md.

# The quick variant unless --configfile names another one. (A plain `configfile:` would
# be *merged* with the --configfile one, leaking quick's keys into the other variants.)
if not workflow.overwrite_configfiles:

    configfile: "config/quick.yaml"


include: "rules/common.smk"
include: "rules/accumulate.smk"
include: "rules/platforms.smk"
include: "rules/workloads.smk"
include: "rules/simulate.smk"
include: "rules/analyse.smk"
include: "rules/figures.smk"
include: "rules/seed000.smk"
include: "rules/seed000_traffic.smk"
include: "rules/placement.smk"
include: "rules/daemons.smk"
include: "rules/burst_buffers.smk"
include: "rules/seed002.smk"
include: "rules/seed003.smk"
include: "rules/seed004.smk"
include: "rules/seed001.smk"
include: "rules/report_pages.smk"


rule all:
    input:
        policies_on_traces_outputs(),
        seed000_fig6_outputs(),
        seed000_fig8_outputs(),
        seed000_fig9_outputs(),
        placement_gap_outputs(),
        daemons_on_nodes_outputs(),
        burst_buffers_outputs(),
        seed002_twins_outputs(),
        seed003_qos_outputs(),
        seed004_interference_outputs(),
        seed001_workflows_outputs(),
        seed001_wfcommons_outputs(),
        seed001_pagecache_outputs(),
        seed000_fig7_outputs(),
        seed000_fig10_outputs(),
        seed000_abstract_outputs(),
        report_pages_outputs(),
    default_target: True


rule policies_on_traces:
    input:
        policies_on_traces_outputs(),


rule seed000_fig6:
    input:
        seed000_fig6_outputs(),


rule seed000_fig8:
    input:
        seed000_fig8_outputs(),


rule seed000_fig9:
    input:
        seed000_fig9_outputs(),


rule placement_gap:
    input:
        placement_gap_outputs(),


rule daemons_on_nodes:
    input:
        daemons_on_nodes_outputs(),


rule burst_buffers:
    input:
        burst_buffers_outputs(),


rule seed002_twins:
    input:
        seed002_twins_outputs(),


rule seed003_qos:
    input:
        seed003_qos_outputs(),


rule seed004_interference:
    input:
        seed004_interference_outputs(),


rule seed001_workflows:
    input:
        seed001_workflows_outputs(),


rule seed001_wfcommons:
    input:
        seed001_wfcommons_outputs(),


rule seed001_pagecache:
    input:
        seed001_pagecache_outputs(),


rule report_pages_all:
    input:
        report_pages_outputs(),


rule simulations:
    input:
        [sim_path(run, "out_jobs.csv") for run in EXP.all_runs()],
