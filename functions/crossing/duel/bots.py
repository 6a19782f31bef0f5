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
from crossing.tiles.lexicon import Lexicon, default_lexicon
from crossing.tiles.movegen import Move, generate

BANDS = {"hard": (1.0, 1.0), "medium": (0.55, 0.85), "easy": (0.25, 0.6)}
EASY_SWAP = 0.08
THINK_MS = {"hard": (2500, 5000), "medium": (4000, 8000), "easy": (6000, 12000)}


def think_ms(level: str, rng: random.Random) -> int:
    """How long after the human's move the bot's move falls due."""
    low, high = THINK_MS[level]
    return rng.randint(low, high)


def choose(duel: Duel, level: str, lexicon: Lexicon | None = None) -> DuelCommand:
    """The bot's move for the player to move."""
    if level not in BANDS:
        raise ValueError(f"a bot's level is easy, medium or hard, not {level!r}")
    seat = duel.seats[duel.turn]
    rng = random.Random(f"duel-bot:{duel.seed}:{len(duel.moves)}:{level}")
    # Hard needs only the best play: the top-1 search skips anchors that cannot win.
    top = 1 if level == "hard" else None
    plays = generate(duel.board, seat.rack, RULES, lexicon or default_lexicon(), top=top)
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
