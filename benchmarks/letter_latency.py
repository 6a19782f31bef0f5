"""How long a letter takes from one browser to another through the local stack.

    python benchmarks/letter_latency.py [--letters 200] [--backend sqlite|moto]

Starts ``crossing serve``'s stack in this process, opens two WebSockets into one
Together room, and times each letter from the moment one player sends it to the
moment the other player's view shows it (WebSocket → handler → SQLite → WebSocket;
with ``--backend moto``: → moto's DynamoDB → @connections → WebSocket).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.local.client

from crossing.local.serve import running

from tests.local.client import two_in_a_game, white_squares

PACE = 0.1  # ten letters a second, a fast typist (the rooms refuse more than 25 a second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--letters", type=int, default=200)
    parser.add_argument("--backend", choices=["sqlite", "moto"], default="sqlite")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as data,
        running(backend=args.backend, data=Path(data)) as stack,
    ):
        hana, ann = two_in_a_game(stack.url.replace("http", "ws") + "ws", "together")
        whites = white_squares(hana.room)
        times = []
        for i in range(args.letters):
            sq, letter = whites[i % len(whites)], "ABCDEFGHIJKLMNOPQRSTUVWXY"[i % 25]
            start = time.perf_counter()
            ann.send("type", square=sq, letter=letter)
            hana.until(lambda p, sq=sq, letter=letter: p.room["game"]["board"][sq] == letter)
            times.append((time.perf_counter() - start) * 1000)
            time.sleep(max(0.0, PACE - (time.perf_counter() - start)))
        for p in (hana, ann):
            p.close()
    times.sort()
    print(f"{args.letters} letters at 10 a second, one browser to the other, {args.backend}:")
    print(
        f"median {statistics.median(times):.1f} ms, p90 {times[int(0.9 * len(times))]:.1f} ms, "
        f"p99 {times[int(0.99 * len(times))]:.1f} ms, max {times[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
