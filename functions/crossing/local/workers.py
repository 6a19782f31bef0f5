"""Serving from several processes on one machine (``crossing serve --workers N``).

Each room and Duel game has one owner process (``owner``), the same in every process;
each socket one holder, named by its connection id (``holder``). A process that holds
a socket but not its room hands the room's frames to the owner and waits until they
are applied; a post for a socket another process holds goes to that process. The
processes talk over Unix sockets, one duplex ``Link`` per pair, so what one process
tells another arrives in the order it was said. docs/architecture.md, "The second
core", has the design and its figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import socket
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from multiprocessing.connection import Client, Connection, Listener
from typing import Any

from crossing.rooms.ports import Queued

KEY_VARIABLE = "CROSSING_WORKER_KEY"
"""Where a worker process finds the key its links are authenticated with (hex)."""
CONNECT_S = 30.0
"""How long a starting worker keeps trying to reach the others."""
CALLS = 512
"""Threads for the calls the other workers make of this one (a frame each)."""
CALL_S = 30.0
"""How long a frame handed to its owner may take before it is applied here instead."""

log = logging.getLogger(__name__)


def owner(group: str, count: int) -> int:
    """The process that applies the frames of room or game ``group``: the same in every
    process (Python's own ``hash`` of a string differs from process to process)."""
    return zlib.crc32(group.encode()) % count


def holder(connection: str) -> int:
    """The process holding ``connection``'s socket: ids are ``<worker>.<token>``."""
    worker, dot, _ = connection.partition(".")
    return int(worker) if dot and worker.isdigit() else 0


def link_addresses() -> tuple[str, str | None]:
    """Where a crew's workers listen for each other, and the folder to remove at the
    end if one was made: on Linux, abstract socket names, which leave nothing behind
    even when the processes are killed."""
    if sys.platform == "linux":
        return f"\0crossing-{secrets.token_hex(8)}-", None
    folder = tempfile.mkdtemp(prefix="crossing-workers-")
    return f"{folder}/", folder


class LinkDown(Exception):
    """The other process cannot be reached (it has stopped or died)."""


class Link:
    """One duplex connection to another worker.

    ``tell`` sends a message the other side handles on its reader thread, in the
    order told; ``call`` sends one it handles on its handler threads, and waits for
    the answer (``call_soon``: an event loop's future of it). An answer is taken only
    after everything told before it. Messages told while another is being sent go
    together, in one write.
    """

    def __init__(
        self,
        conn: Connection,
        tells: dict[str, Callable[..., Any]],
        calls: dict[str, Callable[..., Any]],
        pool: Executor,
        on_close: Callable[[Link], None],
    ) -> None:
        self._conn = conn
        self._tells = tells
        self._calls = calls
        self._pool = pool
        self._on_close = on_close
        self._outbox: list[tuple[Any, ...]] = []
        self._lock = threading.Lock()
        self._sending = False
        self._answers: dict[int, Callable[[Any], None]] = {}  # call id -> what takes its answer
        self._ids = itertools.count()
        self.closed = False
        threading.Thread(target=self._read, name="link-reader", daemon=True).start()

    def tell(self, name: str, *args: Any) -> None:
        self._put(("tell", name, args))

    def call(self, name: str, *args: Any, timeout: float = CALL_S) -> Any:
        done = threading.Event()
        answer: list[Any] = [None]

        def answered(value: Any) -> None:
            answer[0] = value
            done.set()

        number = self._ask(name, args, answered)
        if not done.wait(timeout):
            self._answers.pop(number, None)
            raise LinkDown(f"no answer to {name} in {timeout:.0f} s")
        if isinstance(answer[0], LinkDown):
            raise answer[0]
        return answer[0]

    def call_soon(self, name: str, *args: Any, timeout: float = CALL_S) -> asyncio.Future[Any]:
        """``call`` from an event loop: the answer as a future of that loop, so no thread
        waits for it. It fails with ``LinkDown`` as ``call`` raises it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def answered(value: Any) -> None:  # on the reader thread, after what it read before
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, value)

        number = self._ask(name, args, answered)

        def expired() -> None:
            if self._answers.pop(number, None) is not None:
                _settle(future, LinkDown(f"no answer to {name} in {timeout:.0f} s"))

        timer = loop.call_later(timeout, expired)
        future.add_done_callback(lambda _: timer.cancel())
        return future

    def _ask(self, name: str, args: tuple[Any, ...], answered: Callable[[Any], None]) -> int:
        number = next(self._ids)
        self._answers[number] = answered
        try:
            self._put(("call", number, name, args))
        except LinkDown:
            self._answers.pop(number, None)
            raise
        return number

    def close(self) -> None:
        self._gone()
        # Shut down, not only closed: a reader blocked on the socket keeps it open, and the
        # other side would never hear that this one has gone.
        with (
            contextlib.suppress(OSError),
            socket.fromfd(self._conn.fileno(), socket.AF_UNIX, socket.SOCK_STREAM) as same,
        ):
            same.shutdown(socket.SHUT_RDWR)
        self._conn.close()

    def _put(self, message: tuple[Any, ...]) -> None:
        """Send ``message``, with any others waiting. The thread that finds no one sending
        sends, until nothing waits: a burst goes in a few writes, with no thread to wake."""
        with self._lock:
            if self.closed:
                raise LinkDown("the link is closed")
            self._outbox.append(message)
            if self._sending:
                return  # the thread sending now takes this one too, in order
            self._sending = True
        while True:
            with self._lock:
                messages, self._outbox = self._outbox, []
                if not messages:
                    self._sending = False
                    return
            try:
                self._conn.send(messages)
            except (OSError, ValueError):
                with self._lock:
                    self._sending = False
                self._gone()
                raise LinkDown("the other worker has gone") from None

    def _read(self) -> None:
        while True:
            try:
                messages = self._conn.recv()
            except (EOFError, OSError, ValueError):
                self._gone()
                return
            for message in messages:
                self._handle(message)

    def _handle(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "tell":
            try:
                self._tells[message[1]](*message[2])
            except Exception:
                log.exception("a worker's %s failed", message[1])
        elif kind == "call":
            self._pool.submit(self._answer, message[1], message[2], message[3])
        else:  # an answer
            answered = self._answers.pop(message[1], None)
            if answered is not None:
                answered(message[2])

    def _answer(self, number: int, name: str, args: tuple[Any, ...]) -> None:
        try:
            result = self._calls[name](*args)
        except Exception:
            log.exception("a worker's %s failed", name)
            result = None
        with contextlib.suppress(LinkDown):
            self._put(("answer", number, result))

    def _gone(self) -> None:
        with self._lock:
            if self.closed:
                return
            self.closed = True
        for number in list(self._answers):
            answered = self._answers.pop(number, None)
            if answered is not None:
                answered(LinkDown("the other worker has gone"))
        self._on_close(self)


def _settle(future: asyncio.Future[Any], answer: Any) -> None:
    if future.done():
        return
    if isinstance(answer, LinkDown):
        future.set_exception(answer)
    else:
        future.set_result(answer)


class Peers:
    """This worker's links to the others: worker ``me`` of ``count``.

    Worker *i* listens on ``<links><i>`` (a Unix socket address: ``links`` is an
    abstract name's start on Linux, a folder elsewhere) and connects to every worker
    below it, so each pair has one link. ``tells`` and ``calls`` are what the others may ask of
    this one, by name. ``on_parent_gone`` runs if worker 0's link closes (it died).
    """

    def __init__(
        self,
        me: int,
        count: int,
        links: str,
        key: bytes,
        on_parent_gone: Callable[[], None] | None = None,
    ) -> None:
        self.me, self.count, self.links, self._key = me, count, links, key
        # Calls from the others get threads of their own: a handler waiting on another
        # worker never holds a thread that worker's calls to this one need.
        self._pool = ThreadPoolExecutor(max_workers=CALLS, thread_name_prefix="link-call")
        self.tells: dict[str, Callable[..., Any]] = {}
        self.calls: dict[str, Callable[..., Any]] = {}
        self._links: dict[int, Link] = {}
        self._changed = threading.Condition()
        self._on_parent_gone = on_parent_gone
        self._stopping = False
        self._listener = Listener(f"{links}{me}", "AF_UNIX", authkey=key)
        threading.Thread(target=self._accept, name="link-accept", daemon=True).start()

    def connect(self) -> None:
        """Reach every worker below this one (they may still be starting)."""
        for other in range(self.me):
            deadline = time.monotonic() + CONNECT_S
            while True:
                try:
                    conn = Client(f"{self.links}{other}", "AF_UNIX", authkey=self._key)
                    break
                except (FileNotFoundError, ConnectionRefusedError):
                    if time.monotonic() > deadline:
                        raise LinkDown(f"worker {other} never listened") from None
                    time.sleep(0.02)
            conn.send(self.me)
            self._add(other, conn)

    def wait_for_all(self, timeout: float = CONNECT_S) -> bool:
        """Whether every other worker is linked within ``timeout``."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self._links) == self.count - 1, timeout)

    def tell(self, worker: int, name: str, *args: Any) -> None:
        self._link(worker).tell(name, *args)

    def call(self, worker: int, name: str, *args: Any) -> Any:
        return self._link(worker).call(name, *args)

    def call_soon(self, worker: int, name: str, *args: Any) -> asyncio.Future[Any]:
        return self._link(worker).call_soon(name, *args)

    def linked(self) -> list[int]:
        with self._changed:
            return sorted(self._links)

    def close(self) -> None:
        self._stopping = True
        self._listener.close()
        for link in list(self._links.values()):
            link.close()

    def _link(self, worker: int) -> Link:
        link = self._links.get(worker)
        if link is None or link.closed:
            raise LinkDown(f"worker {worker} is not linked")
        return link

    def _accept(self) -> None:
        while True:
            try:
                conn = self._listener.accept()
                other = conn.recv()
            except (OSError, EOFError):
                if self._stopping:
                    return
                continue  # a caller without the key, or one that went away
            if isinstance(other, int) and self.me < other < self.count:
                self._add(other, conn)
            else:
                conn.close()

    def _add(self, other: int, conn: Connection) -> None:
        def closed(link: Link) -> None:
            with self._changed:
                if self._links.get(other) is link:
                    del self._links[other]
                self._changed.notify_all()
            if other == 0 and self.me != 0 and not self._stopping and self._on_parent_gone:
                self._on_parent_gone()

        link = Link(conn, self.tells, self.calls, self._pool, closed)
        with self._changed:
            self._links[other] = link
            self._changed.notify_all()


class Owners:
    """The rooms' ``Queue`` and the runner's ``Shared`` where rooms are shared out among
    local worker processes: a
    frame for a room another worker owns is applied there, and this call waits until it
    is (so the socket's next frame comes after it). ``apply`` applies one here: a room
    whose owner cannot be reached is applied by whoever has its frame."""

    def __init__(self, peers: Peers, apply: Callable[[Queued], Any]) -> None:
        self.peers = peers
        self.apply = apply
        self.claiming: Callable[[], bool] = lambda: False
        """Whether rooms made here now are to be owned here (``funnel``: at light load)."""

    def mine(self, group: str) -> bool:
        return owner(group, self.peers.count) == self.peers.me

    def claims(self) -> bool:
        return self.claiming()

    def written(self, name: str) -> None:
        """This process wrote a document another owns: its owner reads it again."""
        with contextlib.suppress(LinkDown):
            self.peers.tell(owner(name, self.peers.count), "forget", name)

    def send(self, frame: Queued, dedup: str) -> None:
        try:
            self.peers.call(owner(frame.group, self.peers.count), "frame", frame)
        except LinkDown:
            log.warning("worker for %s unreachable: applied here", frame.group)
            self.apply(frame)


class HandOver:
    """A frame for a room another worker owns, handed over by the event loop holding its
    socket: no handler thread is woken to wait for the owner (in a Large room whose
    phones another process holds, that thread and its wrappers were most of what the
    second process cost). ``route`` gives the frame to hand over, or None for one to
    receive here as any other (refusals, and everything this worker applies)."""

    def __init__(self, peers: Peers, route: Callable[[str, Any], Queued | None]) -> None:
        self.peers = peers
        self.route = route

    def __call__(self, connection: str, body: Any) -> asyncio.Future[Any] | None:
        """The owner's answer to come (it fails with ``LinkDown``), or None."""
        frame = self.route(connection, body)
        if frame is None:
            return None
        try:
            return self.peers.call_soon(owner(frame.group, self.peers.count), "frame", frame)
        except LinkDown:
            return None
