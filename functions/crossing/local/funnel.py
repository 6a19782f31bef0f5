"""While the first serving process is lightly loaded, it serves every phone.

With ``crossing serve --workers N`` a new connection goes to whichever process
accepts it first, and a room to the process its code names (``workers.owner``): so
the phones of one room end up in both, each frame of those held elsewhere is handed
to the room's owner, and each post to them crosses back. A Large room of eight then
costs a fifth more CPU a letter than on one process, for no gain: a few rooms need
no second core. So, while the first process holds fewer than ``FUNNEL_BELOW``
phones, the others pass it every connection they accept, at once, before reading a
byte of it: the socket itself, over a Unix datagram socket (``SCM_RIGHTS``), which
the first serves as if it had accepted it (``Intake``). A room is owned by the
process that made it (``Runner.new_name``), so at light load every room and every
phone is in the first process. Past that, each serves what it accepts, as before,
and the rooms are shared out by their codes. docs/architecture.md, "Light load: one
process serves it all", has the design and its figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from typing import Any

FUNNEL_BELOW = 24
"""Phones the first process serves before the others serve what they accept: three
Large rooms of eight. The rooms made meanwhile stay the first's, so under heavy load it
applies that many more than its share (fifty rooms of six on two processes: with 64,
about 30 of the 50 rooms, and the ack p99 went from 136 to 220 ms; with 24, about 27)."""
PASSED_AT_ONCE = 16
"""Sockets taken from one datagram at most (each carries one)."""

log = logging.getLogger(__name__)


def pair() -> tuple[socket.socket, socket.socket]:
    """The first process's end (it reads), and the end the others share (they send)."""
    inbox, outbox = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    inbox.setblocking(False)
    return inbox, outbox


class Intake:
    """In the first process: serves the sockets the others pass, and tells them when it
    stops (or starts again) taking more. ``tell(taking)`` tells every other process."""

    def __init__(self, inbox: socket.socket, below: int, tell: Callable[[bool], None]) -> None:
        self.inbox = inbox
        self.below = below
        self.taking = below > 0
        self._tell = tell
        self._serve: Callable[[socket.socket], None] | None = None

    def start(
        self, loop: asyncio.AbstractEventLoop, serve: Callable[[socket.socket], None]
    ) -> None:
        """Take passed sockets on ``loop`` from now on, each served by ``serve``."""
        self._serve = serve
        loop.add_reader(self.inbox.fileno(), self._take)

    def holding(self, phones: int) -> None:
        """This process now holds ``phones`` sockets."""
        taking = phones < self.below
        if taking != self.taking:
            self.taking = taking
            self._tell(taking)

    def _take(self) -> None:
        assert self._serve is not None
        while True:
            try:
                _, fds, _, _ = socket.recv_fds(self.inbox, 1, PASSED_AT_ONCE)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                log.exception("taking a passed connection failed")
                return
            for fd in fds:
                passed = socket.socket(fileno=fd)
                try:
                    self._serve(passed)
                except Exception:
                    log.exception("serving a passed connection failed")
                    passed.close()


class Outlet:
    """In every other process: passes each connection it accepts to the first while the
    first is taking them (what the first last told), else serves it here. ``protocol``
    wraps uvicorn's HTTP protocol class as the factory uvicorn builds each connection's
    protocol with."""

    def __init__(self, outbox: socket.socket) -> None:
        outbox.setblocking(False)  # a first process that stopped reading is not waited for
        self.outbox = outbox
        self.taking = True  # the first starts with no phones

    def told(self, taking: bool) -> None:
        self.taking = taking

    def protocol(self, serving: Callable[..., asyncio.Protocol]) -> Callable[..., asyncio.Protocol]:
        def made(**options: Any) -> asyncio.Protocol:
            here = lambda: serving(**options)  # noqa: E731
            return _Passing(self, here) if self.taking else here()

        return made


class _Passing(asyncio.Protocol):
    """A connection just accepted, passed to the first process before anything is read
    from it; served here after all if it cannot be passed (the first has gone)."""

    def __init__(self, outlet: Outlet, here: Callable[[], asyncio.Protocol]) -> None:
        self._outlet = outlet
        self._here = here

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        sock = transport.get_extra_info("socket")
        try:
            socket.send_fds(self._outlet.outbox, [b"c"], [sock.fileno()])
        except OSError:
            protocol = self._here()
            transport.set_protocol(protocol)
            protocol.connection_made(transport)
            return
        # The other process holds the connection now: closing this copy of the socket
        # sends nothing to the phone (abort neither shuts it down nor lingers).
        with contextlib.suppress(OSError):
            transport.abort()
