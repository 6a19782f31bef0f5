"""``crossing serve``: start everything, print the URL, stop cleanly on Ctrl-C or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from crossing.local import backend as local
from crossing.local import funnel as funnels
from crossing.local.events import LambdaContext
from crossing.local.paths import default_frontend, default_packs
from crossing.local.pump import Pump
from crossing.local.workers import (
    KEY_VARIABLE,
    HandOver,
    LinkDown,
    Owners,
    Peers,
    link_addresses,
    owner,
)

MAX_WORKERS = 4
GRACEFUL_S = 5
"""How long a stop waits for messages being handled before closing what is left."""
COLLECT_EVERY = (50_000, 20, 10)
"""The garbage collector's thresholds while serving (Python's are 700, 10, 10).

Every keystroke allocates thousands of short-lived objects (a step's new room, its
views and patches) and almost none form cycles: with fifty rooms typing, collecting
the young generation every 700 allocations, and the whole heap every so often,
cost 8 % of the CPU and stalled every room at once (`benchmarks/typists.py` reports
the collector's share)."""


@dataclass
class Stack:
    """A running local stack (for ``serve`` and for tests that need a real server)."""

    url: str
    port: int
    server: uvicorn.Server
    thread: threading.Thread | None
    backend: local.Backend
    pump: Pump
    crew: Crew | None = None
    """The other worker processes, where there are any (``workers`` > 1)."""


def default_workers() -> int:
    """Serving processes for ``crossing serve``: one a core, at most four (each holds
    its rooms in memory), and one where processes cannot share a lock file."""
    if os.name != "posix":
        return 1
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


@contextlib.contextmanager
def running(
    host: str = "127.0.0.1",
    port: int = 0,
    frontend: Path | None = None,
    packs: Path | None = None,
    pump_every: float = 1.0,
    *,
    backend: str = "sqlite",
    data: Path | None = None,
    workers: int = 1,
    funnel: int = funnels.FUNNEL_BELOW,
) -> Iterator[Stack]:
    """Start the whole stack, serving in a thread of this process and in ``workers - 1``
    more processes (SQLite only); stop it all on exit. The first process serves every
    phone until it holds ``funnel`` of them (``local/funnel.py``; 0: each process serves
    the phones it accepts).

    ``backend`` is "sqlite" (kept in ``data``, default the user's data folder) or
    "moto". Raises ``CannotServe`` before starting anything if the address cannot be
    listened on or the data folder cannot be used.
    """
    packs = packs if packs is not None else default_packs()
    if packs is None:
        raise CannotServe("no puzzle packs here (puzzles/packs in a checkout); pass --packs DIR")
    if workers > 1 and backend != "sqlite":
        raise CannotServe("--workers is for the sqlite backend; moto runs in one process")
    listener = listen(host, port)
    port = listener.getsockname()[1]
    try:
        store = local.start_backend(backend, packs, data, shared=workers > 1)
    except local.BackendError as error:
        listener.close()
        raise CannotServe(str(error)) from None
    saved = dict(os.environ)
    for name, value in store.environment(f"http://{_reachable(host)}:{port}").items():
        if name.startswith("POWERTOOLS_"):
            os.environ.setdefault(name, value)  # logging and metrics: the caller's say wins
        else:
            os.environ[name] = value
    crew = None
    intake = None
    try:
        if workers > 1:
            assert isinstance(store, local.SqliteBackend)
            inbox, outbox = funnels.pair() if funnel else (None, None)
            crew = Crew(workers, listener, store, frontend, pump_every, outbox)
            if inbox is not None and outbox is not None:
                outbox.close()  # the others have it
                intake = funnels.Intake(inbox, funnel, crew.tell_all("funnel"))
        peers = crew.peers if crew is not None else None
        with _serving(listener, store, frontend, pump_every, peers, intake) as stack:
            if crew is not None:
                crew.wait_ready()
            stack.url = f"http://{_url_host(host)}:{port}/"
            stack.crew = crew
            try:
                yield stack
            finally:
                if crew is not None:
                    crew.stop()  # theirs first: a frame they hand to this one is answered
    finally:
        if crew is not None:
            crew.close()
        if intake is not None:
            intake.inbox.close()
        listener.close()
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def _serving(
    listener: socket.socket,
    store: local.Backend,
    frontend: Path | None,
    pump_every: float,
    peers: Peers | None,
    funnel: funnels.Intake | funnels.Outlet | None = None,
) -> Iterator[Stack]:
    """This process's part: the handlers on ``store``, uvicorn on ``listener``, the pump;
    with ``peers``, as one of several workers sharing the rooms out; with ``funnel``, the
    first of them taking the phones the others accept, or one of those passing them."""
    # Imported once the environment is set: Powertools reads its settings at import.
    from crossing.handlers import ws as handlers
    from crossing.local.app import Sockets, build_app

    me = peers.me if peers is not None else 0
    sockets = Sockets(me, peers)
    if isinstance(store, local.SqliteBackend):
        sockets.inline_below = funnels.FUNNEL_BELOW
    service = store.service(sockets, peers)
    handlers.reset(service)
    due = store.due
    if peers is not None:
        _answer_peers(peers, service, sockets)
        store_held, router = service.store, service.router
        sockets.hand_over = HandOver(
            peers, lambda c, body: router.handing_over(c, body, store_held.held(c))
        )
        count = peers.count

        def due(now_ms: int) -> list[local.Due]:  # each worker fires its own rooms' events
            return [d for d in store.due(now_ms) if owner(d[0]["room"], count) == me]

    pump = Pump(due, lambda event: handlers.timer(event, LambdaContext()), every=pump_every)
    app = build_app(frontend if frontend is not None else default_frontend(), sockets)
    http: Any = "auto"
    if isinstance(funnel, funnels.Intake):
        sockets.holding = funnel.holding
    elif isinstance(funnel, funnels.Outlet):
        assert peers is not None
        peers.tells["funnel"] = funnel.told
        # uvicorn builds each connection's protocol by calling this with its options.
        http = funnel.protocol(AutoHTTPProtocol)
    if funnel is not None:
        owners = service.runner.shared
        assert isinstance(owners, Owners)
        # While the first takes every phone, a room is owned where it was made.
        owners.claiming = lambda: funnel.taking
    if isinstance(funnel, funnels.Intake) and isinstance(store, local.SqliteBackend):
        # ... and the first, nearly the file's only writer then, writes it itself.
        store.db.write_here = lambda: funnel.taking
    config = uvicorn.Config(
        app,
        http=http,
        log_level="warning",
        lifespan="off",
        ws="websockets-sansio",
        ws_ping_interval=20,
        # No per-message compression: a keystroke's messages are acks and patches of a
        # few hundred bytes, and compressing each (a zlib stream kept per phone) was a
        # fifth of a Large room's CPU per letter (benchmarks/typists.py: 2.3 -> 1.8 ms).
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=GRACEFUL_S,
    )
    server = QuietServer(config, funnel if isinstance(funnel, funnels.Intake) else None)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [listener]}, name="crossing-serve", daemon=True
    )
    thread.start()
    while not server.started and thread.is_alive():
        threading.Event().wait(0.02)
    pump.start()
    thresholds = gc.get_threshold()
    gc.freeze()  # what starting built (modules, schemas, packs) lives as long as the server
    gc.set_threshold(*COLLECT_EVERY)
    port = listener.getsockname()[1]
    try:
        yield Stack(f"http://localhost:{port}/", port, server, thread, store, pump)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        # The pump first (a due event it is firing finishes), then the sockets (each gets
        # a close frame once its message in hand is done), then the store: every write
        # was committed before it was acknowledged.
        pump.stop()
        sockets.stopping = True
        server.stop()
        thread.join(timeout=GRACEFUL_S + 5)
        if peers is not None:
            peers.close()
        store.stop()
        handlers.reset()


