"""The local stack's sockets as the rooms' ``Connections``: what a round sends is kept
until the round is over, then delivered on the loop; each phone's messages leave in the
order they were sent, and a phone that has stopped reading is closed rather than queued
for without end."""

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


def deliver(loop: asyncio.AbstractEventLoop, sockets: Sockets, said: list[Any]) -> None:
    loop.call_soon_threadsafe(sockets.deliver, said)


def test_a_round_says_nothing_until_it_is_delivered_then_each_phone_in_order(
    loop: asyncio.AbstractEventLoop,
) -> None:
    sockets = Sockets()
    phones = {f"c{i}": FakeSocket(loop) for i in range(4)}
    sockets.open.update(phones)  # type: ignore[arg-type]
    for first in range(0, 200, 50):  # four rounds
        with sockets.held() as said:
            for n in range(first, first + 50):
                for connection in phones:
                    assert sockets.send(connection, {"n": n})
            assert sockets.send("gone", {"n": 0}) is False  # never opened, or closed: a 410
        time.sleep(0.01)
        assert all(len(p.sent) == first for p in phones.values())  # not before delivery
        deliver(loop, sockets, said)
        until(lambda first=first: all(len(p.sent) == first + 50 for p in phones.values()))
    assert all([m["n"] for m in p.sent] == list(range(200)) for p in phones.values())
    with pytest.raises(RuntimeError):
        sockets.send("c0", {"n": 0})  # outside a round nothing is sent


def test_a_phone_that_stopped_reading_is_closed(loop: asyncio.AbstractEventLoop) -> None:
    sockets = Sockets()
    stuck = FakeSocket(loop)
    loop.call_soon_threadsafe(stuck.reading.clear)
    until(lambda: not stuck.reading.is_set())
    sockets.open["stuck"] = stuck  # type: ignore[assignment]
    with sockets.held() as said:
        for n in range(MAX_WAITING + 2):
            sockets.send("stuck", {"n": n})
    deliver(loop, sockets, said)
    until(lambda: stuck.closed == 1008)
    loop.call_soon_threadsafe(stuck.reading.set)  # its writer finishes before the loop stops
    until(lambda: not sockets._writers)


def test_a_phone_held_up_a_while_gets_every_message_in_order_and_holds_up_no_other(
    loop: asyncio.AbstractEventLoop,
) -> None:
    sockets = Sockets()
    slow, quick = FakeSocket(loop), FakeSocket(loop)
    until(lambda: slow.reading.is_set() and quick.reading.is_set())
    loop.call_soon_threadsafe(slow.reading.clear)
    until(lambda: not slow.reading.is_set())
    sockets.open.update({"slow": slow, "quick": quick})  # type: ignore[dict-item]
    with sockets.held() as said:
        for n in range(50):
            assert sockets.send("slow", {"n": n})
            assert sockets.send("quick", {"n": n})
    deliver(loop, sockets, said)
    until(lambda: len(quick.sent) == 50)
    assert slow.sent == [] and len(sockets._writers) == 1  # only the slow one waits
    with sockets.held() as said:
        for n in range(50, 60):  # sent while its writer waits: they queue behind the rest
            assert sockets.send("slow", {"n": n})
    deliver(loop, sockets, said)
    loop.call_soon_threadsafe(slow.reading.set)
    until(lambda: len(slow.sent) == 60)
    assert [m["n"] for m in slow.sent] == list(range(60))
    assert [m["n"] for m in quick.sent] == list(range(50))
    until(lambda: not sockets._writers)
