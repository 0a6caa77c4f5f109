"""Seed 000, Figure 7: traffic priorities for one application alone (72-node dragonfly).

The paper's Figure 7: the single application of Figure 6 with 50 % memory hits and the
Disperse pattern, (a) at 50 % remote accesses under BA with 5 % ... 85 % of a contended
link to IPC, against NP (dotted), per STG-k; (b) FP's run time relative to NP's against the
share of remote accesses, per STG-k. Ours runs the same application (Figure 6's, our sizes)
under the engine's ``--traffic-policy`` in both sharing units (``--sharing activity``, the
default, and ``flow``, one activity per flow as in a flow-level simulator), and under two
application I/O models (``io_models``):

- ``none-N``: N I/O tasks read and write for themselves; phases are bulk-synchronous, so a
  communicate phase carries only IPC and a read or write phase only storage traffic, the
  application's two classes never share a link at the same moment and, by construction, no
  traffic policy changes anything;
- ``per_task-N``: N I/O tasks each distribute what they read to the other tasks once their
  own read ends (and gather before writing), the paper's section 5.1 ("reading and writing
  data ... and distributing the data to the rest of the computing tasks", INRFlow's causal
  order between flows) with Table 1's 64 I/O tasks of 72: one task's IPC meets another's
  storage traffic, so the policies act. The claims are judged on the ``per_task`` models.

The paper gives these results as figures and sentences: :func:`verdicts` checks each.

Steps: ``spec``, ``table``, ``figure``, ``claims``, ``report`` (``breakdown``: where the read phases spend their time).
"""
