"""Workflows with temporal and data dependencies (seed 001): the datasched workflow
format (:mod:`.model`), its conversion to Batsim workload JSON (:mod:`.convert`) and
seed 001's three submission styles as transformations (:mod:`.submission`).

``TABLE4_PATH`` is the shipped Table 4 example (20 nodes, 10 jobs, workflow 1 -> 7 -> 9).
"""

from pathlib import Path

TABLE4_PATH = Path(__file__).with_name("nextgenio_table4.yaml")
