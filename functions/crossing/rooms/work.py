"""What a round applies (``RoomService.apply``): the work both stacks hand the rooms.

The local engine hands every kind at once, in the order it came; the cloud's queue
consumer hands ``Queued`` frames (``ports.Queued``), the frames of one room.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crossing.rooms.ports import Queued


@dataclass(frozen=True)
class Frame:
    """A phone's frame, as its bytes arrived (``arrived``: ms, stamped by the reader;
    ``source``: the phone's network address)."""

    connection: str
    body: str | bytes | None
    arrived: int
    binary: bool = False
    source: str | None = None


@dataclass(frozen=True)
class Left:
    """A phone's socket closed (not by a server stopping: a restart keeps every seat)."""

    connection: str


@dataclass(frozen=True)
class Due:
    """A room's or game's due event (a time limit, a grace period, a bot's turn)."""

    room: str
    version: int | None = None


@dataclass(frozen=True)
class Resumed:
    """The server is back after being away since ``since`` (ms; the local server's last
    sign of life): the room's clocks stand still for that time. Duel games pause; a
    crossword room has no clock charged to a player and is left as it is."""

    room: str
    since: int


@dataclass(frozen=True)
class Later:
    """Something to do with the rooms once a slow thing done off the engine has finished
    (what a push service answered)."""

    do: Callable[[], object]


Work = Frame | Queued | Left | Due | Resumed | Later
