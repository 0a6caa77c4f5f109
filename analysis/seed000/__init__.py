"""Seed 000 (data-aware storage and traffic priorities on dragonfly, fat-tree and torus systems):
the paper's Figures 6 to 10 and its abstract's two numbers, one subpackage per figure in the same
steps as every artifact (``spec``, ``table``, ``figure``, ``claims``, ``report``; Figure 10 also
``runs``, its per-run table the full variant commits run by run).

Shared by the figures, once: ``routing`` (what a platform routes with, and the sentence the reports
say about it), ``multi_application`` (Figures 8, 9 and 10: workload parameters, run settings, per-run
means summarised over seeds) and ``multi_application_artifact`` (Figures 8 and 9 drawn by one
routine); ``abstract`` judges the abstract's numbers on Figure 6's table, and ``fig6.links`` works
out from the routes which link limits Figure 6's remote reads. The claims table and verdict rules
every seed shares are :mod:`datasched.analysis.claims_table` and :mod:`datasched.analysis.verdicts`.
"""
