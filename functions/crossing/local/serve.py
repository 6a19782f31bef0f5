"""``crossing serve``: start everything, print the URL, stop cleanly on Ctrl-C or SIGTERM.

One process: uvicorn serves the pages, the Solver and the WebSockets on one asyncio
event loop, the room engine (``engine.py``) applies the rooms' work in rounds on its
thread, and a pump task on the loop looks for due events once a second. Nothing
listens but the HTTP port.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import gc
import importlib
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from crossing.local import backend as local
from crossing.local.engine import Engine
from crossing.local.paths import default_frontend, default_packs
from crossing.rooms.work import Later

GRACEFUL_S = 1
SEARCHES = 2
"""Threads for the searches: the Solver's requests and Duel bots' moves."""
"""How long a stop waits for the sockets to take their close frames."""
COLLECT_EVERY = (50_000, 20, 10)
"""The garbage collector's thresholds while serving (Python's are 700, 10, 10).

Every keystroke allocates thousands of short-lived objects (a step's new room, its
views and patches) and almost none form cycles: collecting the young generation every
700 allocations, and the whole heap every so often, cost 8 % of the CPU with fifty
rooms typing (docs/performance.md)."""


@dataclass
class Stack:
    """A running local stack (for ``serve`` and for tests that need a real server)."""

    url: str
    port: int
    server: Server
    backend: local.Backend
    engine: Engine


class Server(uvicorn.Server):
    """uvicorn's server with the room engine and the pump beside it on its loop, woken
    once a second when idle rather than ten times, stopped by ``stop`` from any thread or
    a signal handler, and never re-raising the signal that stopped it."""

    TICK_S = 1.0

    def __init__(self, config: uvicorn.Config, engine: Engine, pump_every: float) -> None:
        super().__init__(config)
        self.engine = engine
        self.pump_every = pump_every
        self.started_event = threading.Event()
        self.when_stopping: Callable[[], None] = lambda: None
        """Called as the stop begins (the sockets know their closing is not leaving)."""
        self.when_started: Callable[[], None] = lambda: None
        """Called once it answers (``serve`` prints the URL then)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._woken: asyncio.Event | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # ``serve`` handles them: uvicorn's own raise them again once stopped

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._woken = asyncio.Event()
        self.engine.start(self._loop)
        pump = asyncio.ensure_future(self._pump())
        try:
            await super().serve(sockets)
        finally:
            pump.cancel()
            await self.engine.stop()  # what came before the close is applied, then stop

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.started_event.set()
        self.when_started()

    async def main_loop(self) -> None:
        assert self._woken is not None
        counter = 0  # in uvicorn's tenths of a second: its tick refreshes the Date at 0 mod 10
        while not await self.on_tick(counter):
            counter = (counter + 10) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), self.TICK_S)

    async def _pump(self) -> None:
        # At once, then every ``pump_every`` s: what fell due while the server was down first.
        while True:
            self.engine.look_for_due()
            await asyncio.sleep(self.pump_every)

    def stop(self) -> None:
        """Stop serving (from any thread): close the sockets and return from ``serve``."""
        self.when_stopping()
        self.should_exit = True
        loop, woken = self._loop, self._woken
        if loop is not None and woken is not None:
            with contextlib.suppress(RuntimeError):  # its loop has closed: it has stopped
                loop.call_soon_threadsafe(woken.set)


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
) -> Iterator[Stack]:
    """Start the whole stack, serving on a thread of this process (for tests and
    benchmarks; ``serve`` runs the same on the main thread); stop it all on exit.

    ``backend`` is "sqlite" (kept in ``data``, default the user's data folder) or
    "moto". Raises ``CannotServe`` before starting anything if the address cannot be
    listened on or the data folder cannot be used.
    """
    with _stack(host, port, frontend, packs, pump_every, backend, data) as (stack, listener):
        thread = threading.Thread(
            target=asyncio.run,
            args=(stack.server.serve(sockets=[listener]),),
            name="crossing-serve",
            daemon=True,
        )
        thread.start()
        while not stack.server.started_event.wait(0.05):
            if not thread.is_alive():
                raise CannotServe("the server stopped while starting (see above)")
        try:
            yield stack
        finally:
            stack.server.stop()
            thread.join(timeout=GRACEFUL_S + 10)


