"""`crossing solve`: the best plays for a rack on a board, as a table or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crossing.game_files import shipped
from crossing.solver_request import read_request
from crossing.tiles.api import DEFAULT_TOP, BadRequest, solve_request
from crossing.tiles.rules import RULE_SETS


def add_solve_command(subparsers: Any) -> None:
    solve = subparsers.add_parser(
        "solve",
        help="list the best plays for a rack (Crossplay, Scrabble, WWF, Duel rules)",
        description="List every legal play for a rack on a board, best score first.",
    )
    # Checked by the API, not argparse, so a bad value is one line like every other input error.
    solve.add_argument(
        "--rules", required=True, metavar="{" + ",".join(RULE_SETS) + "}", help="the rule set"
    )
    solve.add_argument("--rack", required=True, help="up to 7 tiles, ? for a blank")
    solve.add_argument(
        "--board",
        type=Path,
        metavar="FILE",
        help="15 lines of 15 squares: '.' empty, A-Z a tile, a-z a blank (default: empty)",
    )
    solve.add_argument(
        "--words", type=Path, metavar="FILE", help="word list, one a line, instead of ENABLE2K"
    )
    solve.add_argument(
        "--top",
        default=str(DEFAULT_TOP),
        metavar="N",
        help=f"how many plays (default {DEFAULT_TOP})",
    )
    solve.add_argument(
        "--no-bonus", action="store_true", help="ignore premium squares (face values)"
    )
    solve.add_argument("--json", action="store_true", help="print JSON instead of a table")
    solve.set_defaults(run=run_solve)


def _read_lines(path: Path, what: str) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise BadRequest(f"cannot read {what} file {path}: {reason}") from None


def run_solve(args: argparse.Namespace) -> int:
    request: dict[str, Any] = {
        "rules": args.rules,
        "rack": args.rack,
        "top": int(args.top) if args.top.strip().lstrip("-").isdigit() else args.top,
        "bonus": not args.no_bonus,
    }
    try:
        if args.board is not None:
            request["board"] = _read_lines(args.board, "board")
        if args.words is not None:
            request["words"] = _read_lines(args.words, "word list")
        answer = solve_request(read_request(request), shipped())
    except BadRequest as error:
        print(f"crossing solve: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(answer, indent=1))
    else:
        print(format_table(answer["plays"]))
    return 0


def _words_summary(play: dict[str, Any]) -> str:
    parts = [f"{word['word']} {word['score']}" for word in play["breakdown"]["words"]]
    parts += [f"{bonus['name']} {bonus['points']}" for bonus in play["breakdown"]["bonuses"]]
    return " + ".join(parts)


def format_table(plays: list[dict[str, Any]]) -> str:
    if not plays:
        return "no legal play"
    lines = [f"{'#':>3}  {'score':>5}  {'word':<15}  {'where':<13}  {'tiles':>5}  breakdown"]
    for rank, play in enumerate(plays, start=1):
        where = f"{play['row']},{play['col']} {play['direction']}"
        lines.append(
            f"{rank:>3}  {play['score']:>5}  {play['word']:<15}  {where:<13}  "
            f"{play['tiles_used']:>5}  {_words_summary(play)}"
        )
    return "\n".join(lines)
