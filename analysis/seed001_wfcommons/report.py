"""Seed 001 on WfCommons shapes step 6, the report: set-up, the paper's claim beside ours, every
metric, and why ours differ."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.seed001_wfcommons.claims import claim_rows
from datasched.analysis.seed001_wfcommons.spec import PAPER_CHANGE_PCT, WfSweepSpec
from datasched.analysis.seed001_wfcommons.table import group_label, mean_range
from datasched.analysis.verdicts import Estimate, difference


def format_report(
    summary: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]], spec: WfSweepSpec, variant: str,
    figure: str,
) -> str:  # fmt: skip
    claims = claim_rows(summary)
    lines = [
        f"# Seed 001 on real workflow shapes (WfCommons instances, {variant})",
        "",
        f"![T_all and bytes written to central storage]({figure})",
        "",
        "Real workflow instances from WfCommons' WfInstances (`workflows/wfcommons_instances/README.md`), converted "
        "by `datasched workload from-wfcommons` (task runtime -> compute at the platform's "
        f"{spec.host_speed / 1e9:g} Gflop/s, files -> named data items, one node per single-core task), run with "
        "each submission style on two platforms of seed 001's Table 4 kind (a "
        f"{'x'.join(map(str, spec.torus))} torus, {spec.nodes} nodes, one I/O server behind a "
        f"{spec.node_nic_bw / 1e9:g} GB/s storage NIC per node): `scm` with node NVM "
        f"({spec.nvm_read_bw / 1e9:g} GB/s read, {spec.nvm_write_bw / 1e9:g} GB/s write) and `san` without. "
        f"File sizes are swept ({', '.join(f'x{s:g}' for s in spec.size_scales)}): x1 is the instance as recorded.",
        "",
        "Variants (the compared variable):",
        "",
        *(
            f"- `{v.name}`: policy `{v.policy}` options `{json.dumps(dict(v.options), sort_keys=True)}`"
            + (" (node-NVM platforms only)" if v.needs_nvm else "")
            + (f". {v.note}" if v.note else "")
            for v in spec.variants
        ),
        "",
        "Values are means over the recorded instances of each application with their range [min..max] in "
        f"brackets ({', '.join(f'{a.name}: {len(a.instances)}' for a in spec.apps)} instance(s)); one instance: "
        "no range. The instances are separate recorded runs, not samples of one distribution: no t interval.",
        "",
        "## The paper's claim beside ours",
        "",
        "Seed 001 (section 4.1, Table 4) claims that data-aware workflow scheduling with data kept on node SCM "
        "cuts the time to solution against a data-unaware scheduler whose steps share data through the external "
        "file system (490 s -> 280 s, -43 %, on a synthetic example whose I/O is 200 of the 470 s of the "
        "workflow). Ours, T_all of each data-aware variant on `scm` against data-unaware; the verdict is the "
        "shared rule's (analysis/verdicts.py: the paper's -43 % within 0.5x-2x is *reproduced*, another size of "
        "the same sign *in direction*). The paper has no such runs, so these rows are not on the scoreboard:",
        "",
        "| app | style | file sizes | variant | baseline | T_all variant (s) | T_all baseline (s) | change | verdict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for c in claims:
        # The paper's -43 % judged by the shared rules (analysis/verdicts.py); a recorded instance is
        # one deterministic run, and the means over several instances are not samples of one law.
        ours = Estimate.deterministic(100 * c["change"], "recorded instances, no seeds")
        verdict = difference(PAPER_CHANGE_PCT, ours)
        lines.append(
            f"| {c['app']} | {c['style']} | x{c['size_scale']:g} | {c['variant']} | {c['baseline']} | "
            f"{c['aware']:.1f} | {c['unaware']:.1f} | {100 * c['change']:+.1f} % | {verdict} |"
        )
    lines += [
        "",
        "## All metrics (mean [min..max] over instances)",
        "",
        "| app | style | sizes | platform/variant | T_all (s) | interconnect (GB) | to central (GB) "
        "| from central (GB) | peak NVM total (GB) | peak NVM one node (GB) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in summary:
        lines.append(
            f"| {r['app']} | {r['style']} | x{r['size_scale']:g} | {group_label(r)} | {mean_range(r, 'makespan')} | "
            f"{mean_range(r, 'interconnect_bytes', 1e-9, 3)} | {mean_range(r, 'central_write_bytes', 1e-9, 3)} | "
            f"{mean_range(r, 'central_read_bytes', 1e-9, 3)} | {mean_range(r, 'peak_nvm_bytes', 1e-9, 3)} | "
            f"{mean_range(r, 'peak_node_nvm_bytes', 1e-9, 3)} |"
        )
    lines += ["", "## Why ours differs from the paper (nothing was tuned toward the paper)", "", *DISCUSSION, ""]
    return "\n".join(lines)


DISCUSSION = [
    "- **I/O is a small part of these real workflows.** The recorded instances move little data for their "
    "runtimes (epigenomics hep-1seq-100k: 0.35 GB of intermediate files against 539 s of task runtime; "
    "1000genome 2ch-100k: 2.6 GB of external inputs, 1.3 MB of intermediate files, 2771 s of runtime; blast: "
    "kilobytes of intermediate files). At x1, keeping intermediate files on node NVM saves at most the seconds "
    "those bytes take through a 1 GB/s NIC, and T_all is set by the compute critical path: no effect. The "
    "paper's example is synthetic, its I/O 200 of the workflow's 470 s.",
    "- **With 100x larger files** only montage gains in our runs (see the table): its many intermediate "
    "files are read by fan-in steps, and a read of node NVM (2 GB/s, local or over the 10 GB/s interconnect) "
    "is twice the 1 GB/s storage NIC. Epigenomics writes 35 GB less to central storage but its T_all does not "
    "move: with seed 000's NVM a write to NVM (1 GB/s) is no faster than through the NIC (1 GB/s), and its "
    "critical path also reads external inputs from central storage in every variant. 1000genome and blast have "
    "almost no intermediate data at any scale. The sign of the effect agrees with the paper where there is one; "
    "its size depends on how much of the critical path is intermediate I/O and on the NVM-to-NIC rate ratio "
    "(the Table 4 artifact sweeps that ratio).",
    "- **External inputs and final outputs go through central storage in every variant** (seed 001 4.1: "
    "'the first job ... still needs to read its input from external storage, and the final job needs to write "
    "back'); data-awareness only removes the intermediate traffic: the 'to central' difference between the "
    "variants, paid for by interconnect bytes (remote NVM reads) and NVM occupancy.",
    "- **Chain and single-script styles serialise the DAG** (full variant): our transformations "
    "(workflows/submission.py) run a workflow's steps one after the other (chain: each step submits the next "
    "in topological order; single script: one job running every step back to back on the widest step's "
    "nodes). For the wide DAGs of WfCommons T_all is then close to the sum of the task runtimes instead of the "
    "critical path: seed 001's eqs. 1-4 describe linear workflows.",
    "- **The SAN platform** differs from `scm` only by having no node NVM; central storage is reached over the "
    "same storage NIC on both, so `san/unaware` equals `scm/unaware` (a consistency check: the data-unaware "
    "variant writes every item to central storage and never touches node NVM).",
    "- **No background jobs**: each workflow runs alone on the 20 nodes, so the data-unaware placement is never "
    "disturbed by other jobs (the paper's 20 s wait of job 9); with few free nodes the placement part of "
    "data-awareness would matter more. Not swept here.",
    "- **Replicates are recorded runs, not generator seeds**: WfChef recipes (PyPI `wfcommons`) were not "
    "adopted: they add SciPy and 73 MB of recipe data, and draw from Python's global random generator. The "
    "range is over the recorded runs of one shape; WfInstances has five runs of blast-small and one of each "
    "other shape at these sizes, so only blast has a range. It is wide at x100 because run 001 records a "
    "5.1 GB database file (`nt`) that the four other runs record as 0 bytes (upstream data, kept): the runs "
    "are not draws from one distribution, and a 95 % t interval over them reached below 0 s, so none is given.",
    "- **The data movers** (`aware-movers`: prestage, post_move and hold together) gain little or nothing on these "
    "shapes (compare the `scm/aware` and `scm/aware-movers` rows above). Pre-staging copies an item only between nodes "
    "where no running job does I/O (schedulers/workflow.py), and in these workflows every step reads and "
    "writes, so a next step's likely nodes (its running predecessors') almost never qualify. Without that test "
    "(`prestage_onto_busy: true`) the copies ran while those nodes' steps read and wrote through the same NVM "
    "and storage NIC, and the running steps, on the critical path, slowed by more than the next ones gained: "
    "T_all +4 % to +41 % against data-aware on 4 of the 8 cases here (1000genome x100: 331.9 -> 461.2 s; "
    "measured 2026-11-23 before the test was added). Post-moving pays only where NVM writes beat the storage "
    "path (not with these rates), and holds are rare (a step's predecessors usually run on the nodes holding "
    "its data).",
]
