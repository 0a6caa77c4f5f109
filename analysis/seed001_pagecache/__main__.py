"""Rebuilds a Tables 1-3 report from a run's ``values.json`` without running anything:
``python -m datasched.analysis.seed001_pagecache VALUES.json CONFIG.yaml VARIANT REPORT.md``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from datasched.analysis.seed001_pagecache.report import format_report
from datasched.analysis.seed001_pagecache.spec import parse_spec


def main(argv: Sequence[str] | None = None) -> int:
    """Rebuilds a report from a run's ``values.json`` (its ``runs``) and the config, without
    running anything: ``python -m datasched.analysis.seed001_pagecache VALUES CONFIG VARIANT OUT``."""
    import sys

    import yaml

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 4:
        print("usage: python -m datasched.analysis.seed001_pagecache VALUES.json CONFIG.yaml VARIANT REPORT.md")
        return 2
    values, config, variant, out = args
    spec = parse_spec(yaml.safe_load(Path(config).read_text())["artifacts"]["seed001_pagecache"])
    rows = json.loads(Path(values).read_text())["runs"]
    Path(out).write_text(format_report(spec, rows, variant, "seed001_tables1-3.png"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
