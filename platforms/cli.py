"""``datasched platform ...``: generate one platform or regenerate the catalog.

datasched platform generate --params P.yaml --out PLATFORM.xml
datasched platform generate --topology torus --dims 4,4,4 --mode san --io-servers 8 --out P.xml
datasched platform generate --topology dragonfly --pah 2,4,2 --routing valiant --out P.xml
datasched platform catalog --out platforms/catalog
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import yaml

from datasched.errors import UserError, parse_json, parse_yaml, read_utf8, yaml_error
from datasched.seeds import seed_argument

from .dragonfly import ROUTINGS


def register(subparsers) -> None:
    parser = subparsers.add_parser("platform", help="generate SimGrid platform XMLs")
    sub = parser.add_subparsers(dest="platform_command", metavar="ACTION")

    gen = sub.add_parser("generate", help="write one platform XML")
    gen.add_argument("--params", type=Path, help="YAML/JSON file of parameters (see platforms/README.md)")
    gen.add_argument("--kind", choices=("system", "forwarding", "staging", "ondemand"), help="platform family")
    gen.add_argument("--name", help="platform name")
    gen.add_argument("--topology", choices=("torus", "fat_tree", "dragonfly"))
    gen.add_argument("--dims", help="torus sizes, e.g. 4,4,4")
    gen.add_argument("--k", type=int, help="fat-tree arity")
    gen.add_argument("--levels", type=int, help="fat-tree levels")
    gen.add_argument("--pah", help="dragonfly p,a,h e.g. 2,4,2")
    gen.add_argument("--routing", choices=ROUTINGS, help="dragonfly routing (default minimal; seed 000: valiant)")
    gen.add_argument("--routing-seed", type=seed_argument, help="seed of the Valiant intermediate groups (default 1)")
    gen.add_argument("--mode", choices=("unified", "san"), help="storage mode")
    gen.add_argument("--io-servers", type=int, help="k I/O servers")
    gen.add_argument("--out", type=Path, required=True)
    gen.set_defaults(func=_generate)

    cat = sub.add_parser("catalog", help="regenerate every named platform")
    cat.add_argument("--out", type=Path, default=Path("platforms/catalog"))
    cat.set_defaults(func=_catalog)

    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])


def load_params(path: Path) -> dict:
    try:
        text = read_utf8(path)
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        data = parse_json(text, path) if path.suffix == ".json" else parse_yaml(text, path)
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except yaml.YAMLError as exc:
        raise yaml_error(path, exc) from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: expected a mapping of parameters")
    return data


def _ints(text: str, option: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise UserError(f"{option}: expected comma-separated integers, got {text!r}") from None


def params_from_args(args: argparse.Namespace):
    from .generator import parse_params

    data = load_params(args.params) if args.params else {}
    source = str(args.params) if args.params else "command line"
    if args.kind:
        data["kind"] = args.kind
    if args.name:
        data["name"] = args.name
    if args.mode:
        data["storage_mode"] = args.mode
    if args.io_servers is not None:
        data.setdefault("storage", {})["io_servers"] = args.io_servers
    if args.topology:
        topo: dict = {"kind": args.topology}
        if args.dims:
            topo["dims"] = _ints(args.dims, "--dims")
        if args.k is not None:
            topo["k"] = args.k
        if args.levels is not None:
            topo["levels"] = args.levels
        if args.pah:
            values = _ints(args.pah, "--pah")
            if len(values) != 3:
                raise UserError(f"--pah: expected p,a,h, got {args.pah!r}")
            topo |= dict(zip(("p", "a", "h"), values, strict=True))
        if args.routing is not None:
            topo["routing"] = args.routing
        if args.routing_seed is not None:
            topo["routing_seed"] = args.routing_seed
        data.setdefault("interconnect", {})["topology"] = topo
    else:
        shaping = ("dims", "k", "levels", "pah", "routing", "routing_seed")
        given = [f"--{name.replace('_', '-')}" for name in shaping if getattr(args, name) is not None]
        if given:  # they describe a topology: without --topology they would be ignored silently
            raise UserError(f"{', '.join(given)}: give --topology too (these options only shape it)")
    return parse_params(data, source)


def _generate(args: argparse.Namespace) -> int:
    from .generator import generate, write

    params = params_from_args(args)
    path = write(generate(params), args.out)
    print(path)
    return 0


def _catalog(args: argparse.Namespace) -> int:
    from .catalog import write_catalog

    for path in write_catalog(args.out):
        print(path)
    return 0
