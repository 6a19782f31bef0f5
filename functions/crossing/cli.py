"""The `crossing` command: one entry point, a subcommand per job."""

from __future__ import annotations

import argparse
import os
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from crossing.local.paths import default_data
from crossing.puzzles_cli import register as register_puzzles
from crossing.solve_cli import add_solve_command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crossing",
        description="Crossing Words: live crossword rooms, Duel and the Solver.",
    )
    parser.add_argument("--version", action="version", version=f"crossing {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve = sub.add_parser(
        "serve",
        help="run the whole game on this machine (no AWS account)",
        description="Run the whole game on this machine: the web client, the rooms, "
        "Duel and the Solver, with no AWS account.",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (0.0.0.0 to play from phones on your network)",
    )
    serve.add_argument(
        "--port",
        type=_whole(0, 65535, "a port"),
        default=8000,
        help="port (default 8000; 0 for any free one)",
    )
    serve.add_argument(
        "--frontend", type=_folder, default=None, metavar="DIR", help="folder of the web client"
    )
    serve.add_argument(
        "--packs",
        type=_packs_folder,
        default=None,
        metavar="DIR",
        help="folder of puzzle packs (SIZE.json; default: the built packs)",
    )
    serve.add_argument(
        "--data",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"folder to keep accounts, ratings, rooms and saved games in "
        f"(default {_shown_path(default_data())})",
    )
    serve.add_argument(
        "--backend",
        choices=["sqlite", "moto"],
        default="sqlite",
        help="sqlite (default): everything kept in --data; moto: the AWS adapters on "
        "moto's fake AWS in this process, forgotten at each stop (needs the moto extra)",
    )
    serve.set_defaults(run=_serve)
    bots = sub.add_parser("bots", help="bot tools").add_subparsers(
        dest="bots_command", required=True
    )
    sim = bots.add_parser(
        "simulate",
        help="run bots without a server and print their figures",
        description="Play games of bots only, with no server and no waiting (time jumps "
        "from one bot move to the next), and print how long they took and how many "
        "squares they got wrong: for tuning the levels.",
    )
    sim.add_argument(
        "--mode", choices=["race", "together"], required=True, help="the game the bots play"
    )
    sim.add_argument(
        "--size", choices=["mini", "small", "midi", "large"], required=True, help="grid size"
    )
    sim.add_argument(
        "--level", choices=["easy", "medium", "hard"], required=True, help="every bot's level"
    )
    sim.add_argument(
        "--runs",
        type=_whole(1, 100_000, "the number of games"),
        default=100,
        metavar="N",
        help="how many games (default 100)",
    )
    sim.add_argument(
        "--bots",
        type=_whole(1, MAX_BOTS, "the number of bots"),
        default=None,
        metavar="N",
        help=f"how many bots play each game, 1 to {MAX_BOTS} (a room seats {MAX_BOTS + 1} "
        "with its host); default 1 in a race, 3 in Together",
    )
    sim.add_argument(
        "--packs",
        type=_packs_folder,
        default=None,
        metavar="DIR",
        help="folder of puzzle packs (default: the built packs; without a pack of the "
        "size, random grids of that size)",
    )
    sim.set_defaults(run=_simulate)
    check = sub.add_parser("check-puzzle", help="validate ipuz puzzle files")
    check.add_argument("files", nargs="+", help="ipuz files to validate")
    check.set_defaults(run=_check_puzzle)
    vapid = sub.add_parser("vapid-keys", help="make a Web Push VAPID key pair (prints env lines)")
    vapid.set_defaults(run=_vapid_keys)
    replay = sub.add_parser(
        "replay-frames",
        help="the consume function's event for frames taken from its dead-letter queue",
        description="Read what `aws sqs receive-message` printed for the frame queue's "
        "dead-letter queue and print the consume function's event for those frames, to "
        "pass to `aws lambda invoke` (docs/operations.md, FrameDeadLetters). Refuses, "
        "naming the message, any body that is not a frame.",
    )
    replay.add_argument("received", help="the JSON file receive-message printed ('-': stdin)")
    replay.set_defaults(run=_replay_frames)
    add_solve_command(sub)
    register_puzzles(sub)
    return parser


def _vapid_keys(args: argparse.Namespace) -> int:
    from crossing.aws.push import generate_keys

    private_key, public_key = generate_keys()
    print(f"CROSSING_VAPID_PRIVATE_KEY={private_key}")
    print(f"CROSSING_VAPID_PUBLIC_KEY={public_key}")
    return 0


