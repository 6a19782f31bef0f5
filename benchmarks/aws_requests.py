"""AWS requests the real service makes per keystroke, per game set-up and per Duel turn.

    python benchmarks/aws_requests.py [--letters 40] [--players 4] [--turns 6]

The Lambda handlers (``crossing.handlers.ws``) and the rooms service run as on AWS, on
moto in this process; every boto3 call is counted by a botocore ``before-call`` hook on
the default session, by service and operation. Nothing is estimated: re-run it after
the rooms change (docs/operations.md, "Scale and cost", has the last figures).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

import boto3
from moto import mock_aws

ROOT = Path(__file__).resolve().parent.parent
REGION = "us-east-1"
ACCOUNT = "123456789012"
ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": REGION,
    "CROSSING_TABLE": "crossing-bench",
    "CROSSING_CONNECTIONS_URL": "https://abc123.execute-api.us-east-1.amazonaws.com/bench",
    "CROSSING_SCHEDULER_GROUP": "crossing-bench",
    "CROSSING_TIMER_TARGET_ARN": f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:timer",
    "CROSSING_SCHEDULER_ROLE_ARN": f"arn:aws:iam::{ACCOUNT}:role/scheduler",
    "CROSSING_PACKS_BUCKET": "crossing-bench-site",
    "POWERTOOLS_METRICS_DISABLED": "true",
    "POWERTOOLS_LOG_LEVEL": "ERROR",
}
KINDS = {"dynamodb": "DynamoDB", "apigatewaymanagementapi": "posts", "scheduler": "Scheduler"}


class Calls:
    """boto3 calls by (service, operation), from the default session's event hook."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()
        boto3.setup_default_session(region_name=REGION)
        boto3.DEFAULT_SESSION.events.register("before-call", self._seen)

    def _seen(self, model: Any, **_: Any) -> None:
        self.counts[(model.service_model.service_name, model.name)] += 1

    def take(self) -> Counter[tuple[str, str]]:
        taken, self.counts = self.counts, Counter()
        return taken


class Phone:
    count = 0

    def __init__(self, ws: Any, context: Any) -> None:
        from crossing.handlers import connect
        from crossing.local.events import websocket_event

        Phone.count += 1
        self.id, self.ws, self.context, self.seq = f"bench{Phone.count}=", ws, context, 0
        self.event = websocket_event
        connect.handler(websocket_event("CONNECT", self.id), context)

    def send(self, action: str, **fields: Any) -> None:
        self.seq += 1
        body = json.dumps({"action": action, "seq": self.seq, **fields})
        self.ws.message(self.event("MESSAGE", self.id, body=body), self.context)

    def frames(self) -> list[dict[str, Any]]:
        from urllib.parse import quote

        from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends

        connections = apigatewaymanagementapi_backends[ACCOUNT][REGION].connections
        data = connections[quote(self.id, safe="")].data.decode()
        out, decoder, at = [], json.JSONDecoder(), 0
        while at < len(data):
            frame, at = decoder.raw_decode(data, at)
            out.append(frame)
        return out

    def last(self, kind: str) -> dict[str, Any]:
        return next(f for f in reversed(self.frames()) if f["type"] == kind)


def _room(phone: Phone) -> dict[str, Any]:
    from tests.rooms.fakes import apply_patch

    room: dict[str, Any] = {}
    for frame in phone.frames():
        if frame["type"] == "room":
            room = frame["room"] if frame["full"] else apply_patch(room, frame["room"])
    return room


def per(calls: Counter[tuple[str, str]], n: int) -> dict[str, float]:
    kinds: Counter[str] = Counter()
    for (service, _), count in calls.items():
        kinds[KINDS.get(service, service)] += count
    return {kind: kinds[kind] / n for kind in ("DynamoDB", "posts", "Scheduler")} | {
        "other": sum(v for k, v in kinds.items() if k not in KINDS.values()) / n
    }


def crossword(ws: Any, context: Any, calls: Calls, mode: str, players: int, letters: int):
    host = Phone(ws, context)
    others = [Phone(ws, context) for _ in range(players - 1)]
    calls.take()
    host.send("hello")
    host.send("host", name="Host")
    code = _room(host)["code"]
    for n, phone in enumerate(others):
        phone.send("hello")
        phone.send("join", code=code, name=f"P{n}")
    host.send("to_game")
    host.send("choose", mode=mode, size="mini")
    host.send("start")
    setup = calls.take()
    puzzle = _room(host)["game"]["puzzle"]
    squares = [s for s in range(puzzle["width"] * puzzle["height"]) if s not in puzzle["blocks"]]
    typists = [host, *others]
    for i in range(letters):
        typists[i % len(typists)].send("type", square=squares[i % len(squares)], letter="E")
    typing = calls.take()
    return setup, typing


