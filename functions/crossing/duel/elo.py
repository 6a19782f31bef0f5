"""Elo ratings for Duel: everyone registered starts at 1000; guests are not rated.

Which games count is ``match.rating_steps``; this module is the arithmetic, and when
a rating is provisional.

After a game each rated player moves by ``K × (result − expected)``, where the
result is 1 for a win, ½ for a draw, 0 for a loss, and the expected result is
``1 / (1 + 10^((opponent − own) / 400))``. Beating a higher-rated player moves
you more than beating a lower-rated one. docs/duel.md explains the choice of K.
"""

from __future__ import annotations

from dataclasses import dataclass

START = 1000
K = 32  # a moderate step: ratings settle within a few dozen games, as in club chess
PROVISIONAL_GAMES = 10
"""Rated games an account finishes before its rating counts for anyone else's: until
then it is provisional, and a game against it moves no opponent's rating, so points
cannot be farmed from throwaway accounts (docs/duel.md, "Ratings")."""


def provisional(games: int | None) -> bool:
    """Whether an account of ``games`` rated games has a provisional rating; None: not
    known (a game stored before they were kept), taken as established."""
    return games is not None and games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Standing:
    """An account's rating and how many rated games it has finished (aborted ones do
    not count)."""

    rating: int = START
    games: int = 0

    @property
    def provisional(self) -> bool:
        return provisional(self.games)


def expected(own: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - own) / 400))


def updated(own: int, opponent: int, result: float) -> int:
    """A rating after one game; ``result`` is 1, 0.5 or 0."""
    if result not in (0, 0.5, 1):
        raise ValueError("a result is 1 (win), 0.5 (draw) or 0 (loss)")
    return round(own + K * (result - expected(own, opponent)))
