"""Rooms full of people typing at once, through the local stack's real WebSockets.

    python benchmarks/typists.py --rooms 3 --seconds 30 [--players 6] [--size midi]

Starts the local stack in a child process (so its CPU time is its own), then opens
``rooms x players`` WebSockets from this one, written from docs/protocol.md alone:
each room is a Together game, each player types a letter every 300-800 ms into its
own squares, and follows the protocol's retry rule (a ``busy`` refusal is sent again
with the same seq). Reports, over the typing stretch only:

- ack latency (send -> ack, p50/p99) and other-phone latency (send -> another phone
  holding the acknowledged version, p99);
- letters lost: acknowledged letters that are not on the final board, plus letters
  never acknowledged; refusals by code; connections dropped;
- the server's CPU ms per acknowledged letter and its store requests per letter.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.rooms.fakes

from crossing.local.workers import owner  # noqa: E402 (where a room is applied)

from tests.local.procs import holder_of, serving, writer_of  # noqa: E402
from tests.rooms.fakes import apply_patch  # noqa: E402 (RFC 7386, as the client applies it)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
RETRY_LIMIT = 8


class Typist:
    def __init__(self, url: str, stats: Stats):
        self.url = url
        self.stats = stats
        self.seq = int(time.time() * 1000)
        self.room: dict[str, Any] = {}
        self.version = 0
        self.versions_at: dict[int, float] = {}  # version -> when this phone first held it
        self.waiting: dict[int, asyncio.Future] = {}
        self.sent_at: dict[int, float] = {}
        self.ws: Any = None
        self.reader: asyncio.Task | None = None
        self.closed = False
        self.version_seen = asyncio.Event()

    async def open(self) -> None:
        self.ws = await connect(self.url, max_size=2**22, ping_interval=20, ping_timeout=20)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                m = json.loads(text)
                if m["type"] == "room":
                    self.room = m["room"] if m["full"] else apply_patch(self.room, m["room"])
                    if not m["full"] and m["version"] != self.version + 1:
                        self.stats.gaps += 1
                        await self.ws.send(json.dumps({"action": "snapshot", "seq": self._next()}))
                    self.version = m["version"]
                    self.versions_at.setdefault(m["version"], time.perf_counter())
                    self.version_seen.set()
                elif m["type"] in ("ack", "error") and m.get("seq") in self.waiting:
                    future = self.waiting.pop(m["seq"])
                    if not future.done():
                        future.set_result(m)
        except ConnectionClosed as closed:
            if not self.closed:
                self.stats.dropped += 1
                self.stats.drop_reasons[str(closed)[:60]] += 1
        for future in self.waiting.values():
            if not future.done():
                future.set_result({"type": "error", "code": "closed"})

    def _next(self) -> int:
        self.seq += 1
        return self.seq

    async def act(self, action: str, timeout: float = 30.0, **fields: Any) -> dict[str, Any]:
        """Send; wait for its ack; a ``busy`` refusal is sent again with the same seq."""
        seq = self._next()
        for attempt in range(RETRY_LIMIT):
            future = asyncio.get_running_loop().create_future()
            self.waiting[seq] = future
            await self.ws.send(json.dumps({"action": action, "seq": seq, **fields}))
            try:
                answer = await asyncio.wait_for(future, timeout)
            except TimeoutError:
                self.waiting.pop(seq, None)
                return {"type": "error", "code": "timeout"}
            if answer["type"] == "error" and answer["code"] == "busy":
                self.stats.retries += 1
                await asyncio.sleep(min(2.0, 0.05 * 2**attempt) * random.uniform(0.5, 1))
                continue
            return answer
        return answer

    async def until(self, check, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while not check(self):
            self.version_seen.clear()
            await asyncio.wait_for(self.version_seen.wait(), max(0.01, end - time.monotonic()))

    async def close(self) -> None:
        self.closed = True
        await self.ws.close()


class Stats:
    def __init__(self) -> None:
        self.acks: list[float] = []
        self.sent_at: list[float] = []  # when each acknowledged letter was sent, as acks
        self.others: list[float] = []
        self.refused: Counter[str] = Counter()
        self.unanswered = 0
        self.dropped = 0
        self.drop_reasons: Counter[str] = Counter()
        self.retries = 0
        self.gaps = 0
        self.lost_on_board = 0
        self.letters = 0
        self.cpu_ms = 0.0
        self.threads_ms: dict[str, float] = {}
        self.client_cpu_ms = 0.0
        self.server_cpu: list[tuple[float, float]] = []  # (when, the server's CPU s)
        self.server_threads: list[dict[str, float]] = []
        self.lags: list[tuple[float, float]] = []  # (when, ms late) of this client's loop


class Placement:
    """Which process each phone's socket is left in (``--placement``): wherever the kernel
    hands it (``kernel``), or, by closing and opening again until it lands there, in the
    room's owner (``owner``) or in another (``elsewhere``: every frame is handed over
    and every post crosses a link). Read from /proc, so Linux only."""

    def __init__(self, how: str, server: int, url: str, count: int) -> None:
        self.how = how
        self.count = count
        self.workers = serving(server) if how != "kernel" else []
        self.port = int(url.rsplit(":", 1)[1].split("/")[0])
        self.held: Counter[str] = Counter()  # phones kept, by "owner" / "elsewhere"

    def keeps(self, phone: Typist, code: str) -> bool:
        if self.how == "kernel":
            return True
        held = holder_of(self.workers, self.port, phone.ws.local_address[1])
        where = "owner" if owner(code, self.count) == held else "elsewhere"
        if where != self.how:
            return False
        self.held[where] += 1
        return True


async def make_room(
    url: str, players: int, size: str, stats: Stats, placement: Placement
) -> list[Typist]:
    async def phone(code: str | None) -> Typist:
        for _ in range(200):
            p = Typist(url, stats)
            await p.open()
            await p.act("hello")
            if code is None:  # the host: a room owned where its socket is wanted
                await p.act("host", name="Host")
                await p.until(lambda p: "code" in p.room)
            if placement.keeps(p, code or p.room["code"]):
                return p
            await p.close()
        raise SystemExit(f"no socket landed as --placement {placement.how} asks")

    host = await phone(None)
    code = host.room["code"]
    phones = [host]
    for i in range(1, players):
        p = await phone(code)
        await p.act("join", code=code, name=f"P{i}")
        phones.append(p)
    await host.act("to_game")
    await host.act("choose", mode="together", size=size)
    await host.act("start")
    for p in phones:
        await p.until(lambda p: p.room.get("phase") == "playing")
    return phones


async def type_for(
    phone: Typist, others: list[Typist], squares: list[int], until: float, stats: Stats
) -> dict[int, str]:
    """Type into ``squares`` until ``until``; return the last acknowledged letter per square."""
    kept: dict[int, str] = {}
    rng = random.Random()
    pending: set[asyncio.Task] = set()

    async def one(square: int, letter: str) -> None:
        start = time.perf_counter()
        answer = await phone.act("type", square=square, letter=letter)
        if answer["type"] == "ack":
            stats.acks.append((time.perf_counter() - start) * 1000)
            stats.sent_at.append(start)
            stats.letters += 1
            kept[square] = letter  # squares are this phone's own and typed in order
            version = answer["version"]
            for other in others:
                try:
                    await other.until(lambda p, v=version: p.version >= v, timeout=10)
                except TimeoutError:
                    continue
                seen = other.versions_at.get(version) or min(
                    t for v, t in other.versions_at.items() if v >= version
                )
                stats.others.append((max(seen, start) - start) * 1000)
        else:
            stats.refused[answer.get("code", "?")] += 1

    i = 0
    while time.monotonic() < until and not phone.closed:
        square = squares[i % len(squares)]
        # Send without waiting for the ack, as the browser does; the next letter goes to
        # another square so acknowledgements on one square arrive in typing order.
        task = asyncio.create_task(one(square, rng.choice(LETTERS)))
        pending.add(task)
        task.add_done_callback(pending.discard)
        i += 1
        await asyncio.sleep(rng.uniform(0.3, 0.8))
        if i % len(squares) == 0 and pending:
            await asyncio.gather(*pending)  # never two letters in flight on one square
    if pending:
        await asyncio.gather(*pending)
    return kept


def server_stats(server: subprocess.Popen) -> dict[str, Any]:
    assert server.stdin and server.stdout
    server.stdin.write("stats\n")
    server.stdin.flush()
    return json.loads(server.stdout.readline())


async def run(
    args: argparse.Namespace, url: str, server: subprocess.Popen, placement: Placement
) -> Stats:
    stats = Stats()
    rooms = []
    for first in range(0, args.rooms, 10):  # ten at a time: setting up is not measured
        batch = range(first, min(args.rooms, first + 10))
        rooms += await asyncio.gather(
            *(make_room(url, args.players, args.size, stats, placement) for _ in batch)
        )
    await asyncio.sleep(0.5)
    before = server_stats(server)
    client_cpu = time.process_time()
    watching = asyncio.create_task(_watch_loop(stats))
    sampling = asyncio.create_task(_sample_server(stats, server, args.by))
    until = time.monotonic() + args.seconds
    jobs = []
    for phones in rooms:
        puzzle = phones[0].room["game"]["puzzle"]
        whites = [s for s in range(puzzle["width"] * puzzle["height"]) if s not in puzzle["blocks"]]
        for i, p in enumerate(phones):
            mine = whites[i :: len(phones)]
            others = [o for o in phones if o is not p]
            jobs.append(type_for(p, others, mine, until, stats))
    kept = await asyncio.gather(*jobs)
    watching.cancel()
    sampling.cancel()
    await asyncio.sleep(1.0)
    after = server_stats(server)
    stats.cpu_ms = (after["cpu"] - before["cpu"]) * 1000
    stats.threads_ms = {
        k: (v - before["threads"].get(k, 0.0)) * 1000 for k, v in after["threads"].items()
    }
    stats.client_cpu_ms = (time.process_time() - client_cpu) * 1000
    stats.gc_ms = (after["gc"] - before["gc"]) * 1000
    stats.full_collections = after["full"] - before["full"]
    stats.store = after["store"] - before["store"]
    stats.store_by = {k: after["by"].get(k, 0) - before["by"].get(k, 0) for k in after["by"]}
    per_room = [kept[i : i + args.players] for i in range(0, len(kept), args.players)]
    for phones in rooms:
        check = phones[0]
        # A snapshot is answered with the whole room, not an ack.
        await check.ws.send(json.dumps({"action": "snapshot", "seq": check._next()}))
    await asyncio.sleep(1.0)
    for phones, job in zip(rooms, per_room, strict=True):
        check = phones[0]
        board = check.room.get("game", {}).get("board", "")
        for squares in job:
            stats.lost_on_board += sum(1 for sq, letter in squares.items() if board[sq] != letter)
    for phones in rooms:
        for p in phones:
            await p.close()
    return stats


async def _sample_server(stats: Stats, server: subprocess.Popen, every: float) -> None:
    """The server's CPU every ``every`` seconds (with ``--by``), to see it grow or not."""
    while every:
        answer = server_stats(server)
        stats.server_cpu.append((time.perf_counter(), answer["cpu"]))
        stats.server_threads.append(answer["threads"])
        await asyncio.sleep(every)