def duel(ws: Any, context: Any, calls: Calls, clock: Any, turns: int):
    from crossing.duel.game import RULES
    from crossing.game_files import default_lexicon
    from crossing.tiles.board import Board
    from crossing.tiles.movegen import generate

    ann, bob = Phone(ws, context), Phone(ws, context)
    ann.send("hello")
    bob.send("hello")
    bob.send("duel_lobby")
    calls.take()
    ann.send("duel_seek", limit=10 * 60_000, name="Ann")
    seek = bob.last("lobby")["seeks"][0]
    bob.send("duel_accept", seek=seek["id"], name="Bob")
    setup = calls.take()
    for _ in range(turns):
        game = ann.last("duel")["game"]
        mover = ann if game["turn"] == game["you"] else bob
        mine = mover.last("duel")["game"]
        move = generate(Board(tuple(mine["board"])), mine["rack"], RULES, default_lexicon(), top=1)
        clock.now += 20_000
        if move:
            tiles = [{"row": t.row, "col": t.col, "letter": t.letter} for t in move[0].tiles]
            mover.send("duel_play", tiles=tiles)
        else:
            mover.send("duel_skip")
    return setup, calls.take()


class Clock:
    def __init__(self) -> None:
        self.now = int(time.time() * 1000)

    def __call__(self) -> int:
        return self.now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--letters", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--turns", type=int, default=6)
    args = parser.parse_args()
    os.environ.update(ENV)
    for name in ("AWS_ENDPOINT_URL", "CROSSING_AWS_ENDPOINT_URL", "CROSSING_PACKS_DIR"):
        os.environ.pop(name, None)
    quiet = contextlib.redirect_stdout(io.StringIO())  # the handlers' EMF metric lines
    with mock_aws(), quiet:
        from crossing.aws.pool import create_pool
        from crossing.aws.table import create_table
        from crossing.handlers import ws
        from crossing.local.events import LambdaContext

        create_table(boto3.client("dynamodb", region_name=REGION), ENV["CROSSING_TABLE"])
        boto3.client("scheduler", region_name=REGION).create_schedule_group(
            Name=ENV["CROSSING_SCHEDULER_GROUP"]
        )
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=ENV["CROSSING_PACKS_BUCKET"])
        for path in sorted((ROOT / "tests" / "data" / "packs").glob("*.json")):
            s3.put_object(
                Bucket=ENV["CROSSING_PACKS_BUCKET"],
                Key=f"packs/{path.name}",
                Body=path.read_bytes(),
            )
        pool, client = create_pool(boto3.client("cognito-idp", region_name=REGION), "bench")
        os.environ["CROSSING_USER_POOL_ID"], os.environ["CROSSING_USER_POOL_CLIENT_ID"] = (
            pool,
            client,
        )
        calls = Calls()
        ws.reset()
        clock = Clock()
        ws.service().clock = clock
        context = LambdaContext()
        rows = []
        for mode, players in (("race", 2), ("together", args.players)):
            setup, typing = crossword(ws, context, calls, mode, players, args.letters)
            rows.append((f"{mode}, {players} players: game set-up", per(setup, 1), setup))
            rows.append(
                (f"{mode}, {players} players: per keystroke", per(typing, args.letters), typing)
            )
        setup, turns = duel(ws, context, calls, clock, args.turns)
        rows.append(("duel, 2 players: game set-up (seek + accept)", per(setup, 1), setup))
        rows.append(("duel, 2 players: per turn", per(turns, args.turns), turns))
    print(f"{'what':48} {'DynamoDB':>9} {'posts':>7} {'Scheduler':>9} {'other':>6}")
    for what, row, raw in rows:
        print(
            f"{what:48} {row['DynamoDB']:9.2f} {row['posts']:7.2f} {row['Scheduler']:9.2f} "
            f"{row['other']:6.2f}"
        )
        print("   ", ", ".join(f"{s}.{o} {c}" for (s, o), c in sorted(raw.items())))


if __name__ == "__main__":
    main()