class QuietServer(uvicorn.Server):
    """uvicorn's server, waking once a second when idle rather than ten times.

    Its tick only refreshes the Date header (once a second anyway) and looks for a stop,
    which ``stop`` now wakes at once. An idle process woke 11 times a second, and every
    wake-up of a cold process costs far more than its work: 3 ms of CPU a second per
    serving process, a fifth of a millisecond per letter in a Large room of eight."""

    TICK_S = 1.0

    def __init__(self, config: uvicorn.Config, intake: funnels.Intake | None = None) -> None:
        super().__init__(config)
        self.intake = intake
        self._adopted: set[asyncio.Task[Any]] = set()

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._woken = asyncio.Event()
        if self.intake is not None:
            self.intake.start(self._loop, self.adopt)
        counter = 0  # in uvicorn's tenths of a second: its tick refreshes the Date at 0 mod 10
        while not await self.on_tick(counter):
            counter = (counter + 10) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), self.TICK_S)

    def adopt(self, sock: socket.socket) -> None:
        """Serve, on this server's loop, a connection another process accepted and passed
        on before reading from it: as if this one had accepted it."""
        config = self.config

        def protocol() -> asyncio.Protocol:
            return config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=self.server_state, app_state=self.lifespan.state
            )

        task = asyncio.ensure_future(self._loop.connect_accepted_socket(protocol, sock))
        self._adopted.add(task)
        task.add_done_callback(self._adopted.discard)

    def stop(self) -> None:
        """Stop serving (from any thread): close the sockets and return from ``run``."""
        self.should_exit = True
        loop, woken = getattr(self, "_loop", None), getattr(self, "_woken", None)
        if loop is not None and woken is not None:
            with contextlib.suppress(RuntimeError):  # its loop has closed: it has stopped
                loop.call_soon_threadsafe(woken.set)


