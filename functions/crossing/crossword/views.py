"""What of a game may be shown to whom, before the check.

A racer's board is shown to others only as squares-only progress: which
squares are filled and how much of the board that is, never a letter. What each
phone is sent is built in ``crossing.rooms.views``.
"""

from __future__ import annotations

from dataclasses import dataclass

from crossing.crossword.commands import EMPTY
from crossing.crossword.grid import Square
from crossing.crossword.race import Race


@dataclass(frozen=True)
class Progress:
    """Squares-only progress of one racer's board: no letters in it."""

    player: str
    filled: frozenset[Square]
    squares: int
    done: bool

    @property
    def fraction(self) -> float:
        return len(self.filled) / self.squares if self.squares else 0.0


def race_progress(race: Race, player: str) -> Progress:
    racer = race.players[player]
    filled = frozenset(sq for sq in race.puzzle.white_squares if racer.letters[sq] != EMPTY)
    return Progress(player, filled, len(race.puzzle.white_squares), racer.done)
