"""``python -m datasched.scenarios --write-schemas``: regenerates sim/schemas/*.schema.json
from the models; ``--check``: exits 1 naming the committed files that differ from them."""

from __future__ import annotations

import argparse
import sys

from datasched.scenarios.schemas import stale_schemas, write_schemas


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m datasched.scenarios", description=__doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write-schemas", action="store_true", help="write sim/schemas/<scenario>.schema.json")
    action.add_argument("--check", action="store_true", help="exit 1 if a committed schema differs from the models")
    args = parser.parse_args(argv)
    if args.write_schemas:
        for path in write_schemas():
            print(path)
        return 0
    stale = stale_schemas()
    for path in stale:
        print(f"{path}: differs from the models; run python -m datasched.scenarios --write-schemas", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
