"""Seed 001 Table 4 / section 4.1: the 20-node, 10-job example, data-unaware against
data-aware workflow scheduling, per submission style (Figs. 3-5, eqs. 1-5), in one module per
step: ``spec`` (the compared policies, the NVM rates, the paper's T_all), ``platform`` (the
20-node system every seed 001 workflow artifact runs on), ``runs`` (workloads and engine runs),
``measure`` (T_all and the eqs. 1-5 terms of one run), ``table`` (the plotted numbers),
``claims`` (the bookkeeping check, *by construction*), ``figure``, ``report``.

Each run converts ``workflows/nextgenio_table4.yaml`` with a submission style
(``datasched workload from-workflow --style S --profiles phases``: every read/write phase
names its data items), builds the 20-node platform, and runs the ``workflow`` policy
(schedulers/workflow.py) with ``data_aware`` false or true. The paper gives T_all = 490 s
(unaware, job 9 waiting 20 s) and 280 s (aware, with SCM I/O cost taken as 0).

Platform (our choices, the paper states none; written in the report): a 5x2x2 torus of
20 nodes (10 GB/s links, never the bottleneck here), 1 Gflop/s nodes (the workflow file's
``reference.host_speed``), one I/O server whose front-end (100 GB/s) is not a bottleneck
and a 1 GB/s storage NIC per node (``reference.io_bandwidth``: the rate at which the
workflow file converted Table 4's seconds into bytes, so external I/O takes Table 4's
times). Node NVM rates are the swept assumption: ``nvm_variants``, e.g. seed 000's
2 GB/s read / 1 GB/s write, or rates scaled from the paper's own Table 1 (memory-mapped
file system against Lustre, 10 x 1 GB: write 137.77 s vs 3.02 s, read 153.64 s vs 1.95 s).

These runs are the *bookkeeping* check (claim ``table4.sums``, by construction). The paper's
T_all, reduction and job 9 claims are judged on the model runs of
:mod:`.model_spec` and the other ``model_*`` modules (sizes, storage rates and background load swept).
"""
