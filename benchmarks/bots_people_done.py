"""How long people who are done on a right Together board wait for the bots' check.

    python benchmarks/bots_people_done.py --size large --level hard [--bots 2] [--runs 100]

A person and the bots play a Together game of the built packs' puzzles through the
room's own step, with no server (time jumps from one due event to the next). After
``--after`` seconds the person puts every square right at once and taps We're done;
the game then runs to its check. Printed: the game time from that last letter to the
check (issue 36: 573 s with two Hard bots on a Large).
"""

from __future__ import annotations

import argparse

from crossing.cli import pack_puzzles
from crossing.crossword.commands import Done, Type
from crossing.crossword.sizes import Size
from crossing.rooms import room as R
from crossing.rooms.simulate import QUANTILES, percentile, synthetic_puzzle

T0 = 1_000_000


def wait_for_check(puzzle, level: str, bots: int, seed: int, after_ms: int) -> float:
    """Seconds of game time from the person's last letter and Done to the check."""
    room = R.new_room("PEOPLE", "host", "Hana", seed=seed)
    room, _ = R.step(room, R.Connect("host", "c1"), T0)
    for _ in range(bots):
        room, _ = R.step(room, R.AddBot("host", level), T0)
    room, _ = R.step(room, R.ToGame("host"), T0)
    room, _ = R.step(room, R.Choose("host", R.Mode.TOGETHER, Size.for_width(puzzle.width)), T0)
    room, _ = R.step(room, R.Start("host", puzzle=puzzle), T0)
    now = T0 + after_ms
    room, _ = R.advance(room, now)
    for sq in puzzle.white_squares:
        if room.game.board[sq].letter != puzzle.solution[sq]:
            room, _ = R.step(room, R.Play("host", Type("host", sq, puzzle.solution[sq])), now)
    room, _ = R.step(room, R.Play("host", Done("host")), now)
    done_ms = room.game.clock.read(now)
    while room.phase is R.Phase.PLAYING and (due := room.due_at()) is not None:
        room, _ = R.advance(room, due)
    if room.game.result is None:
        raise RuntimeError("the game never reached a check")
    return (room.game.clock.read(0) - done_ms) / 1000  # the clock stops at the check


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=[s.value for s in Size], default="large")
    parser.add_argument("--level", choices=["easy", "medium", "hard"], default="hard")
    parser.add_argument("--bots", type=int, default=2)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--after", type=int, default=60, help="seconds the bots play first")
    args = parser.parse_args()
    size = Size(args.size)
    puzzles = pack_puzzles(None, size) or [synthetic_puzzle(size.width, s) for s in range(20)]
    waits = [
        wait_for_check(puzzles[i % len(puzzles)], args.level, args.bots, i, args.after * 1000)
        for i in range(args.runs)
    ]
    print(
        f"{args.runs} {size.value} games, {args.bots} {args.level} bot(s), a person puts the "
        f"board right and taps We're done at {args.after} s; then to the check (s): "
        + "  ".join(f"{name} {percentile(waits, q):.0f}" for name, q in QUANTILES)
        + f"  max {max(waits):.0f}"
    )


if __name__ == "__main__":
    main()
