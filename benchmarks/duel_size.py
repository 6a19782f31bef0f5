"""What one Duel costs in storage and requests.

    python benchmarks/duel_size.py [--games 3]

Plays whole seeded Hard-vs-Easy bot games and prints the stored size of each
finished game item; then counts the store and timer requests of one play made
through the service, as a phone's message is.
"""

from __future__ import annotations

import argparse
import json
import random

from crossing.aws.memory import ManualTimers, MemoryPacks, MemoryStore, RecordingConnections
from crossing.duel.match import Player, advance, start_match
from crossing.game_files import default_lexicon
from crossing.rooms.service import RoomService
from crossing.rooms.storage import dump_match, load_match


def stored_sizes(games: int) -> None:
    bots = (
        Player("bot:hard", "Hard bot", 1000, bot="hard"),
        Player("bot:easy", "Easy bot", 1000, bot="easy"),
    )
    for seed in range(games):
        match = start_match("g-" + "x" * 12, bots, 0, seed=seed, limit_ms=None)
        match, _ = advance(match, 10**9, default_lexicon())
        size = len(json.dumps(dump_match(match), separators=(",", ":")))
        print(f"game {seed}: {len(match.duel.moves)} moves, stored item document {size} bytes")


def requests_per_play() -> None:
    now = [1_800_000_000_000]
    store, timers = MemoryStore(), ManualTimers()
    service = RoomService(
        store,
        RecordingConnections(),
        timers,
        MemoryPacks([]),
        clock=lambda: now[0],
        rng=random.Random(1),
        sleep=lambda s: None,
    )
    seq = iter(range(1, 10**6))

    def send(connection: str, action: str, **fields) -> None:
        service.receive(connection, json.dumps({"action": action, "seq": next(seq), **fields}))

    for c in ("a", "b"):
        send(c, "hello")
    send("a", "duel_seek", limit=300_000)
    seek = next(iter(json.loads(store.docs[("LOBBY", "DUEL")][0])["seeks"]))
    send("b", "duel_accept", seek=seek)
    game = next(k[0][5:] for k in store.docs if k[0].startswith("GAME#"))
    # Whoever is to move skips a few seconds in: one turn, the path a play takes.
    mover = load_match(json.loads(store.docs[("GAME#" + game, "STATE")][0])).duel.to_move
    connection = "a" if store.connections["a"][1] == mover else "b"
    store.requests.clear()
    timers.requests.clear()
    now[0] += 5_000
    send(connection, "duel_skip")
    print("one turn through the service:", dict(store.requests), dict(timers.requests))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    stored_sizes(args.games)
    requests_per_play()


if __name__ == "__main__":
    main()
