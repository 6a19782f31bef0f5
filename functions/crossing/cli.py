"""The `crossing` command: one entry point, a subcommand per job."""

from __future__ import annotations

import argparse
import sys

from crossing.puzzles_cli import register as register_puzzles


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crossing",
        description="Crossing Words: live crossword rooms, Duel and the Solver.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = sub.add_parser("check-puzzle", help="validate ipuz puzzle files")
    check.add_argument("files", nargs="+", help="ipuz files to validate")
    check.set_defaults(run=_check_puzzle)
    register_puzzles(sub)
    return parser


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
