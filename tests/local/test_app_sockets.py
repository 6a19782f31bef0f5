"""The local stack's sockets as the rooms' ``Connections``: a send queues and returns,
each phone's messages leave in the order they were sent, and a phone that has stopped
reading is closed and counted gone rather than queued for without end."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from crossing.local.app import MAX_WAITING, Sockets


class FakeSocket:
    """A WebSocket whose sends can be held up, as a phone that stops reading holds them."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.sent: list[Any] = []
        self.closed: int | None = None
        self.reading = asyncio.Event()
        loop.call_soon_threadsafe(self.reading.set)

    async def send_text(self, text: str) -> None:
        await self.reading.wait()
        self.sent.append(json.loads(text))

    async def close(self, code: int = 1000) -> None:
        self.closed = code


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=5)


def until(check: Any, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def test_each_phone_gets_its_messages_in_order_from_many_threads(
    loop: asyncio.AbstractEventLoop,
) -> None:
    sockets = Sockets()
    sockets.loop = loop
    phones = {f"c{i}": FakeSocket(loop) for i in range(4)}
    sockets.open.update(phones)  # type: ignore[arg-type]

    def post(connection: str) -> None:
        for n in range(200):
            assert sockets.send(connection, {"n": n})

    threads = [threading.Thread(target=post, args=(c,)) for c in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    until(lambda: all(len(p.sent) == 200 for p in phones.values()))
    assert all([m["n"] for m in p.sent] == list(range(200)) for p in phones.values())
    assert sockets.send("gone", {"n": 0}) is False  # never opened, or closed: a 410


def test_a_phone_that_stopped_reading_is_closed_and_gone(loop: asyncio.AbstractEventLoop) -> None:
    sockets = Sockets()
    sockets.loop = loop
    stuck = FakeSocket(loop)
    loop.call_soon_threadsafe(stuck.reading.clear)
    until(lambda: not stuck.reading.is_set())
    sockets.open["stuck"] = stuck  # type: ignore[assignment]
    results = [sockets.send("stuck", {"n": n}) for n in range(MAX_WAITING + 2)]
    # MAX_WAITING wait in the queue, and one more may be in the writer's hands already.
    first_refused = results.index(False)
    assert first_refused in (MAX_WAITING, MAX_WAITING + 1)
    until(lambda: stuck.closed == 1008)
    loop.call_soon_threadsafe(stuck.reading.set)  # its writer finishes before the loop stops
    until(lambda: not sockets._writers)


def test_a_phone_held_up_a_while_gets_every_message_in_order_and_holds_up_no_other(
    loop: asyncio.AbstractEventLoop,
) -> None:
    sockets = Sockets()
    sockets.loop = loop
    slow, quick = FakeSocket(loop), FakeSocket(loop)
    until(lambda: slow.reading.is_set() and quick.reading.is_set())
    loop.call_soon_threadsafe(slow.reading.clear)
    until(lambda: not slow.reading.is_set())
    sockets.open.update({"slow": slow, "quick": quick})  # type: ignore[dict-item]
    for n in range(50):
        assert sockets.send("slow", {"n": n})
        assert sockets.send("quick", {"n": n})
    until(lambda: len(quick.sent) == 50)
    assert slow.sent == [] and len(sockets._writers) == 1  # only the slow one waits
    for n in range(50, 60):  # sent while its writer waits: they queue behind the rest
        assert sockets.send("slow", {"n": n})
    loop.call_soon_threadsafe(slow.reading.set)
    until(lambda: len(slow.sent) == 60)
    assert [m["n"] for m in slow.sent] == list(range(60))
    assert [m["n"] for m in quick.sent] == list(range(50))
    until(lambda: not sockets._writers)
