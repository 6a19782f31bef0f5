"""Telling many phones at once: concurrent, bounded, best-effort per connection.

Each connection's messages go out in order (its ack before its room patch); the
connections themselves are posted to side by side, at most ``WORKERS`` at a time.
A post that fails is logged and counted and never stops the others: the write it
reports has happened, and a phone that missed a version sees the gap and asks
for a snapshot. A connection that answers gone (410) is returned for removal. A
``Connections`` whose ``queued`` is true returns from ``send`` at once (the local
engine keeps a round's messages until its commit), and is posted to from the calling
thread.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from crossing.rooms.ports import Connections

WORKERS = 16

log = logging.getLogger(__name__)
_pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="fan-out")


class FanOut:
    def __init__(self, connections: Connections) -> None:
        self.connections = connections
        self.failed = 0  # posts that raised: counted for the operator, never raised

    def send(self, messages: Sequence[tuple[str, Mapping[str, Any]]]) -> list[str]:
        """Post every message; return the connections that are gone."""
        by_connection: dict[str, list[Mapping[str, Any]]] = {}
        for connection, message in messages:
            by_connection.setdefault(connection, []).append(message)
        items = list(by_connection.items())
        # Connections that only queue (the local stack's sockets) are posted to in this
        # thread: handing each to a worker would cost more than the post.
        if len(items) == 1 or getattr(self.connections, "queued", False):
            results = [self._post(*item) for item in items]
        else:
            results = list(_pool.map(lambda item: self._post(*item), items))
        return [connection for (connection, _), ok in zip(items, results, strict=True) if not ok]

    def _post(self, connection: str, messages: list[Mapping[str, Any]]) -> bool:
        for message in messages:
            try:
                if not self.connections.send(connection, message):
                    return False
            except Exception:
                self.failed += 1
                log.exception("post to %s failed", connection)
                return True  # not gone: it may hear the next version and repair the gap
        return True
