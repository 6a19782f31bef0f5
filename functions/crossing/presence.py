"""A phone coming into whatever it is in, and going: the two actions a crossword room
(``rooms/room.py``) and a Duel match (``duel/match.py``) both take, defined once here
like ``seqs`` and ``refusals``, since neither game package may import the other's."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Connect:
    """``connection`` is one of ``player``'s phones, open on the room or the game."""

    player: str
    connection: str


@dataclass(frozen=True)
class Disconnect:
    """``connection`` closed: a player's phone, or a watch screen."""

    connection: str
