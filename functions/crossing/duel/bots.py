"""Duel bots: the Solver's ranked plays, and a level that decides which one to make.

- Hard makes the top-scoring play.
- Medium picks from the plays scoring 55–85 % of the best, so it plays well but
  not perfectly.
- Easy picks from the plays scoring 25–60 % of the best, and sometimes swaps a
  tile instead, as a beginner does with an awkward rack.
When nothing fits a level's band it takes the play nearest the band. With no
legal play at all it swaps (a tile it holds twice, else its highest-value tile)
while the bag has tiles, and skips when it is empty. The choice comes from the
seed and the move number, so a bot game replays exactly.
"""

from __future__ import annotations

import random

from crossing.duel.game import RULES, Duel, DuelCommand, Place, Skip, Swap
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.movegen import Move, generate

BANDS = {"hard": (1.0, 1.0), "medium": (0.55, 0.85), "easy": (0.25, 0.6)}
EASY_SWAP = 0.08
# The pause before a bot's move, in a game of ten minutes or more (or Unlimited): long
# enough to see its move land as a move, short enough that nobody waits on it. With the
# page's tick (within 250 ms) and the server's work, Hard answers within 1.5 s and Easy
# within 3 s (benchmarks/duel_bot_reply.py).
THINK_MS = {"hard": (600, 1200), "medium": (1000, 1900), "easy": (1500, 2600)}
FULL_PAUSE_FROM_MS = 10 * 60_000
SHORTEST_PAUSE = 0.4  # the share of the pause kept in the shortest game (3 minutes)


def think_ms(level: str, limit_ms: int | None, rng: random.Random) -> int:
    """How long after the human's move the bot's move falls due: shorter in short games.

    The pause is never charged to the bot's clock (``match._after_turn``), so it only
    sets the pace of the game, never its result.
    """
    low, high = THINK_MS[level]
    share = 1.0
    if limit_ms is not None and limit_ms < FULL_PAUSE_FROM_MS:
        share = max(SHORTEST_PAUSE, limit_ms / FULL_PAUSE_FROM_MS)
    return round(rng.randint(low, high) * share)


def choose(duel: Duel, level: str, lexicon: Lexicon) -> DuelCommand:
    """The bot's move for the player to move."""
    if level not in BANDS:
        raise ValueError(f"a bot's level is easy, medium or hard, not {level!r}")
    seat = duel.seats[duel.turn]
    rng = random.Random(f"duel-bot:{duel.seed}:{len(duel.moves)}:{level}")
    # Hard needs only the best play: the top-1 search skips anchors that cannot win.
    top = 1 if level == "hard" else None
    plays = generate(duel.board, seat.rack, RULES, lexicon, top=top)
    if not plays or (level == "easy" and duel.bag and rng.random() < EASY_SWAP):
        return _fallback(duel)
    best = plays[0].score
    low, high = BANDS[level]
    band = [m for m in plays if low * best <= m.score <= high * best]
    if not band:
        target = (low + high) / 2 * best
        band = [min(plays, key=lambda m: abs(m.score - target))]
    move: Move = rng.choice(band) if level != "hard" else plays[0]
    return Place(seat.player, tuple((t.row, t.col, t.letter) for t in move.tiles))


def _fallback(duel: Duel) -> DuelCommand:
    seat = duel.seats[duel.turn]
    if not duel.bag:
        return Skip(seat.player)
    twice = [ch for ch in seat.rack if seat.rack.count(ch) > 1]
    letter = twice[0] if twice else max(seat.rack, key=lambda ch: RULES.values[ch])
    return Swap(seat.player, letter)
