"""The local stack's room engine: everything the rooms do, in rounds, on one thread.

The event loop (``app.py``) reads the sockets: it stamps each frame with the moment
its bytes arrived and ``put``s it here, without waiting for it to be applied. Whenever
no round is running, one starts on the engine's thread with everything that has come
since the last (frames, sockets that closed, due events the pump found, answers from
a push service), in the order it came:

1. one store transaction opens (SQLite: ``BEGIN IMMEDIATE``);
2. ``RoomService.apply`` steps every item, each its own ack or refusal, and writes each
   room it changed once (the same batch entry point the cloud's queue consumer calls);
3. the transaction commits: one fsync for every room of the round;
4. only then are the round's messages handed to the loop, in one call, which writes
   them to the sockets; and the next round starts if anything has come meanwhile.

So the loop never waits for the disk or for a step, a frame's pace is counted by when
it arrived however long the disk stalls, and frames that come while a round runs make
the next round's batch. If the commit fails (disk full, an I/O error, a read-only
folder), nothing of the round is said: each of its frames is refused ``storage`` (the
page sends it again with the same seq), everything held in memory is read again from
the file, and the operator gets one log line when it starts and one when it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol

from crossing.refusals import Code
from crossing.rooms import protocol as P
from crossing.rooms.sent import now_ms
from crossing.rooms.work import Due, Frame, Later, Left, Work

log = logging.getLogger(__name__)

INBOX_MAX = 20_000
"""Items waiting for a round before the sockets stop reading (a flood's backpressure)."""
STORAGE = Code.STORAGE.value
STORAGE_MESSAGE = "The server could not save that just now; it will be sent again."
INTERNAL = Code.INTERNAL.value
INTERNAL_MESSAGE = "Something went wrong on the server; that was not kept."

DueEvents = Callable[[int], list[tuple[dict[str, Any], Callable[[], None]]]]
"""What is due by a time (ms): each event and what to call once it is applied."""


class Outbox(Protocol):
    """Where a round's messages wait until its commit (``app.Sockets``)."""

    def held(self) -> AbstractContextManager[list[tuple[str, str]]]:
        """Inside, what the rooms send is kept in the list, not sent."""

    def deliver(self, messages: list[tuple[str, str]]) -> None:
        """Send them (on the loop)."""


class Service(Protocol):
    def apply(self, work: list[Work]) -> list[Any]: ...

    def forget(self) -> None: ...

    def take_reports(self) -> list[Any]: ...


class Engine:
    def __init__(
        self,
        service: Service,
        outbox: Outbox,
        *,
        transaction: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext,
        due: DueEvents = lambda now: [],
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.service = service
        self.outbox = outbox
        self.transaction = transaction
        self.due = due
        self.clock = clock
        self.loop: asyncio.AbstractEventLoop | None = None
        self.rounds = 0
        self._inbox: deque[Work] = deque()
        self._look_for_due = False
        self._retry: list[Work] = []  # leavings a failed round could not apply
        self._running = False  # a round is in the engine's hands
        self._ended_event: asyncio.Event | None = None  # set whenever no round is running
        # Rounds go to the engine's thread through a plain queue and come back by
        # ``call_soon_threadsafe``: at light load each letter is a round of its own, and
        # an executor's two futures and their callbacks are work it need not pay for.
        self._rounds: queue.SimpleQueue[tuple[list[Work], bool] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="engine", daemon=True)
        self._room_for_more: asyncio.Event | None = None
        self._stopped = False
        self._fault: tuple[float, str] | None = None  # since when, and why
        self._refused_in_fault = 0

    # --- on the loop ------------------------------------------------------------------------

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._room_for_more = asyncio.Event()
        self._room_for_more.set()
        self._ended_event = asyncio.Event()
        self._ended_event.set()
        self._thread.start()

    def put(self, item: Work) -> None:
        """Apply ``item`` in the next round (from the loop)."""
        if self._stopped:
            return
        self._inbox.append(item)
        if len(self._inbox) >= INBOX_MAX and self._room_for_more is not None:
            self._room_for_more.clear()
        self._next()

    async def room_for_more(self) -> None:
        """Until the inbox has room (a reader waits here before reading on)."""
        if self._room_for_more is not None:
            await self._room_for_more.wait()

    def look_for_due(self) -> None:
        """Apply, in the next round, whatever has fallen due (the pump, once a second)."""
        self._look_for_due = True
        if self._retry:
            self._inbox.extend(self._retry)
            self._retry = []
        self._next()

    def _next(self) -> None:
        if self._running or self.loop is None:
            return
        if not self._inbox and not self._look_for_due:
            return
        items = list(self._inbox)
        self._inbox.clear()
        if self._room_for_more is not None:
            self._room_for_more.set()
        look, self._look_for_due = self._look_for_due, False
        self._running = True
        if self._ended_event is not None:
            self._ended_event.clear()
        self._rounds.put((items, look))

    def _ended(self, messages: list[tuple[str, str]]) -> None:
        self._running = False
        self.outbox.deliver(messages)
        self._next()
        if not self._running and self._ended_event is not None:
            self._ended_event.set()

    async def stop(self) -> None:
        """Finish the round running and apply what is still waiting, then stop."""
        while self._running or self._inbox:
            if not self._running:
                self._next()
            if self._ended_event is not None:
                await self._ended_event.wait()
        self._stopped = True
        self._rounds.put(None)
        self._thread.join(timeout=10)

    # --- on the engine's thread -------------------------------------------------------------

    def _work(self) -> None:
        while (job := self._rounds.get()) is not None:
            try:
                messages = self.round(*job)
            except Exception:  # a bug in the engine itself: the next round goes on
                log.exception("a round failed")
                messages = []
            assert self.loop is not None
            try:
                self.loop.call_soon_threadsafe(self._ended, messages)
            except RuntimeError:  # the loop has closed: the server is gone
                return

    def round(self, items: list[Work], look_for_due: bool = False) -> list[tuple[str, str]]:
        """Apply ``items`` (and what is due) as one round; the messages it says. Nothing
        to do (the pump's look found nothing due): no round, no transaction."""
        with self.outbox.held() as said:
            try:
                due = self.due(self.clock()) if look_for_due else []
                if not items and not due:
                    return []
                self.rounds += 1
                with self.transaction():
                    items = items + self._applied_due(due)
                    results = self.service.apply(items)
                    self.service.take_reports()  # the cloud's metrics: none here
                    failed = [r for r in results if isinstance(r, Exception)]
                    if any(_storage(error) for error in failed):
                        raise failed[0]  # the file failed: nothing of this round stands
            except Exception as error:  # nothing of the round was written: none of it is said
                said.clear()
                self.service.forget()
                if _storage(error):
                    self._failing(error)
                else:
                    log.exception("a round failed; its frames are refused")
                results = [error] * len(items)
            else:
                self._recovered()
            answers = list(self._answer_failed(items, results))
            return said + answers

    def _applied_due(self, due: list[tuple[dict[str, Any], Callable[[], None]]]) -> list[Work]:
        work: list[Work] = []
        for event, done in due:
            room = event.get("room")
            if isinstance(room, str) and room:
                version = event.get("version")
                work.append(Due(room, version if isinstance(version, int) else None))
            done()  # in this round's transaction: forgotten only if it is applied
        return work

    def _answer_failed(self, items: list[Work], results: list[Any]) -> Iterator[tuple[str, str]]:
        """A ``storage`` refusal for each frame that failed; leavings are kept to retry."""
        for item, result in zip(items, results, strict=True):
            if not isinstance(result, Exception):
                continue
            if isinstance(item, Frame):
                if _storage(result):  # the page sends it again until it is kept
                    error = P.Error(code=STORAGE, message=STORAGE_MESSAGE, seq=_seq(item.body))
                else:  # a bug: said once, not sent again for ever
                    log.error("a frame failed", exc_info=result)
                    error = P.Error(code=INTERNAL, message=INTERNAL_MESSAGE, seq=_seq(item.body))
                yield item.connection, text_of(error.model_dump(mode="json"))
            elif isinstance(item, Left | Later):
                self._retry.append(item)  # the next round after the pump's next look
            elif not _storage(result):
                log.error("%s failed", type(item).__name__, exc_info=result)

    def _failing(self, error: Exception) -> None:
        self._refused_in_fault += 1
        if self._fault is None:
            self._fault = (time.monotonic(), str(error))
            log.error(
                "the data file cannot be written (%s): every change is refused and sent "
                "again by the phones until it can",
                error,
            )

    def _recovered(self) -> None:
        if self._fault is None:
            return
        since, why = self._fault
        log.warning(
            "the data file is written again after %.0f s (%s); %d rounds were refused",
            time.monotonic() - since,
            why,
            self._refused_in_fault,
        )
        self._fault, self._refused_in_fault = None, 0


def _storage(error: BaseException) -> bool:
    """Whether ``error`` is the store failing (the file, the disk), not a bug."""
    return isinstance(error, sqlite3.Error | OSError)


def _seq(body: str | bytes | None) -> int | None:
    try:
        return P.echoed_seq(json.loads(body or b"null"))
    except (ValueError, RecursionError):
        return None


def text_of(message: Mapping[str, Any]) -> str:
    """A message as the socket sends it: compact JSON (NaN and Infinity are not JSON, and
    a browser would refuse them)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
