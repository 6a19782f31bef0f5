"""Bots playing on their own, through the same room code, with no server: for tuning levels.

Time jumps from one due event to the next, so a 30-minute Large takes milliseconds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from crossing.crossword.commands import EMPTY
from crossing.crossword.events import Changed
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.race import Race
from crossing.crossword.together import Together
from crossing.rooms import room as R

HOST = "host"


@dataclass(frozen=True)
class Outcome:
    finish_ms: int  # game time at the check
    reason: str
    wrong: dict[str, int]  # wrong or empty squares per bot (Race) or on the board (Together)
    squares: dict[str, int]  # Together: squares each bot holds at the check
    # Letters bots typed over another on a full board, by whether that letter was right:
    # what watching them fix the board could tell a player.
    fixes: dict[str, int] = field(default_factory=lambda: {"wrong": 0, "right": 0})
    # Together: game time from the board's last change to the check, what the last
    # player to change a letter waits for the bots to finish.
    quiet_ms: int = 0


def play_bots(puzzle: Puzzle, mode: str, levels: list[str], seed: int) -> Outcome:
    """One game of bots only (the host watches from the lobby), run to its check."""
    room = R.new_room("SIMULA", HOST, "Host", seed=seed)
    for level in levels:
        room, _ = R.step(room, R.AddBot(HOST, level), 0)
    room, _ = R.step(room, R.ToGame(HOST), 0)
    room, _ = R.step(room, R.ToLobby(HOST), 0)
    room, _ = R.step(room, R.Choose(HOST, R.Mode(mode), R.Size.for_width(puzzle.width)), 0)
    room, _ = R.step(room, R.Start(HOST, puzzle=puzzle), 0)
    fixes = {"wrong": 0, "right": 0}
    while room.phase is R.Phase.PLAYING and (due := room.due_at()) is not None:
        # Fixes on a full board only: while it fills, a solved word typed over a crossing
        # letter that disagrees is the solving itself.
        game = room.game
        board = game.letters() if isinstance(game, Together) else None
        if board is not None and EMPTY in board:
            board = None
        room, events = R.advance(room, due)
        for e in events:
            if board is not None and isinstance(e, Changed) and board[e.square] != EMPTY:
                fixes["right" if board[e.square] == puzzle.solution[e.square] else "wrong"] += 1
    game = room.game
    assert game is not None
    if game.result is None:
        raise RuntimeError("the bots' game never reached a check")
    start = 0
    finish = game.clock.read(start)
    if isinstance(game, Race):
        wrong = {r.player: len(r.misses) for r in game.result.standings}
        return Outcome(finish, game.result.reason, wrong, {})
    result = game.result
    squares = {s.player: s.squares for s in result.standings}
    board_wrong = {"board": len(result.misses)}
    return Outcome(finish, result.reason, board_wrong, squares, fixes, finish - game.changed_ms)


def synthetic_puzzle(width: int, seed: int) -> Puzzle:
    """A symmetric grid with random letters, for timing bots where no pack has that size.

    Not a real crossword (its words are nonsense and it has no clues); bots only look at
    the grid's shape and the solution, so their timing is still what it would be.
    """
    rng = random.Random(seed)
    blocks = set()
    for r in range(width):
        for c in range(width):
            if (r + 1) % 4 == 0 and (c + 1) % 4 == 0:
                blocks |= {r * width + c, width * width - 1 - (r * width + c)}
    rows = "".join(
        "#" if i in blocks else rng.choice("ETAOINSRHLDCUM") for i in range(width * width)
    )
    return Puzzle(width, width, rows, {}, id=f"synthetic-{width}-{seed}")


QUANTILES = (("median", 0.5), ("p10", 0.1), ("p90", 0.9))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(
    mode: str, puzzles: list[Puzzle], level: str, runs: int, bots: int, seed: int = 1
) -> str:
    """The distribution of finish times, wrong squares and (Together) squares earned."""
    outcomes = [
        play_bots(puzzles[i % len(puzzles)], mode, [level] * bots, seed + i) for i in range(runs)
    ]
    minutes = [o.finish_ms / 60_000 for o in outcomes]
    wrong = [sum(o.wrong.values()) / len(o.wrong) for o in outcomes]
    lines = [
        f"{runs} {mode} games, {bots} {level} bot(s), {puzzles[0].width}x{puzzles[0].width}",
        "finish (min): "
        + "  ".join(f"{name} {percentile(minutes, q):.2f}" for name, q in QUANTILES)
        + f"  max {max(minutes):.2f}",
        "wrong squares{}: mean {:.2f}  max {:.0f}".format(
            " per bot" if mode == "race" else " on the board", sum(wrong) / len(wrong), max(wrong)
        ),
    ]
    if mode == "race":
        limited = sum(o.reason == "limit" for o in outcomes)
        lines.append(f"checked at the time limit: {limited} of {runs}")
    else:
        earned = [v for o in outcomes for v in o.squares.values()]
        mean = sum(earned) / len(earned)
        lines.append(
            f"squares earned per bot: mean {mean:.1f}  min {min(earned)}  max {max(earned)}"
        )
        quiet = [o.quiet_ms / 1000 for o in outcomes]
        lines.append(
            "last change to the check (s): "
            + "  ".join(f"{name} {percentile(quiet, q):.0f}" for name, q in QUANTILES)
            + f"  max {max(quiet):.0f}"
        )
        on_wrong, on_right = fix_rates(outcomes)
        lines.append(
            f"fixes on the full board: {on_wrong:.0%} on a wrong square,"
            f" {on_right:.0%} on a right one"
        )
    return "\n".join(lines)


def fix_rates(outcomes: list[Outcome]) -> tuple[float, float]:
    """Of the letters bots typed over another on the full board: the share that replaced
    a wrong letter, and the share that replaced a right one."""
    wrong = sum(o.fixes["wrong"] for o in outcomes)
    right = sum(o.fixes["right"] for o in outcomes)
    total = wrong + right
    return (wrong / total, right / total) if total else (0.0, 0.0)
