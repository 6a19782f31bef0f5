"""The cloud, simulated: concurrent "Lambdas" on one DynamoDB table (moto) with latency.

    python benchmarks/cloud_sim.py [--rooms 2] [--typists 8] [--rate 3] [--seconds 20]
                                   [--workers 8] [--latency 5-10] [--path queue|direct]

Each worker is its own ``RoomService`` (a Lambda container: ``hold=False``, so it reads
the room before every write) on a ``DynamoStore`` whose every request waits 5-10 ms
first. Each typist types ``--rate`` letters a second into its own squares, each frame
handed to whichever ``$default`` worker is free, so frames of one room arrive side by
side and out of order, as API Gateway's concurrent invocations would.

``--path queue`` (the cloud as built): ``$default`` looks the connection up and sends the
frame to the frame queue (an in-memory SQS FIFO whose every call waits as long as a
store request); ``--workers`` consumer invocations each take up to ten messages of one
room whose earlier messages are done (one group in flight at a time, as Lambda's FIFO
event source does) and apply them as one batch. ``--path direct`` (before the queue):
``$default`` applies the frame itself, racing the other workers on the room's version.

Reports busy refusals, letters lost (acknowledged but never applied, or never
answered), whether each room's final board is the replay of its ordered log and every
phone shows it, store requests per letter, SQS calls per letter, and conflicts.
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
from crossing.aws.memory import ManualTimers, MemoryPacks, MemoryQueue, RecordingConnections
from crossing.crossword.commands import Type
from crossing.rooms import room as R
from crossing.rooms.ports import Queued
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


class SlowQueue(MemoryQueue):
    """The frame queue, each SendMessage waiting like a request over the network."""

    def __init__(self, low: float, high: float) -> None:
        super().__init__()
        self._low, self._high = low, high
        self.calls: Counter[str] = Counter()

    def wait(self, call: str) -> None:
        self.calls[call] += 1
        time.sleep(random.uniform(self._low, self._high))

    def send(self, frame: Queued, dedup: str) -> None:
        self.wait("SendMessage")
        super().send(frame, dedup)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=2)
    parser.add_argument("--typists", type=int, default=8)
    parser.add_argument("--rate", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--latency", default="5-10")
    parser.add_argument("--path", choices=("queue", "direct"), default="queue")
    args = parser.parse_args()
    queued = args.path == "queue"
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
        queue = SlowQueue(low, high) if queued else None
        stores = [DynamoStore("sim", Slow(client, low, high)) for _ in range(2 * args.workers)]
        services = [
            RoomService(
                s, connections, ManualTimers(), MemoryPacks([puzzle]), hold=False, queue=queue
            )
            for s in stores
        ]
        # The first half stand in for $default, the second for the consumer (queue only).
        receivers, consumers = services[: args.workers], services[args.workers :]
        setup = RoomService(
            DynamoStore("sim", client), connections, ManualTimers(), MemoryPacks([puzzle])
        )
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
        started = {code: load_room(setup.store.load_room(code)[0]) for code, _ in rooms}
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
                    receivers[worker].receive(
                        connection, body, request=f"{connection}.{seq}.{attempt}"
                    )
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
        log: dict[str, list[Queued]] = {code: [] for code, _ in rooms}  # each room's order
        in_flight: set[str] = set()
        take_lock = threading.Lock()
        typing_done = threading.Event()
        failed = Counter[str]()

        def consumer(service: RoomService) -> None:
            """One consumer invocation after another: up to ten of one room, in order."""
            assert queue is not None
            while not (typing_done.is_set() and not queue.waiting):
                with take_lock:
                    batch = queue.take(10, busy=in_flight)
                    if batch:
                        in_flight.add(batch[0].group)
                if not batch:
                    time.sleep(0.002)
                    continue
                queue.wait("ReceiveMessage")  # the event source's poll
                log[batch[0].group].extend(batch)
                results = service.consume(batch)
                failed["frames"] += results.count(None)
                queue.wait("DeleteMessageBatch")
                with take_lock:
                    in_flight.discard(batch[0].group)

        threads = [threading.Thread(target=consumer, args=(c,)) for c in consumers]
        if queued:
            for thread in threads:
                thread.start()
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
        typing_done.set()
        if queued:
            for thread in threads:
                thread.join()
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
        phones_agree = replayed = True
        for code, phones in rooms:
            stored = load_room(setup.store.load_room(code)[0])
            board = stored.game.letters()
            applied = {(f.connection, json.loads(f.body)["seq"]) for f in log[code]}
            for (p, seq), answer in answers.items():
                if p not in phones:
                    continue
                if answer["type"] == "ack" and queued and (p, seq) not in applied:
                    lost += 1  # acknowledged, never applied
            unanswered += sum(1 for (p, seq) in typed if p in phones and (p, seq) not in answers)
            if queued:  # the queue's order is the room's log: replay it
                replay = started[code]
                for f in log[code]:
                    m = json.loads(f.body)
                    if answers.get((f.connection, m["seq"]), {}).get("type") != "ack":
                        continue  # refused (the pace): applied as nothing
                    player = f.player
                    step = R.Play(player, Type(player, m["square"], m["letter"]))
                    replay, _ = R.step(replay, step, f.arrived)
                replayed &= replay.game.letters() == board
            else:  # no log to replay: each typist's last acknowledged letter is on the board
                for (p, sq), seq in last.items():
                    answer = answers.get((p, seq))
                    if p in phones and answer and answer["type"] == "ack":
                        lost += board[sq] != typed[p, seq][0]
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
            f"  letters lost: {lost}; final board is the replay of the ordered log: "
            f"{replayed if queued else 'n/a (no log)'}; every phone shows it: {phones_agree} "
            f"({len(gaps)} phones repaired a version gap by snapshot)"
        )
        conflicts = sum(s.runner.conflicts for s in services)
        per_letter = requests / max(1, letters)
        print(f"  store requests per letter {per_letter:.2f}; conflicts {conflicts}")
        if queue is not None:
            sqs = sum(queue.calls.values())
            batches = queue.calls["ReceiveMessage"]
            print(
                f"  SQS calls per letter {sqs / max(1, letters):.2f} ({dict(queue.calls)}); "
                f"{letters / max(1, batches):.1f} frames per consumer batch; "
                f"frames failed {failed['frames']}"
            )


if __name__ == "__main__":
    main()
