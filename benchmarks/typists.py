"""Rooms full of people typing at once, through the local stack's real WebSockets.

    python benchmarks/typists.py --rooms 3 --seconds 30 [--players 6] [--size midi]
        [--solves 20]

Starts ``crossing serve`` as the README does, in a data folder of its own (so its CPU
time and memory are its own, read from /proc: Linux), then opens
``rooms x players`` WebSockets from this one, written from docs/protocol.md alone:
each room is a Together game, each player types a letter every 300-800 ms into its
own squares, and follows the protocol's retry rule (a ``busy`` refusal is sent again
with the same seq). Reports, over the typing stretch only:

- ack latency (send -> ack, p50/p99) and other-phone latency (send -> another phone
  holding the acknowledged version, p99);
- letters lost: acknowledged letters that are not on the final board, plus letters
  never acknowledged; refusals by code; connections dropped;
- the server's CPU ms per acknowledged letter (every process it runs, if several);
- start to first answer, idle memory (resident, every process) and how long SIGTERM
  takes to stop it;
- with ``--solves N``: N worst-case Solver requests kept in flight all the while
  (every play, two blanks, an empty board: about 3 MB and 96,000 plays an answer),
  sent from a process of their own so their answers do not slow this client, and
  what they were answered (status, seconds).

``PYTHONPATH=<other checkout>/functions`` measures another commit's server with the
same client.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.rooms.fakes

from tests.rooms.fakes import apply_patch  # noqa: E402 (RFC 7386, as the client applies it)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SERVE = "import sys; from crossing.cli import main; sys.exit(main())"
WORST_SOLVE = {"rules": "crossplay", "rack": "??AEIRS", "all": True}
"""The largest answer found: every play of two blanks and AEIRS on an empty board."""
SOLVER_LOAD = """
import json, sys, threading, time, urllib.error, urllib.request
url, n, seconds, body = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4].encode()
until, results, lock = time.monotonic() + seconds, [], threading.Lock()
def ask():
    while time.monotonic() < until:
        began = time.perf_counter()
        request = urllib.request.Request(url, data=body, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                answer.read()
                status = answer.status
        except urllib.error.HTTPError as error:
            status = error.code
        with lock:
            results.append((status, time.perf_counter() - began))
        if status == 503:  # busy: ask again after the second its retry-after header asks
            time.sleep(1.0)
threads = [threading.Thread(target=ask) for _ in range(n)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps(results))
"""
"""``crossing serve`` as the console script runs it, with this Python and PYTHONPATH."""
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
        self.solves: list[tuple[int, float]] = []  # (HTTP status, seconds) of --solves


async def make_room(url: str, players: int, size: str, stats: Stats) -> list[Typist]:
    async def phone(code: str | None) -> Typist:
        p = Typist(url, stats)
        await p.open()
        await p.act("hello")
        if code is None:  # the host
            await p.act("host", name="Host")
            await p.until(lambda p: "code" in p.room)
        return p

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


def tree(pid: int) -> list[int]:
    """``pid`` and every process under it (an older stack ran several)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in task.read_text().split():
            found += tree(int(child))
    return found


def server_stats(server: subprocess.Popen) -> dict[str, Any]:
    """The server's CPU seconds and resident memory (MB), every process of it summed."""
    tick = os.sysconf("SC_CLK_TCK")
    cpu, rss = 0.0, 0.0
    for pid in tree(server.pid):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        cpu += (int(fields[11]) + int(fields[12])) / tick
        rss += next(
            int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")
        )
    return {"cpu": cpu, "rss_mb": rss / 1024, "threads": {}}


async def run(args: argparse.Namespace, url: str, server: subprocess.Popen) -> Stats:
    stats = Stats()
    rooms = []
    for first in range(0, args.rooms, 10):  # ten at a time: setting up is not measured
        batch = range(first, min(args.rooms, first + 10))
        rooms += await asyncio.gather(
            *(make_room(url, args.players, args.size, stats) for _ in batch)
        )
    await asyncio.sleep(0.5)
    before = server_stats(server)
    client_cpu = time.process_time()
    solving = None
    if args.solves:
        solver = url.replace("ws://", "http://", 1).removesuffix("ws") + "api/solve"
        load = [solver, str(args.solves), str(args.seconds), json.dumps(WORST_SOLVE)]
        solving = subprocess.Popen(
            [sys.executable, "-c", SOLVER_LOAD, *load],
            stdout=subprocess.PIPE,
            text=True,
        )
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
    if solving is not None:
        out, _ = await asyncio.to_thread(solving.communicate)
        stats.solves = json.loads(out)
    await asyncio.sleep(1.0)
    after = server_stats(server)
    stats.cpu_ms = (after["cpu"] - before["cpu"]) * 1000
    stats.client_cpu_ms = (time.process_time() - client_cpu) * 1000
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--size", default="midi")
    parser.add_argument(
        "--solves", type=int, default=0, help="worst-case Solver requests kept in flight"
    )
    parser.add_argument(
        "--by", type=float, default=0, help="also ack p50/p99 per stretch of this many seconds"
    )
    args = parser.parse_args()
    data = tempfile.TemporaryDirectory()  # the rooms (and timers) of no earlier run
    # PYTHONPATH may name another checkout's functions/, to measure it with the same client.
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH") or str(ROOT / "functions")}
    began = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE, "serve", "--port", "0", "--data", data.name],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout
        line = server.stdout.readline()
        page = line.split("open ", 1)[1].strip()
        with urllib.request.urlopen(page, timeout=30) as answer:
            answer.read()
        started = time.perf_counter() - began
        time.sleep(2.0)  # idle: whatever starting left behind has settled
        idle = server_stats(server)["rss_mb"]
        url = page.replace("http", "ws") + "ws"
        speed = machine_speed()
        stats = asyncio.run(run(args, url, server))
        speed = (speed + machine_speed()) / 2
        stopping = time.perf_counter()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
        stopped = time.perf_counter() - stopping
        rest = server.stdout.read()
    finally:
        if server.poll() is None:
            server.kill()
        data.cleanup()
    letters = max(1, stats.letters)
    print(
        f"{args.rooms} rooms x {args.players} typists, Together {args.size}, "
        f"{args.seconds:.0f} s, a letter every 300-800 ms each:"
    )
    print(f"  machine speed: {speed:.2f} s for ten million turns of an empty loop (mean of 2)")
    print(f"  start to first answer {started:.2f} s; idle memory {idle:.0f} MB (resident)")
    traceback = "Traceback" in rest
    print(f"  SIGTERM: stopped in {stopped:.2f} s, exit code {code}, traceback {traceback}")
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
    print(f"  server CPU {stats.cpu_ms / letters:.2f} ms per letter")
    print(
        f"  this client's CPU {stats.client_cpu_ms / letters:.2f} ms per letter "
        f"({stats.client_cpu_ms / 1000 / args.seconds:.0%} of a core)"
    )
    if stats.acks:
        print(f"  ack mean {statistics.mean(stats.acks):.0f} ms")
    if args.solves:
        statuses = Counter(status for status, _ in stats.solves)
        took = [seconds for status, seconds in stats.solves if status == 200]
        print(
            f"  Solver, {args.solves} worst-case requests in flight: {len(stats.solves)} "
            f"answered {dict(statuses)}; 200s took p50 {pct(took, 0.5):.2f} s, "
            f"max {max(took, default=float('nan')):.2f} s"
        )
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
