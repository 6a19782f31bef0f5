"""How long a Duel bot takes to choose a move on mid-game boards.

    python benchmarks/duel_bot.py [--games 10] [--level hard]

Plays seeded games between two bots of the level and times ``bots.choose`` on
every move from the 6th on (the board has words to build on), after one warm-up
move that fills the lexicon's caches.
"""

from __future__ import annotations

import argparse
import statistics
import time

from crossing.duel import bots
from crossing.duel.game import start_duel, step
from crossing.game_files import default_lexicon


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--level", default="hard", choices=sorted(bots.BANDS))
    args = parser.parse_args()
    lexicon = default_lexicon()
    bots.choose(start_duel(["a", "b"], 0, seed=999), args.level, lexicon)  # warm-up
    times = []
    for seed in range(args.games):
        d = start_duel(["a", "b"], 0, seed=seed)
        while not d.over and len(d.moves) < 40:
            start = time.perf_counter()
            command = bots.choose(d, args.level, lexicon)
            if len(d.moves) >= 5:
                times.append((time.perf_counter() - start) * 1000)
            d, _ = step(d, command, len(d.moves) * 1000, lexicon)
    times.sort()
    print(
        f"{args.level} bot, {len(times)} mid-game moves in {args.games} games: "
        f"median {statistics.median(times):.1f} ms, p95 {times[int(0.95 * len(times))]:.1f} ms, "
        f"max {times[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
