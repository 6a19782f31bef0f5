"""One more serving process of ``crossing serve --workers N``: started by the first,
serving on the listening socket it inherits, linked to every other worker.

    python -m crossing.local.worker --worker=1 --count=2 --listener=FD --links=HEX --data=DIR
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
from pathlib import Path

from crossing.local import backend as local
from crossing.local.funnel import Outlet
from crossing.local.workers import KEY_VARIABLE, LinkDown, Peers

log = logging.getLogger(__name__)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--listener", type=int, required=True, help="the inherited socket's fd")
    parser.add_argument("--links", required=True, help="where the workers listen, in hex")
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--packs", type=Path)
    parser.add_argument("--frontend", type=Path)
    parser.add_argument("--pump-every", type=float, default=1.0)
    parser.add_argument("--outlet", type=int, help="where to pass connections to the first")
    args = parser.parse_args(argv)
    stopping = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C reaches the whole group
        signal.signal(signum, lambda *_: stopping.set())
    # Imported here: the handlers read the environment (the first worker's) at import.
    from crossing.local.serve import _serving

    listener = socket.socket(fileno=args.listener)
    try:
        backend = local.SqliteBackend(args.data, args.packs, shared=True, first=False)
    except local.BackendError as error:
        print(f"crossing serve: worker {args.worker}: {error}", file=sys.stderr)
        return 1
    # If the first worker dies, so does this one at once: a new ``crossing serve`` must
    # find nobody else writing its data folder.
    peers = Peers(
        args.worker,
        args.count,
        bytes.fromhex(args.links).decode(),
        bytes.fromhex(os.environ[KEY_VARIABLE]),
        on_parent_gone=lambda: os._exit(1),
    )
    try:
        peers.connect()
    except LinkDown as error:
        print(f"crossing serve: worker {args.worker}: {error}", file=sys.stderr)
        return 1
    outlet = Outlet(socket.socket(fileno=args.outlet)) if args.outlet is not None else None
    with _serving(listener, backend, args.frontend, args.pump_every, peers, outlet) as stack:
        peers.wait_for_all()
        peers.tell(0, "ready", args.worker)
        while stack.thread and stack.thread.is_alive() and not stopping.wait(0.5):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