async def _watch_loop(stats: Stats) -> None:
    """How late this client's own event loop wakes (its stalls show in every latency)."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(0.005)
        stats.lags.append((asked, (time.perf_counter() - asked) * 1000 - 5))


def writer_cpu() -> float:
    """The CPU seconds of this process's data file writer, if it has one."""
    from crossing.local.serve import stat_cpu

    pid = writer_of(os.getpid())
    try:
        return 0.0 if pid is None else stat_cpu(Path(f"/proc/{pid}/stat"))
    except OSError:
        return 0.0


def machine_speed() -> float:
    """CPU seconds for ten million turns of an empty Python loop: this VM's speed drifts
    by half and more within an hour, so every figure is printed beside it."""
    began = time.process_time()
    for _ in range(10_000_000):
        pass
    return time.process_time() - began


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def serve(workers: int, funnel: int | None) -> None:
    """The child process: the local stack, answering "stats" lines on stdin."""
    import faulthandler
    import signal

    from crossing.handlers import ws as handlers
    from crossing.local.serve import running, thread_cpu

    faulthandler.register(signal.SIGUSR1)  # kill -USR1 <pid>: every thread's stack
    collecting = {"since": 0.0, "total": 0.0, "full": 0}

    def timed(phase: str, info: dict[str, int]) -> None:  # the collector's own share
        if phase == "start":
            collecting["since"] = time.perf_counter()
        else:
            collecting["total"] += time.perf_counter() - collecting["since"]
            collecting["full"] += info["generation"] == 2

    gc.callbacks.append(timed)
    # Metrics and logs print to stdout: keep it for them, and answer on a private copy.
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    # A data folder of its own: the rooms (and the timers) of earlier runs, kept in the
    # user's folder, would fire into this one's CPU time.
    with (
        tempfile.TemporaryDirectory() as data,
        running(
            frontend=ROOT / "frontend",
            data=Path(data),
            workers=workers,
            # Only when asked: the code of an earlier commit, measured with PYTHONPATH,
            # may not know it.
            **({} if funnel is None else {"funnel": funnel}),
        ) as stack,
    ):
        print(stack.url, file=answer, flush=True)
        for line in sys.stdin:
            if line.strip() == "stats":
                store = handlers.service().store
                by = Counter(getattr(store, "requests", {}))
                cpu = time.process_time()
                threads = thread_cpu()
                if writing := writer_cpu():  # the data file's writer, a process of its own
                    cpu += writing
                    threads["writer"] = writing
                for worker in stack.crew.peers.linked() if stack.crew else ():
                    theirs = stack.crew.peers.call(worker, "stats")
                    cpu += theirs["cpu"]
                    by.update(theirs["by"])
                    threads |= {f"{worker}:{k}": v for k, v in theirs["threads"].items()}
                print(
                    json.dumps(
                        {
                            "cpu": cpu,
                            "gc": collecting["total"],
                            "full": collecting["full"],
                            "store": sum(by.values()),
                            "by": by,
                            "threads": threads,
                        }
                    ),
                    file=answer,
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--size", default="midi")
    parser.add_argument(
        "--by", type=float, default=0, help="also ack p50/p99 per stretch of this many seconds"
    )
    parser.add_argument(
        "--workers", type=int, default=None, help="serving processes (default: crossing serve's)"
    )
    parser.add_argument(
        "--placement",
        choices=("kernel", "owner", "elsewhere"),
        default="kernel",
        help="which process holds each phone's socket: as the kernel hands them out, "
        "the room's owner, or another (Linux)",
    )
    parser.add_argument(
        "--funnel",
        type=int,
        default=None,
        help="phones the first process serves before the others serve theirs (default: "
        "crossing serve's; 0 with --placement owner or elsewhere, which place them)",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.workers, args.funnel)
        return
    if args.placement != "kernel" and args.funnel is None:
        args.funnel = 0
    workers = args.workers
    if workers is None:
        from crossing.local.serve import default_workers

        workers = default_workers()
    if args.placement == "elsewhere" and workers < 2:
        parser.error("--placement elsewhere needs two serving processes or more")
    # PYTHONPATH may name another checkout's functions/, to measure it with the same client.
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH") or str(ROOT / "functions")}
    server = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--serve",
            f"--workers={workers}",
            *([] if args.funnel is None else [f"--funnel={args.funnel}"]),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout
        url = server.stdout.readline().strip().replace("http", "ws") + "ws"
        placement = Placement(args.placement, server.pid, url, workers)
        speed = machine_speed()
        stats = asyncio.run(run(args, url, server, placement))
        speed = (speed + machine_speed()) / 2
    finally:
        server.terminate()
        server.wait(timeout=10)
    letters = max(1, stats.letters)
    print(
        f"{args.rooms} rooms x {args.players} typists, Together {args.size}, "
        f"{workers} serving process{'es' if workers > 1 else ''}, "
        f"{args.seconds:.0f} s, a letter every 300-800 ms each:"
    )
    print(f"  machine speed: {speed:.2f} s for ten million turns of an empty loop (mean of 2)")
    if placement.held:
        print(f"  sockets held by the room's owner / elsewhere: {dict(placement.held)}")
    print(
        f"  acknowledged letters {stats.letters} ({stats.letters / args.seconds:.1f}/s); "
        f"ack p50 {pct(stats.acks, 0.5):.0f} ms, p99 {pct(stats.acks, 0.99):.0f} ms; "
        f"other-phone p50 {pct(stats.others, 0.5):.0f} ms, p99 {pct(stats.others, 0.99):.0f} ms"
    )
    print(
        f"  lost: {stats.lost_on_board} acknowledged but not on the board, "
        f"{sum(stats.refused.values())} never acknowledged {dict(stats.refused)}; "
        f"busy retries {stats.retries}; version gaps {stats.gaps}"
    )
    print(f"  dropped connections {stats.dropped} {dict(stats.drop_reasons)}")
    print(
        f"  server CPU {stats.cpu_ms / letters:.1f} ms per letter "
        f"(garbage collection {stats.gc_ms / letters:.2f} ms, {stats.full_collections} full); "
        f"store requests {stats.store / letters:.2f} per letter "
        f"{ {k: round(v / letters, 2) for k, v in stats.store_by.items() if v} }"
    )
    threads = ", ".join(f"{k} {v / letters:.2f}" for k, v in sorted(stats.threads_ms.items()) if v)
    print(f"  of which, ms per letter by thread (N: of worker N): {threads}")
    print(
        f"  this client's CPU {stats.client_cpu_ms / letters:.2f} ms per letter "
        f"({stats.client_cpu_ms / 1000 / args.seconds:.0%} of a core)"
    )
    if stats.acks:
        print(f"  ack mean {statistics.mean(stats.acks):.0f} ms")
    if args.by and stats.acks:
        # A stall shows as one stretch whose p99 stands out; the first holds the start,
        # where every typist's first letter leaves at once.
        first = min(stats.sent_at)
        stretches: dict[int, list[float]] = {}
        for sent, ack in zip(stats.sent_at, stats.acks, strict=True):
            stretches.setdefault(int((sent - first) / args.by), []).append(ack)
        late: dict[int, float] = {}
        for when, lag in stats.lags:
            n = int((when - first) / args.by)
            late[n] = max(late.get(n, 0.0), lag)
        cpu = {
            int((t0 - first) / args.by + 0.5): (c1 - c0) / args.by
            for (t0, c0), (_, c1) in zip(stats.server_cpu, stats.server_cpu[1:], strict=False)
        }
        for n, acks in sorted(stretches.items()):
            print(
                f"    {n * args.by:5.0f} s: {len(acks)} letters, ack p50 {pct(acks, 0.5):.0f} ms, "
                f"p99 {pct(acks, 0.99):.0f} ms, max {max(acks):.0f} ms; "
                f"this client's loop up to {late.get(n, 0.0):.0f} ms late; "
                f"server {cpu.get(n, float('nan')):.0%} of a core"
            )


if __name__ == "__main__":
    main()
