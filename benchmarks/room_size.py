"""How big a room item gets, and what writing it costs: a Large Together game, 8 players.

    python benchmarks/room_size.py [--letters 400]

Each player types ``--letters`` letters (mostly right, some wrong, some cleared,
some undone) on an 11x11 board; prints the stored size (what DynamoDB holds) and
the raw JSON size, against the 400 KB item limit, what the local store rewrites at a
keystroke (the state without its parts), and the CPU time of turning the room into its
stored form after each of 400 more keystrokes (what every write pays).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import time

from crossing.crossword.commands import Clear, Refused, Type, Undo
from crossing.rooms import room as R
from crossing.rooms.simulate import synthetic_puzzle
from crossing.rooms.storage import dump_room

LIMIT = 400 * 1024


def keystrokes(room: R.Room, count: int, seed: int = 2) -> float:
    """Mean CPU ms of storing the room after each of ``count`` more letters."""
    assert room.game is not None
    rng = random.Random(seed)
    players = list(room.game.players)
    puzzle = room.game.puzzle
    took, now = 0.0, 10**9
    dump_room(room)  # as the server has: the room it holds was stored at its last write
    for _ in range(count):
        now += 250
        p, sq = rng.choice(players), rng.choice(puzzle.white_squares)
        with contextlib.suppress(Refused):
            room, _ = R.step(room, R.Play(p, Type(p, sq, rng.choice("ABCDE"))), now)
        began = time.process_time()
        dump_room(room)
        took += time.process_time() - began
    return took / count * 1000


def build(letters: int, seed: int = 1) -> R.Room:
    puzzle = synthetic_puzzle(11, seed)
    players = [f"p{i:02d}" + "x" * 10 for i in range(8)]  # ids as long as real ones (12 chars)
    room = R.new_room("ABCDEF", players[0], "Player 0")
    for p in players[1:]:
        room, _ = R.step(room, R.JoinRoom(p, f"Player {p[:3]}"), 0)
    room, _ = R.step(room, R.ToGame(players[0]), 0)
    room, _ = R.step(room, R.Choose(players[0], R.Mode.TOGETHER, R.Size.LARGE), 0)
    room, _ = R.step(room, R.Start(players[0], puzzle=puzzle), 0)
    rng = random.Random(seed)
    whites = puzzle.white_squares
    now = 0
    for _ in range(letters * len(players)):
        now += 250
        p = rng.choice(players)
        roll = rng.random()
        sq = rng.choice(whites)
        if roll < 0.75:
            command = Type(p, sq, puzzle.solution[sq] if rng.random() < 0.8 else "Q")
        elif roll < 0.9:
            command = Clear(p, sq)
        else:
            command = Undo(p)
        with contextlib.suppress(Refused):  # e.g. undo with nothing left: a player would see why
            room, _ = R.step(room, R.Play(p, command), now)
    return room


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--letters", type=int, default=400, help="letters typed per player")
    args = parser.parse_args()
    room = build(args.letters)
    history = sum(len(m.history) for m in room.game.players.values())
    stored = len(json.dumps(dump_room(room), separators=(",", ":")))
    from pydantic import TypeAdapter

    raw = len(json.dumps(TypeAdapter(R.Room).dump_python(room, mode="json"), separators=(",", ":")))
    print(f"Large Together, 8 players, {args.letters} actions each: {history} undo entries kept")
    print(f"stored item: {stored:,} bytes ({stored / LIMIT:.1%} of DynamoDB's 400 KB)")
    print(f"raw JSON:    {raw:,} bytes ({raw / LIMIT:.1%}); compression {raw / stored:.1f}x")
    state = dump_room(room)
    # The local store keeps each part as a row of its own: a keystroke rewrites the rest.
    head = len(json.dumps({**state, "parts": sorted(state.get("parts", ()))}))
    print(f"of which the local store rewrites at a keystroke: {head:,} bytes")
    print(f"storing it after a keystroke: {keystrokes(room, 400):.2f} ms of CPU")


if __name__ == "__main__":
    main()
