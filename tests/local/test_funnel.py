"""Passing a just-accepted connection to the first serving process (``local/funnel.py``),
in one process: the socket passed is the phone's very connection, and one that cannot
be passed is served where it was accepted."""

from __future__ import annotations

import asyncio
import select
import socket
from typing import ClassVar

from crossing.local import funnel


class Echo(asyncio.Protocol):
    """What serving a connection here looks like: it answers what it is sent."""

    served: ClassVar[list[Echo]] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        Echo.served.append(self)

    def data_received(self, data: bytes) -> None:
        self.transport.write(data)


def passed_socket(inbox: socket.socket) -> socket.socket:
    assert select.select([inbox], [], [], 5)[0], "nothing was passed"
    _, fds, _, _ = socket.recv_fds(inbox, 1, 4)
    assert len(fds) == 1
    return socket.socket(fileno=fds[0])


def test_a_connection_passed_on_is_the_phones_own_and_one_that_cannot_be_is_served_here():
    async def play() -> None:
        inbox, outbox = funnel.pair()
        outlet = funnel.Outlet(outbox)
        Echo.served.clear()
        server = await asyncio.get_running_loop().create_server(
            outlet.protocol(lambda **options: Echo()), "127.0.0.1", 0
        )
        port = server.sockets[0].getsockname()[1]

        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        passed = await asyncio.to_thread(passed_socket, inbox)
        with passed:
            passed.sendall(b"from the first")
            assert await reader.readexactly(14) == b"from the first"
            writer.write(b"to the first")
            await writer.drain()
            passed.settimeout(5)
            assert passed.recv(64) == b"to the first"
        assert Echo.served == []  # nothing of it was served where it was accepted
        writer.close()

        outlet.told(False)  # the first holds enough phones: served here
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"here")
        assert await reader.readexactly(4) == b"here"
        writer.close()

        outlet.told(True)
        inbox.close()  # the first has gone: served here after all, nothing lost
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"still here")
        assert await reader.readexactly(10) == b"still here"
        assert len(Echo.served) == 2
        writer.close()
        server.close()
        outbox.close()

    asyncio.run(play())


def test_the_first_process_tells_the_others_only_when_it_starts_or_stops_taking_phones():
    inbox, outbox = funnel.pair()
    told: list[bool] = []
    intake = funnel.Intake(inbox, 3, told.append)
    for holding in (1, 2, 3, 4, 3, 2, 1, 3):
        intake.holding(holding)
    assert told == [False, True, False]
    inbox.close()
    outbox.close()