def _answer_peers(peers: Peers, service: Any, sockets: Any) -> None:
    """What the other workers may ask of this one."""
    from crossing.local.app import handler_pool

    told_gone: dict[str, None] = {}

    def post(texts: list[tuple[str, str]]) -> None:
        for connection, text in texts:
            if sockets.send_text(connection, text) or connection in told_gone:
                continue
            # Not here (any more): as a 410 would, the room hears it left, once.
            told_gone[connection] = None
            while len(told_gone) > 1000:
                del told_gone[next(iter(told_gone))]
            handler_pool().submit(service.disconnect, connection)

    peers.tells["post"] = post
    peers.tells["forget_connection"] = service.store.forget
    peers.tells["forget"] = service.runner.forget

    def stats() -> dict[str, Any]:
        return {
            "cpu": time.process_time(),
            "by": dict(getattr(service.store, "requests", {})),
            "threads": thread_cpu(),
            "sockets": len(sockets.open),
        }

    def frame(queued: Any) -> None:  # the answer only says it is applied
        service.router.apply(queued)

    peers.calls["frame"] = frame
    peers.calls["stats"] = stats


def stat_cpu(stat: Path) -> float:
    """The CPU seconds (user and system) a /proc ``stat`` file gives a process or thread."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    utime, stime = (int(x) for x in stat.read_text().rsplit(")", 1)[1].split()[11:13])
    return (utime + stime) / tick


def thread_cpu() -> dict[str, float]:
    """This process's CPU seconds by kind of thread (the event loop's, the handlers', the
    links', ...), where /proc tells (Linux); for the benchmarks' reports."""
    kinds: dict[str, float] = {}
    for thread in threading.enumerate():
        try:
            cpu = stat_cpu(Path(f"/proc/self/task/{thread.native_id}/stat"))
        except OSError:
            continue
        kind = thread.name.split("_")[0].rstrip("-0123456789")
        kinds[kind] = kinds.get(kind, 0.0) + cpu
    return kinds


class Crew:
    """The worker processes after the first (this one), started on one listening socket:
    ``python -m crossing.local.worker``, each linked to every other (``Peers``)."""

    def __init__(
        self,
        count: int,
        listener: socket.socket,
        backend: local.SqliteBackend,
        frontend: Path | None,
        pump_every: float,
        outlet: socket.socket | None = None,
    ) -> None:
        """``outlet``: where the others pass the connections they accept (``funnel``)."""
        links, self.folder = link_addresses()
        key = secrets.token_bytes(32)
        self._ready: set[int] = set()
        self._changed = threading.Condition()
        self.peers = Peers(0, count, links, key)
        self.peers.tells["ready"] = self._is_ready
        env = {**os.environ, KEY_VARIABLE: key.hex()}
        fd = listener.fileno()
        fds = (fd,) if outlet is None else (fd, outlet.fileno())
        self.processes = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "crossing.local.worker",
                    f"--worker={worker}",
                    f"--count={count}",
                    f"--listener={fd}",
                    f"--links={links.encode().hex()}",  # an abstract name starts with NUL
                    f"--data={backend.data}",
                    f"--pump-every={pump_every}",
                    *([f"--packs={backend.packs}"] if backend.packs else []),
                    *([f"--frontend={frontend}"] if frontend else []),
                    *([f"--outlet={outlet.fileno()}"] if outlet is not None else []),
                ],
                pass_fds=fds,
                env=env,
            )
            for worker in range(1, count)
        ]

    def tell_all(self, name: str) -> Callable[..., None]:
        """A function telling every other worker ``name`` (those gone are skipped)."""

        def tell(*args: Any) -> None:
            for worker in self.peers.linked():
                with contextlib.suppress(LinkDown):
                    self.peers.tell(worker, name, *args)

        return tell

    def _is_ready(self, worker: int) -> None:
        with self._changed:
            self._ready.add(worker)
            self._changed.notify_all()

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every worker serves; ``CannotServe`` if one stops or takes too long."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self._ready) < len(self.processes):
                if any(p.poll() is not None for p in self.processes):
                    raise CannotServe("a worker process stopped while starting (see above)")
                if time.monotonic() > deadline:
                    raise CannotServe(f"the worker processes did not start in {timeout:.0f} s")
                self._changed.wait(0.1)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=GRACEFUL_S + 10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def close(self) -> None:
        self.stop()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


class CannotServe(Exception):
    """The address given cannot be listened on: a one-line reason for the person typing."""


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (0: any free port), for uvicorn to serve on.

    Bound here, before anything starts, so a port already taken is a clear error
    rather than a server that says it runs and does not.
    """
    try:
        family, kind, _, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror:
        raise CannotServe(f"cannot listen on {host}: no such address on this machine") from None
    sock = socket.socket(family, kind)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart reuses the port
    try:
        sock.bind(address)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise CannotServe(
                f"port {port} is already in use (another crossing serve?); "
                f"choose another with --port, e.g. --port {port + 1}"
            ) from None
        if error.errno == errno.EACCES:
            raise CannotServe(
                f"port {port} needs more rights than this user has; "
                "choose one above 1023 with --port"
            ) from None
        raise CannotServe(f"cannot listen on {host} port {port}: {error.strerror}") from None
    return sock


