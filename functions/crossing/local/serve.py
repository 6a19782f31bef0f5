"""``crossing serve``: start everything, print the URL, stop cleanly on Ctrl-C or SIGTERM."""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from crossing.local import backend as local
from crossing.local.events import LambdaContext
from crossing.local.paths import default_frontend, default_packs
from crossing.local.pump import Pump

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
    """Start the whole stack in this process, serving in a thread; stop it on exit.

    ``backend`` is "sqlite" (kept in ``data``, default the user's data folder) or
    "moto". Raises ``CannotServe`` before starting anything if the address cannot be
    listened on or the data folder cannot be used.
    """
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
    internal = f"http://{_reachable(host)}:{port}"
    saved = dict(os.environ)
    for name, value in store.environment(internal).items():
        if name.startswith("POWERTOOLS_"):
            os.environ.setdefault(name, value)  # logging and metrics: the caller's say wins
        else:
            os.environ[name] = value
    # Imported once the environment is set: Powertools reads its settings at import.
    from crossing.handlers import ws as handlers
    from crossing.local.app import Sockets, build_app

    sockets = Sockets()
    handlers.reset(store.service(sockets))
    pump = Pump(store.due, lambda event: handlers.timer(event, LambdaContext()), every=pump_every)
    app = build_app(frontend if frontend is not None else default_frontend(), sockets)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
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
    server = uvicorn.Server(config)
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
    try:
        yield Stack(f"http://{_url_host(host)}:{port}/", port, server, thread, store, pump)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        # The pump first (a due event it is firing finishes), then the sockets (each gets
        # a close frame once its message in hand is done), then the store: every write
        # was committed before it was acknowledged.
        pump.stop()
        sockets.stopping = True
        server.should_exit = True
        thread.join(timeout=GRACEFUL_S + 5)
        store.stop()
        listener.close()
        os.environ.clear()
        os.environ.update(saved)
        handlers.reset()


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
        with running(host, port, frontend, packs, backend=backend, data=data) as stack:
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
