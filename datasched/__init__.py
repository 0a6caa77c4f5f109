"""datasched: trace-driven research framework for data-aware HPC job scheduling."""

__version__ = "0.1.0"
