"""What a player (or the room) asks a crossword game to do, and how it says no.

Both modes take the same commands; ``step(state, command, now)`` in
``race`` and ``together`` applies them.
"""

from __future__ import annotations

from dataclasses import dataclass

from crossing.crossword.grid import Square
from crossing.refusals import Refused as Refused  # re-exported: rooms raise it from here

EMPTY = "."


@dataclass(frozen=True)
class Type:
    player: str
    square: Square
    letter: str


@dataclass(frozen=True)
class Clear:
    player: str
    square: Square


@dataclass(frozen=True)
class Undo:
    player: str


@dataclass(frozen=True)
class Done:
    player: str


@dataclass(frozen=True)
class TakeBack:
    """Take Done back: the keyboard comes back on (and a racer's clock runs again)."""

    player: str


@dataclass(frozen=True)
class Join:
    """A player takes a seat: at the start, or late, or coming back after leaving."""

    player: str


@dataclass(frozen=True)
class Leave:
    """Back to the lobby, or away past the grace period: no longer waited for."""

    player: str


@dataclass(frozen=True)
class Away:
    """The phone dropped or slept; the seat is kept (the room runs the grace period)."""

    player: str


@dataclass(frozen=True)
class Back:
    player: str


@dataclass(frozen=True)
class Pause:
    pass


@dataclass(frozen=True)
class Resume:
    pass


@dataclass(frozen=True)
class End:
    """The host checks the boards as they stand."""


@dataclass(frozen=True)
class Tick:
    """Nothing but time passing: applies whatever has fallen due."""


Command = (
    Type | Clear | Undo | Done | TakeBack | Join | Leave | Away | Back | Pause | Resume | End | Tick
)


def clean_letter(letter: str) -> str:
    """One letter A-Z, case-folded, or Refused."""
    if (
        not isinstance(letter, str)
        or len(letter) != 1
        or not letter.isascii()
        or not letter.isalpha()
    ):
        raise Refused("bad-letter", f"{letter!r} is not a letter A to Z.")
    return letter.upper()