def lan_address() -> str | None:
    """This machine's address on its local network (what a phone on the same Wi-Fi
    types), or None if it has none besides loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            # Connecting a UDP socket only picks the route; no packet is sent.
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never a real host
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def serve(
    host: str,
    port: int,
    frontend: Path | None,
    packs: Path | None,
    *,
    backend: str = "sqlite",
    data: Path | None = None,
    workers: int = 1,
    funnel: int = funnels.FUNNEL_BELOW,
) -> int:
    # Ctrl-C and SIGTERM (systemd, docker stop, kill) both stop cleanly: close frames,
    # then exit. A flag, not KeyboardInterrupt: an interrupted Thread.join can leave the
    # thread looking finished on Python 3.11, and the stop would not wait for it.
    stopping = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopping.set())
    for name, value in local.POWERTOOLS.items():
        os.environ.setdefault(name, value)  # before the handlers log: the service's name
    try:
        with running(
            host, port, frontend, packs, backend=backend, data=data, workers=workers, funnel=funnel
        ) as stack:
            _announce(stack, host)
            while stack.thread and stack.thread.is_alive() and not stopping.wait(0.5):
                pass
            print("\nStopping.", flush=True)
    except CannotServe as error:
        print(f"crossing serve: {error}", file=sys.stderr)
        return 1
    return 0


def _announce(stack: Stack, host: str) -> None:
    print(f"Crossing Words is running: open {stack.url}", flush=True)
    if _every_address(host):
        lan = lan_address()
        if lan:
            print(f"On phones on the same network, open http://{lan}:{stack.port}/", flush=True)
        else:
            print("This machine has no network address for phones to use.", flush=True)
    elif host in ("127.0.0.1", "localhost", "::1"):
        print(
            "Only this machine can reach it; use --host 0.0.0.0 to play from phones "
            "on your network.",
            flush=True,
        )
    data = getattr(stack.backend, "data", None)
    if data is not None:
        print(f"Accounts, ratings and games are kept in {data}", flush=True)
    else:
        print("Backend: moto (everything is forgotten when it stops)", flush=True)
    print("Press Ctrl-C to stop.", flush=True)


def _every_address(host: str) -> bool:
    return host in ("0.0.0.0", "", "::")


def _url_host(host: str) -> str:
    """The host part of the URL printed for this machine's own browser."""
    if _every_address(host) or host in ("127.0.0.1", "::1"):
        return "localhost"
    return f"[{host}]" if ":" in host else host


def _reachable(host: str) -> str:
    """Where this process reaches its own server (the handlers post to ``@connections``)."""
    if _every_address(host) or host == "localhost":
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host
