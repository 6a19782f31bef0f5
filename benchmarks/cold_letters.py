"""What a letter costs when the CPU is cold: a Large Together room of eight on SQLite,
the same letters typed back to back and then with a pause before each (a room of
eight typists sends one about every 65 ms, and the server idles in between).

    python benchmarks/cold_letters.py [--letters 400] [--gap-ms 60]

Each letter goes through the handler the local stack calls (``handlers.ws.message``),
on this one thread; prints its CPU ms per letter both ways, and the same for one
``flock`` lock and unlock (the cost of a system call, cold and hot).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.rooms.fakes

from crossing.local.backend import POWERTOOLS  # noqa: E402

for _name, _value in POWERTOOLS.items():  # as crossing serve runs the handlers
    os.environ.setdefault(_name, _value)

from crossing.aws.memory import ManualTimers, MemoryAccounts, RecordingConnections  # noqa: E402
from crossing.aws.packs import FilePacks  # noqa: E402
from crossing.handlers import ws  # noqa: E402
from crossing.local.events import LambdaContext, websocket_event  # noqa: E402
from crossing.local.sqlite import Database, SqliteStore  # noqa: E402
from crossing.rooms.service import RoomService  # noqa: E402

from tests.rooms.fakes import Clock, phone_maker  # noqa: E402


def large_room(data: Path) -> tuple[RoomService, list, list[int]]:
    clock = Clock()
    service = RoomService(
        SqliteStore(Database(data / "bench.sqlite3", clock=lambda: clock() / 1000)),
        RecordingConnections(),
        ManualTimers(),
        FilePacks(ROOT / "puzzles" / "packs"),
        clock=clock,
        rng=random.Random(3),
        sleep=lambda seconds: None,
        accounts=MemoryAccounts(),
        hold=True,
    )
    phone = phone_maker(service)
    host = phone()
    host.send("host", name="Host")
    code = host.room["code"]
    phones = [host]
    for i in range(7):
        p = phone()
        p.send("join", code=code, name=f"P{i}")
        phones.append(p)
    host.send("to_game")
    host.send("choose", mode="together", size="large")
    assert not host.errors(host.send("start"))
    puzzle = host.room["game"]["puzzle"]
    squares = [s for s in range(puzzle["width"] * puzzle["height"]) if s not in puzzle["blocks"]]
    return service, phones, squares


def type_letters(service: RoomService, phones: list, squares: list[int], count: int, gap: float):
    """CPU ms per letter, each typed by the next phone into its own squares."""
    rng = random.Random(1)
    spent = 0.0
    for i in range(count):
        p = phones[i % len(phones)]
        p.seq += 1
        body = json.dumps(
            {
                "action": "type",
                "seq": p.seq,
                "square": squares[(i * 7) % len(squares)],
                "letter": rng.choice("ABCDEFG"),
            }
        )
        if gap:
            time.sleep(gap)
        # The room's clock moves as a room of eight typists' does (a letter every 65 ms),
        # so no typist's rate limit is reached.
        service.clock.now += 65
        event = websocket_event("MESSAGE", p.connection, body=body)
        event["requestContext"]["requestTimeEpoch"] = service.clock.now
        began = time.thread_time()
        ws.message(event, LambdaContext())
        spent += time.thread_time() - began
        refused = [m for m in service.connections.sent[p.connection] if m.get("type") == "error"]
        assert not refused, refused
        service.connections.clear()
    return spent / count * 1000


def flock_us(count: int, gap: float, path: Path) -> float:
    with path.open("a") as f:
        spent = 0.0
        for _ in range(count):
            if gap:
                time.sleep(gap)
            began = time.thread_time()
            fcntl.flock(f, fcntl.LOCK_EX)
            fcntl.flock(f, fcntl.LOCK_UN)
            spent += time.thread_time() - began
    return spent / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--letters", type=int, default=400)
    parser.add_argument("--gap-ms", type=float, default=60)
    args = parser.parse_args()
    gap = args.gap_ms / 1000
    with tempfile.TemporaryDirectory() as folder:
        service, phones, squares = large_room(Path(folder))
        ws.reset(service)
        type_letters(service, phones, squares, 50, 0)  # warm: the first letters build caches
        hot = type_letters(service, phones, squares, args.letters, 0)
        cold = type_letters(service, phones, squares, args.letters, gap)
        print(
            f"Large Together room of eight on SQLite, {args.letters} letters each way: "
            f"{hot:.2f} ms of CPU a letter back to back, {cold:.2f} ms with "
            f"{args.gap_ms:.0f} ms before each ({cold / hot:.1f}x)"
        )
        lock = Path(folder) / "turns"
        hot_lock, cold_lock = flock_us(300, 0, lock), flock_us(300, gap, lock)
        print(
            f"one flock lock and unlock: {hot_lock:.1f} us back to back, {cold_lock:.1f} us "
            f"after {args.gap_ms:.0f} ms ({cold_lock / hot_lock:.0f}x)"
        )
        ws.reset()


if __name__ == "__main__":
    main()
