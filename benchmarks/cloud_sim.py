"""The cloud, simulated: concurrent "Lambdas" on one DynamoDB table (moto) with latency.

    python benchmarks/cloud_sim.py [--rooms 2] [--typists 8] [--rate 3] [--seconds 20]
                                   [--workers 8] [--latency 5-10]

Each worker is its own ``RoomService`` (a Lambda container: ``hold=False``, so it reads
the room before every write, as where many processes write) on a ``DynamoStore`` whose
every request waits 5-10 ms first. Each typist types ``--rate`` letters a second into
its own squares, each frame handed to whichever worker is free, so frames of one room
are handled side by side and out of order, as API Gateway's concurrent invocations
would. Reports busy refusals, letters lost (acknowledged but not on the final board,
or never acknowledged), whether every phone's board is the stored board, and store
requests per letter.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import boto3
from crossing.aws import table
from crossing.aws.dynamo import DynamoStore
from crossing.aws.memory import ManualTimers, MemoryPacks, RecordingConnections
from crossing.rooms.service import RoomService
from crossing.rooms.simulate import synthetic_puzzle
from crossing.rooms.storage import load_room
from moto import mock_aws

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.rooms.fakes

from tests.rooms.fakes import apply_patch  # RFC 7386, as the client applies it


class Slow:
    """A boto3 client whose every call waits first, like a request over the network."""

    def __init__(self, client: Any, low: float, high: float) -> None:
        self._client, self._low, self._high = client, low, high

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._client, name)
        if not callable(call):
            return call

        def slow(*args: Any, **kwargs: Any) -> Any:
            time.sleep(random.uniform(self._low, self._high))
            return call(*args, **kwargs)

        return slow


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=2)
    parser.add_argument("--typists", type=int, default=8)
    parser.add_argument("--rate", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--latency", default="5-10")
    args = parser.parse_args()
    low, high = (float(x) / 1000 for x in args.latency.split("-"))
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        table.create_table(client, "sim")
        connections = RecordingConnections()
        lock = threading.Lock()
        real_send = connections.send

        def send(connection: str, message: Any) -> bool:
            with lock:
                return real_send(connection, message)

        connections.send = send  # type: ignore[method-assign]
        puzzle = synthetic_puzzle(11, 3)
        stores = [DynamoStore("sim", Slow(client, low, high)) for _ in range(args.workers)]
        services = [
            RoomService(s, connections, ManualTimers(), MemoryPacks([puzzle]), hold=False)
            for s in stores
        ]
        setup = services[0]
        seqs: Counter[str] = Counter()

        def say(connection: str, action: str, **fields: Any) -> int:
            seqs[connection] += 1
            frame = {"action": action, "seq": seqs[connection], **fields}
            setup.receive(connection, json.dumps(frame))
            return seqs[connection]

        rooms = []
        for r in range(args.rooms):
            phones = [f"r{r}p{i}" for i in range(args.typists)]
            for p in phones:
                say(p, "hello")
            say(phones[0], "host", name="Host")
            code = setup.store.get_connection(phones[0])[0]
            for i, p in enumerate(phones[1:], 1):
                say(p, "join", code=code, name=f"P{i}")
            say(phones[0], "to_game")
            say(phones[0], "choose", mode="together", size="large")
            say(phones[0], "start")
            rooms.append((code, phones))
        whites = [s for s in range(121) if puzzle.grid.is_white(s)]
        before = sum(sum(s.requests.values()) for s in stores)
        pool = ThreadPoolExecutor(max_workers=args.workers)
        free = list(range(args.workers))
        free_lock = threading.Lock()
        typed: dict[tuple[str, int], tuple[str, int]] = {}  # (phone, seq) -> (letter, square)

        busy: Counter[str] = Counter()

        def answer_to(connection: str, seq: int) -> dict | None:
            with lock:
                sent = list(connections.sent.get(connection, ()))
            return next(
                (
                    m
                    for m in reversed(sent)
                    if m["type"] in ("ack", "error") and m.get("seq") == seq
                ),
                None,
            )

        def handle(connection: str, body: str) -> None:
            """One invocation; a ``busy`` refusal is sent again, same seq, as clients must."""
            seq = json.loads(body)["seq"]
            for attempt in range(6):
                with free_lock:
                    worker = free.pop() if free else random.randrange(args.workers)
                try:
                    services[worker].receive(connection, body)
                finally:
                    with free_lock:
                        free.append(worker)
                got = answer_to(connection, seq)
                if not (got and got["type"] == "error" and got["code"] == "busy"):
                    return
                busy["resent"] += 1
                time.sleep(min(4.0, 0.15 * 2**attempt) * random.uniform(0.5, 1))

        rng = random.Random(5)
        schedule = []
        for _, phones in rooms:
            for i, p in enumerate(phones):
                at = rng.uniform(0, 1 / args.rate)
                mine = whites[i :: len(phones)]
                n = 0
                while at < args.seconds:
                    schedule.append((at, p, mine[n % len(mine)]))
                    n += 1
                    at += rng.uniform(0.5, 1.5) / args.rate
        schedule.sort()
        start = time.monotonic()
        futures = []
        last: dict[tuple[str, int], int] = {}  # (phone, square) -> seq of its last letter
        for at, p, sq in schedule:
            time.sleep(max(0.0, start + at - time.monotonic()))
            seqs[p] += 1
            letter = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            typed[p, seqs[p]] = (letter, sq)
            last[p, sq] = seqs[p]
            body = json.dumps({"action": "type", "seq": seqs[p], "square": sq, "letter": letter})
            futures.append(pool.submit(handle, p, body))
        for f in futures:
            f.result()
        elapsed = time.monotonic() - start
        requests = sum(sum(s.requests.values()) for s in stores) - before
        answers: dict[tuple[str, int], dict] = {}
        views: dict[str, dict] = {}
        versions: dict[str, int] = {}
        gaps: set[str] = set()  # phones that saw a version skipped: they ask for a snapshot
        for connection, message in list(connections.log):
            if message["type"] in ("ack", "error") and (connection, message.get("seq")) in typed:
                answers[connection, message["seq"]] = message
            if message["type"] == "room":
                if message["full"]:
                    views[connection] = message["room"]
                elif message["version"] != versions.get(connection, 0) + 1:
                    gaps.add(connection)
                else:
                    views[connection] = apply_patch(views.get(connection, {}), message["room"])
                versions[connection] = message["version"]
        for connection in gaps:
            mark = len(connections.log)
            say(connection, "snapshot")
            for c, message in connections.log[mark:]:
                if c == connection and message["type"] == "room":
                    views[connection] = message["room"]
        codes = Counter(
            m["code"] if m["type"] == "error" else ("dup" if m["duplicate"] else "ack")
            for m in answers.values()
        )
        lost = unanswered = 0
        phones_agree = True
        for code, phones in rooms:
            board = load_room(setup.store.load_room(code)[0]).game.letters()
            for (p, sq), seq in last.items():
                if p not in phones:
                    continue
                answer = answers.get((p, seq))
                if answer is None:
                    unanswered += 1
                elif answer["type"] == "ack" and board[sq] != typed[p, seq][0]:
                    lost += 1
            for p in phones:
                shown = views.get(p, {}).get("game", {}).get("board")
                phones_agree &= shown == board
        letters = len(typed)
        print(
            f"{args.rooms} rooms x {args.typists} typists at {args.rate}/s, {args.workers} "
            f"concurrent workers, {args.latency} ms per store request, {elapsed:.0f} s:"
        )
        print(
            f"  letters {letters}; final answers {dict(codes)}; unanswered {unanswered}; "
            f"busy refusals sent again {busy['resent']}"
        )
        print(
            f"  acknowledged but not on the final board: {lost}; every phone shows it: "
            f"{phones_agree} ({len(gaps)} phones repaired a version gap by snapshot)"
        )
        conflicts = sum(s.runner.conflicts for s in services)
        per_letter = requests / max(1, letters)
        print(f"  store requests per letter {per_letter:.2f}; conflicts {conflicts}")


if __name__ == "__main__":
    main()
