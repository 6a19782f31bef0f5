"""How long a Duel bot takes to answer, by level and time control.

    python benchmarks/duel_bot_reply.py [--games 3] [--moves 16]

Plays seeded games of the pure match (the human seat makes the Solver's top play a
second after its turn starts) and, for each bot move, records its pause (when the
move falls due, `bots.think_ms`) and the time the server spends applying it
(`match.advance` at the due moment: choosing the move and making it). What a player
waits is the sum plus the page's tick, sent within 250 ms of the due time, and one
round trip. The bot's clock is never charged (docs/duel.md), so its time left is
checked to stay whole.
"""

from __future__ import annotations

import argparse
import statistics
import time

from crossing.duel import bots
from crossing.duel import game as G
from crossing.duel.match import Player, advance, start_match, step
from crossing.game_files import default_lexicon

LIMITS = {
    "3 min": 180_000,
    "5 min": 300_000,
    "10 min": 600_000,
    "20 min": 1_200_000,
    "Unlimited": None,
}
TICK_MS = 250  # the page checks its due time four times a second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--moves", type=int, default=16)
    args = parser.parse_args()
    lexicon = default_lexicon()
    bots.choose(G.start_duel(["a", "b"], 0, seed=999), "hard", lexicon)  # warm the caches
    human = Player("ann", "Ann", 1000)
    print(
        f"{'level':7} {'limit':9} {'moves':>5}  pause ms (min/median/max)"
        "  server ms (median/max)  worst reply ms"
    )
    for level in ("hard", "medium", "easy"):
        bot = Player(f"bot:{level}", level, 1000, bot=level)
        for label, limit in LIMITS.items():
            pauses, work = [], []
            for seed in range(args.games):
                match = start_match("g", (human, bot), 0, seed=seed, limit_ms=limit)
                now = 0
                while not match.over and len(match.duel.moves) < args.moves:
                    if match.duel.to_move == bot.id:
                        pauses.append(match.bot_due - now)
                        now = match.bot_due
                        start = time.perf_counter()
                        match, _ = advance(match, now, lexicon)
                        work.append((time.perf_counter() - start) * 1000)
                    else:
                        now += 1000
                        match, _ = step(
                            match, bots.choose(match.duel, "hard", lexicon), now, lexicon
                        )
                left = match.duel.time_left(bot.id, now)
                assert left == limit, f"the bot's clock was charged: {left} of {limit}"
            worst = max(pauses) + TICK_MS + max(work)
            print(
                f"{level:7} {label:9} {len(pauses):5}  {min(pauses):5} / "
                f"{statistics.median(pauses):6.0f} / {max(pauses):5}"
                f"        {statistics.median(work):6.1f} / {max(work):6.1f}        {worst:6.0f}"
            )


if __name__ == "__main__":
    main()
