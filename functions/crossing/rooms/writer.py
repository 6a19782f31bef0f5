"""What the router and the services behind it (identity, entering rooms, a room's actions,
notifications) may ask of the crossword rooms' writer, ``RoomService``: its ports, and
the five things only the writer does. They are given the writer as this ``RoomWriter``
and import nothing of ``service.py``, which builds them: so the services depend on this
interface, and the writer on the services, never round in a circle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from crossing.crossword.puzzle import Puzzle
from crossing.rooms import protocol as P
from crossing.rooms import room as R
from crossing.rooms.duel_desk import DuelDesk
from crossing.rooms.ports import Accounts, Connections, Push, Store
from crossing.rooms.sent import Sent

NO_ROOM = "This room no longer exists."

Change = Callable[[R.Room, int], Any]
"""A change to a room as of ``now``: ``(room, now) -> (room, events)``, a room step."""


def room_step(action: R.RoomAction) -> Change:
    """The room's own step with ``action``: what most messages ask of the writer."""
    return lambda room, now: R.step(room, action, now)


class RoomWriter(Protocol):
    store: Store
    connections: Connections
    clock: Callable[[], int]
    rng: random.Random
    push: Push | None
    accounts: Accounts | None
    duel: DuelDesk

    def mutate(
        self,
        code: str,
        change: Change,
        *,
        connection: str | None = None,
        seq: int | None = None,
        player: str | None = None,
        arrived: int | None = None,
        missing: str = NO_ROOM,
    ) -> Sent:
        """Apply ``change`` to the room through its one writer; raise its refusal here.
        With ``connection`` and ``seq`` it is acknowledged; with ``player`` it counts
        against their pace and is applied once however often it comes."""
        ...

    def snapshot(self, connection: str, code: str, viewer: str | None) -> Sent:
        """Send the connection the room as ``viewer`` sees it, whole."""
        ...

    def start_action(
        self, code: str, player: str, m: P.Start
    ) -> tuple[Callable[[R.Room], Any], Puzzle | None]:
        """The ``Start`` a host's start message makes (a deal, or a saved board picked
        up), and the puzzle dealt: the reads it needs, done before the write."""
        ...

    def dealt(self, host: str, puzzle: Puzzle, phone: Sequence[str] = ()) -> None:
        """Record a deal in a signed-in host's profile, once its start is written."""
        ...

    def drop(self, code: str, connection: str) -> None:
        """Take a connection out of the room or Duel game it was in."""
        ...