def _replay_frames(args: argparse.Namespace) -> int:
    import json

    from crossing.aws.queue import Unreadable, replay

    try:
        text = sys.stdin.read() if args.received == "-" else Path(args.received).read_text()
        if not text.strip():
            raise Unreadable("empty: receive-message prints nothing when the queue is empty")
        received = json.loads(text)
        messages = received.get("Messages", []) if isinstance(received, dict) else None
        if not isinstance(messages, list):
            raise Unreadable("not what `aws sqs receive-message` prints: no list of Messages")
        event = replay(messages)
    except (OSError, ValueError) as error:  # Unreadable is a ValueError, as is bad JSON
        print(f"crossing replay-frames: {args.received}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(event))
    return 0


def _serve(args: argparse.Namespace) -> int:
    if args.backend == "moto" and args.data is not None:
        print(
            "crossing serve: --data is for the sqlite backend; moto keeps nothing", file=sys.stderr
        )
        return 2
    try:
        from crossing.local.serve import serve
    except ModuleNotFoundError as missing:  # installed without the web server
        print(
            f"crossing serve needs {missing.name}, which the local extra installs: "
            "pip install -c constraints.txt -e '.[local]'",
            file=sys.stderr,
        )
        return 2
    return serve(
        args.host, args.port, args.frontend, args.packs, backend=args.backend, data=args.data
    )


def _simulate(args: argparse.Namespace) -> int:
    from crossing.crossword.sizes import Size
    from crossing.rooms.simulate import report, synthetic_puzzle

    size = Size(args.size)
    puzzles = pack_puzzles(args.packs, size)
    if not puzzles:
        print(
            f"(no {size.value} pack found: timing on synthetic {size.width}x{size.width} grids)",
            file=sys.stderr,
        )
        puzzles = [synthetic_puzzle(size.width, seed) for seed in range(20)]
    bots = args.bots or (1 if args.mode == "race" else 3)
    print(report(args.mode, puzzles, args.level, args.runs, bots))
    return 0


def pack_puzzles(packs: Path | None, size):
    """The puzzles of ``size`` in the packs folder (default: the built packs), or none."""
    from crossing.local.paths import default_packs

    folder = packs or default_packs()
    path = folder / f"{size.value}.json" if folder else None
    if path is None or not path.is_file():
        return []
    import json

    from crossing.crossword.ipuz import from_ipuz

    return [from_ipuz(p) for p in json.loads(path.read_text())["puzzles"]]


def load_ipuz_file(path: str | Path) -> Any:
    """Read and check one ipuz file from disk: the games layer takes data, never a path."""
    import json

    from crossing.crossword.ipuz import InvalidPuzzle, Problem, from_ipuz

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        problem = Problem("format", "file", f"cannot read the file: {error}")
        raise InvalidPuzzle([problem]) from error
    except json.JSONDecodeError as error:
        problem = Problem("format", f"line {error.lineno}", f"not valid JSON: {error.msg}")
        raise InvalidPuzzle([problem]) from error
    return from_ipuz(data)


def _check_puzzle(args: argparse.Namespace) -> int:
    from crossing.crossword.ipuz import InvalidPuzzle

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


MAX_BOTS = 7
"""A room holds eight players, and a simulated game's host is one of them."""


def _shown_path(path: Path) -> str:
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)


def _version() -> str:
    try:
        return metadata.version("crossing")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def _whole(low: int, high: int, what: str):
    """An argparse type: a whole number from ``low`` to ``high``, or a one-line error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number, not {text!r}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be from {low} to {high}, not {value}")
        return value

    return parse


def _folder(text: str) -> Path:
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"no folder {text}")
    return path


def _packs_folder(text: str) -> Path:
    path = _folder(text)
    if not any(path.glob("*.json")):
        raise argparse.ArgumentTypeError(f"{text} holds no puzzle packs (mini.json, small.json…)")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    try:
        code = args.run(args)
        sys.stdout.flush()  # a closed pipe shows up here, not at exit
        return code
    except BrokenPipeError:
        # The reader went away (``crossing solve ... | head``): stop quietly, as other tools do.
        # Python's own flush at exit would fail again, so stdout goes nowhere from here.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # what a shell reports for SIGPIPE
    except OSError as error:
        # A file a command needs is missing or unreadable: say which, in one line.
        where = f"{error.filename}: " if error.filename else ""
        print(f"crossing {args.command}: {where}{error.strerror or error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
