"""A store whose connection records are also held in memory, for a process that is
their only writer (the local stack): the keystroke's connection lookup costs no request.

Every write still goes to the store first, so a restart reads them all back; where
many processes write connections (Lambdas) this is not used.
"""

from __future__ import annotations

from typing import Any

from crossing.rooms.ports import Store


class HeldConnections:
    """``Store``, with ``get_connection`` answered from memory once seen or written."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._held: dict[str, tuple[str, str] | None] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def get_connection(self, connection: str) -> tuple[str, str] | None:
        if connection in self._held:
            return self._held[connection]
        found = self._store.get_connection(connection)
        self._held[connection] = found
        return found

    def put_connection(self, connection: str, room: str, player: str, expires_at: int) -> None:
        self._held.pop(connection, None)  # if the write fails, the store says what is there
        self._store.put_connection(connection, room, player, expires_at)
        self._held[connection] = (room, player)

    def delete_connection(self, connection: str) -> None:
        self._held.pop(connection, None)
        self._store.delete_connection(connection)

    def forget(self) -> None:
        """Read every record from the store again (a write the store took back)."""
        self._held.clear()