def serve(
    host: str,
    port: int,
    frontend: Path | None,
    packs: Path | None,
    *,
    backend: str = "sqlite",
    data: Path | None = None,
) -> int:
    for name, value in local.POWERTOOLS.items():
        os.environ.setdefault(name, value)  # before the handlers log: the service's name
    try:
        with _stack(host, port, frontend, packs, 1.0, backend, data) as (stack, listener):
            # Ctrl-C and SIGTERM (systemd, docker stop, kill) both stop cleanly: close
            # frames, what came before them applied, then exit; no traceback.
            for signum in (signal.SIGINT, signal.SIGTERM):
                signal.signal(signum, lambda *_: stack.server.stop())
            quiet = stack.server.when_stopping

            def stopping() -> None:
                print("\nStopping.", flush=True)
                quiet()

            stack.server.when_stopping = stopping
            stack.server.when_started = functools.partial(_announce, stack, host)
            asyncio.run(stack.server.serve(sockets=[listener]))
    except CannotServe as error:
        print(f"crossing serve: {error}", file=sys.stderr)
        return 1
    # Everything is written and closed: leave without tearing down the heap object by
    # object, which took longer than the stop itself after an hour of play.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


@contextlib.contextmanager
def _stack(
    host: str,
    port: int,
    frontend: Path | None,
    packs: Path | None,
    pump_every: float,
    backend: str,
    data: Path | None,
) -> Iterator[tuple[Stack, socket.socket]]:
    """The stack, built and ready to serve on its listening socket; closed on exit."""
    packs = packs if packs is not None else default_packs()
    if packs is None:
        raise CannotServe("no puzzle packs here (puzzles/packs in a checkout); pass --packs DIR")
    listener = listen(host, port)
    port = listener.getsockname()[1]
    try:
        store = local.start_backend(backend, packs, data)
    except local.BackendError as error:
        listener.close()
        raise CannotServe(str(error)) from None
    saved = dict(os.environ)
    for name, value in store.environment(f"http://{_reachable(host)}:{port}").items():
        if name.startswith("POWERTOOLS_"):
            os.environ.setdefault(name, value)  # logging and metrics: the caller's say wins
        else:
            os.environ[name] = value
    from crossing.local.app import Sockets, build_app

    pushes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="push")
    # The searches (Solver requests, Duel bots' moves): a thread a core, the move
    # generator letting go of the interpreter while it searches.
    searches = ThreadPoolExecutor(max_workers=SEARCHES, thread_name_prefix="search")
    sockets = Sockets()
    engine: Engine

    def aside(send: Callable[[], Any], then: Callable[[Any], None]) -> None:
        """A push service asked on a thread of its own; its answer back in a round."""

        def answered(done: Future[Any]) -> None:
            later = Later(functools.partial(then, done.result()))
            assert engine.loop is not None
            with contextlib.suppress(RuntimeError):  # stopped meanwhile: nothing to tidy
                engine.loop.call_soon_threadsafe(engine.put, later)

        pushes.submit(send).add_done_callback(answered)

    service = store.service(sockets, aside, searches.submit)
    handlers: Any = None
    if service is None:  # moto: the handlers build it from the environment, as on Lambda
        # Imported once the environment is set: Powertools reads its settings at import.
        handlers = importlib.import_module("crossing.handlers.ws")
        handlers.reset()
        service = handlers.service()
    engine = Engine(service, sockets, transaction=store.transaction, due=store.due)
    for resumed in store.resumed():  # the first round: clocks pause for the time away
        engine.put(resumed)
    app = build_app(
        frontend if frontend is not None else default_frontend(),
        sockets,
        engine,
        searches,
        connections_api=backend == "moto",
    )
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="off",
        ws="websockets-sansio",
        ws_ping_interval=20,
        # No per-message compression: a keystroke's messages are acks and patches of a
        # few hundred bytes, and compressing each (a zlib stream kept per phone) was a
        # fifth of a Large room's CPU per letter (docs/performance.md).
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=GRACEFUL_S,
    )
    server = Server(config, engine, pump_every)
    server.when_stopping = lambda: setattr(sockets, "stopping", True)
    thresholds = gc.get_threshold()
    gc.freeze()  # what starting built (modules, schemas, packs) lives as long as the server
    gc.set_threshold(*COLLECT_EVERY)
    try:
        yield Stack(f"http://{_url_host(host)}:{port}/", port, server, store, engine), listener
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        pushes.shutdown(wait=False, cancel_futures=True)
        searches.shutdown(wait=False, cancel_futures=True)
        listener.close()
        store.stop()
        if handlers is not None:
            handlers.reset()
        os.environ.clear()
        os.environ.update(saved)


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
