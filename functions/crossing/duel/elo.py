"""Elo ratings for Duel: everyone registered starts at 1000; guests are not rated.

Which games count is ``match.rating_steps``; this module is only the arithmetic.

After a game each rated player moves by ``K × (result − expected)``, where the
result is 1 for a win, ½ for a draw, 0 for a loss, and the expected result is
``1 / (1 + 10^((opponent − own) / 400))``. Beating a higher-rated player moves
you more than beating a lower-rated one. docs/duel.md explains the choice of K.
"""

from __future__ import annotations

START = 1000
K = 32  # a moderate step: ratings settle within a few dozen games, as in club chess


def expected(own: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - own) / 400))


def updated(own: int, opponent: int, result: float) -> int:
    """A rating after one game; ``result`` is 1, 0.5 or 0."""
    if result not in (0, 0.5, 1):
        raise ValueError("a result is 1 (win), 0.5 (draw) or 0 (loss)")
    return round(own + K * (result - expected(own, opponent)))
