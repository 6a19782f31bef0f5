"""A store whose connection records are also held in memory, for a process that is
their only writer (the local stack): the keystroke's connection lookup costs no request.

Every write still goes to the store first, so a restart reads them all back; where
many processes write connections (Lambdas) this is not used. Where a few local
processes share the rooms out (``local/workers.py``), each holds only the records of
the sockets it holds (``mine``), and one that writes another's record tells its holder
(``elsewhere``) to read it again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from crossing.rooms.ports import Store


class HeldConnections:
    """``Store``, with ``get_connection`` answered from memory once seen or written."""

    def __init__(
        self,
        store: Store,
        mine: Callable[[str], bool] = lambda connection: True,
        elsewhere: Callable[[str], None] = lambda connection: None,
    ) -> None:
        self._store = store
        self._held: dict[str, tuple[str, str] | None] = {}
        self._lock = threading.Lock()
        self._mine = mine
        self._elsewhere = elsewhere

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def get_connection(self, connection: str) -> tuple[str, str] | None:
        if not self._mine(connection):
            return self._store.get_connection(connection)
        with self._lock:
            if connection in self._held:
                return self._held[connection]
        found = self._store.get_connection(connection)
        with self._lock:
            self._held.setdefault(connection, found)
        return found

    def held(self, connection: str) -> tuple[str, str] | None:
        """``connection``'s record if it is held in memory, without asking the store (for
        an event loop, which must never wait on it); None if not held, or none."""
        with self._lock:
            return self._held.get(connection)

    def put_connection(self, connection: str, room: str, player: str, expires_at: int) -> None:
        self.forget(connection)  # a reader racing this write must not keep the old
        self._store.put_connection(connection, room, player, expires_at)
        if self._mine(connection):
            with self._lock:
                self._held[connection] = (room, player)
        else:
            self._elsewhere(connection)

    def delete_connection(self, connection: str) -> None:
        self.forget(connection)
        self._store.delete_connection(connection)
        if self._mine(connection):
            self.forget(connection)
        else:
            self._elsewhere(connection)

    def forget(self, connection: str) -> None:
        """Read ``connection``'s record from the store next time (another process wrote it)."""
        with self._lock:
            self._held.pop(connection, None)
