"""``crossing serve``: start everything, print the URL, stop cleanly on Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from crossing.handlers import ws as handlers
from crossing.local import backend as local
from crossing.local.app import Sockets, build_app
from crossing.local.events import LambdaContext
from crossing.local.paths import default_frontend, default_packs
from crossing.local.pump import SchedulePump


@dataclass
class Stack:
    """A running local stack (for ``serve`` and for tests that need a real server)."""

    url: str
    server: uvicorn.Server
    thread: threading.Thread | None
    backend: local.Backend
    pump: SchedulePump


@contextlib.contextmanager
def running(
    host: str = "127.0.0.1",
    port: int = 0,
    frontend: Path | None = None,
    packs: Path | None = None,
    pump_every: float = 1.0,
) -> Iterator[Stack]:
    """Start the whole stack in this process, serving in a thread; stop it on exit."""
    port = port or local.free_port(host)
    backend = local.start_backend(packs if packs is not None else default_packs())
    internal = f"http://127.0.0.1:{port}"
    saved = dict(os.environ)
    for name, value in local.environment(backend, internal).items():
        if name.startswith("POWERTOOLS_"):
            os.environ.setdefault(name, value)  # logging and metrics: the caller's say wins
        else:
            os.environ[name] = value
    sockets = Sockets()
    handlers.reset(connections=sockets)
    pump = SchedulePump(
        backend.client("scheduler"),
        local.GROUP,
        lambda event: handlers.timer(event, LambdaContext()),
        every=pump_every,
    )
    app = build_app(frontend if frontend is not None else default_frontend(), sockets)
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", lifespan="off", ws_ping_interval=20
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="crossing-serve", daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        threading.Event().wait(0.02)
    pump.start()
    try:
        yield Stack(f"http://{_shown(host)}:{port}/", server, thread, backend, pump)
    finally:
        pump.stop()
        server.should_exit = True
        thread.join(timeout=10)
        backend.stop()
        os.environ.clear()
        os.environ.update(saved)
        handlers.reset()


def serve(host: str, port: int, frontend: Path | None, packs: Path | None) -> int:
    with running(host, port, frontend, packs) as stack:
        print(f"Crossing Words is running: open {stack.url}", flush=True)
        if host in ("127.0.0.1", "localhost"):
            print(
                "Only this machine can reach it; use --host 0.0.0.0 to play from phones "
                "on your network.",
                flush=True,
            )
        print("Press Ctrl-C to stop.", flush=True)
        try:
            while stack.thread and stack.thread.is_alive():
                stack.thread.join(timeout=0.5)
        except KeyboardInterrupt:
            print("\nStopping.", flush=True)
    return 0


def _shown(host: str) -> str:
    return "localhost" if host in ("127.0.0.1", "0.0.0.0", "") else host
