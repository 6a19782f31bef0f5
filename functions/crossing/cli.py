"""The `crossing` command: one entry point, a subcommand per job."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from crossing.puzzles_cli import register as register_puzzles
from crossing.tiles.cli import add_solve_command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crossing",
        description="Crossing Words: live crossword rooms, Duel and the Solver.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve = sub.add_parser("serve", help="run the whole game on this machine (no AWS account)")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (0.0.0.0 to play from phones on your network)",
    )
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--frontend", type=Path, default=None, help="folder of the web client")
    serve.add_argument(
        "--packs", type=Path, default=None, help="folder of puzzle packs (SIZE.json)"
    )
    serve.set_defaults(run=_serve)
    bots = sub.add_parser("bots", help="bot tools").add_subparsers(
        dest="bots_command", required=True
    )
    sim = bots.add_parser("simulate", help="run bots without a server and print their figures")
    sim.add_argument("--mode", choices=["race", "together"], required=True)
    sim.add_argument("--size", choices=["mini", "small", "midi", "large"], required=True)
    sim.add_argument("--level", choices=["easy", "medium", "hard"], required=True)
    sim.add_argument("--runs", type=int, default=100)
    sim.add_argument(
        "--bots",
        type=int,
        default=None,
        help="how many bots play (default: 1 in a race, 3 in Together)",
    )
    sim.add_argument("--packs", type=Path, default=None, help="folder of puzzle packs")
    sim.set_defaults(run=_simulate)
    check = sub.add_parser("check-puzzle", help="validate ipuz puzzle files")
    check.add_argument("files", nargs="+", help="ipuz files to validate")
    check.set_defaults(run=_check_puzzle)
    vapid = sub.add_parser("vapid-keys", help="make a Web Push VAPID key pair (prints env lines)")
    vapid.set_defaults(run=_vapid_keys)
    add_solve_command(sub)
    register_puzzles(sub)
    return parser


def _vapid_keys(args: argparse.Namespace) -> int:
    from crossing.aws.push import generate_keys

    private_key, public_key = generate_keys()
    print(f"CROSSING_VAPID_PRIVATE_KEY={private_key}")
    print(f"CROSSING_VAPID_PUBLIC_KEY={public_key}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from crossing.local.serve import serve

    return serve(args.host, args.port, args.frontend, args.packs)


def _simulate(args: argparse.Namespace) -> int:
    from crossing.crossword.sizes import Size
    from crossing.rooms.simulate import report, synthetic_puzzle

    size = Size(args.size)
    puzzles = _pack_puzzles(args.packs, size)
    if not puzzles:
        print(
            f"(no {size.value} pack found: timing on synthetic {size.width}x{size.width} grids)",
            file=sys.stderr,
        )
        puzzles = [synthetic_puzzle(size.width, seed) for seed in range(20)]
    if args.runs < 1:
        print("crossing bots simulate: --runs must be at least 1", file=sys.stderr)
        return 2
    bots = args.bots or (1 if args.mode == "race" else 3)
    print(report(args.mode, puzzles, args.level, args.runs, bots))
    return 0


def _pack_puzzles(packs: Path | None, size):
    from crossing.local.paths import default_packs

    folder = packs or default_packs()
    path = folder / f"{size.value}.json" if folder else None
    if path is None or not path.is_file():
        return []
    import json

    from crossing.crossword.ipuz import from_ipuz

    return [from_ipuz(p) for p in json.loads(path.read_text())["puzzles"]]


def _check_puzzle(args: argparse.Namespace) -> int:
    from crossing.crossword.ipuz import InvalidPuzzle, load_ipuz_file

    failed = 0
    for name in args.files:
        try:
            puzzle = load_ipuz_file(name)
        except InvalidPuzzle as error:
            failed += 1
            print(f"{name}: {error}", file=sys.stderr)
        else:
            print(f"{name}: ok ({puzzle.width}x{puzzle.height}, {len(puzzle.slots)} slots)")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
