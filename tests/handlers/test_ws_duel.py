"""Duel through the Lambda handlers on moto: DynamoDB, EventBridge Scheduler, Cognito
and the API Gateway management API, as in the cloud. Two connections play a whole
game with a flag fall fired by the Scheduler's schedule; one connection plays a bot;
two registered players' ratings move and follow them to a new connection."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import boto3
import pytest
from crossing.aws.pool import create_pool
from crossing.aws.table import create_table
from crossing.duel.game import RULES
from crossing.game_files import default_lexicon
from crossing.handlers import connect, ws
from crossing.local.events import websocket_event
from crossing.tiles.board import Board
from crossing.tiles.movegen import generate
from moto import mock_aws
from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends

from tests.handlers.conftest import FakeLambdaContext

REGION = "us-east-1"
ACCOUNT = "123456789012"  # moto's default account
PACKS = Path(__file__).parent.parent / "data" / "packs"
MIN = 60_000


class Clock:
    def __init__(self) -> None:
        # From the real time: Scheduler's adapter never sets a schedule in the past.
        self.now = int(time.time() * 1000)

    def __call__(self) -> int:
        return self.now


DEAL_SEED = 7


@pytest.fixture
def cloud(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": REGION,
        "CROSSING_TABLE": "crossing-test",
        "CROSSING_CONNECTIONS_URL": "https://abc123.execute-api.us-east-1.amazonaws.com/test",
        "CROSSING_SCHEDULER_GROUP": "crossing-test",
        "CROSSING_TIMER_TARGET_ARN": f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:timer",
        "CROSSING_SCHEDULER_ROLE_ARN": f"arn:aws:iam::{ACCOUNT}:role/scheduler",
        "CROSSING_PACKS_DIR": str(PACKS),
        "POWERTOOLS_METRICS_DISABLED": "true",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("CROSSING_AWS_ENDPOINT_URL", raising=False)
    with mock_aws():
        create_table(boto3.client("dynamodb", region_name=REGION), "crossing-test")
        boto3.client("scheduler", region_name=REGION).create_schedule_group(Name="crossing-test")
        pool, client = create_pool(boto3.client("cognito-idp", region_name=REGION), "test")
        monkeypatch.setenv("CROSSING_USER_POOL_ID", pool)
        monkeypatch.setenv("CROSSING_USER_POOL_CLIENT_ID", client)
        ws.reset()
        clock = Clock()
        ws.service().clock = clock  # the server's clock, moved by the test
        # Deals from a seed: a bag drawn at random now and then gives a first rack with
        # no word to play, and the tests play the best move from the first turn on.
        ws.service().duel.rng = random.Random(DEAL_SEED)
        # and the Scheduler adapter's, so a schedule is armed for the test's moment (its
        # own wall clock would push a due event a second or two away past the test's time)
        ws.service().timers.clock = lambda: clock.now / 1000
        yield clock
        ws.reset()


class Socket:
    """One WebSocket connection: its frames go to the message handler; what the service
    posted to it through the management API is read back from moto."""

    count = 0

    def __init__(self) -> None:
        Socket.count += 1
        self.id = f"conn{Socket.count}="
        self.seq = 0
        self.read = 0
        self.game: dict[str, Any] = {}
        self.lobby: dict[str, Any] = {}
        connect.handler(websocket_event("CONNECT", self.id), FakeLambdaContext())

    def posted(self) -> list[dict[str, Any]]:
        backend = apigatewaymanagementapi_backends[ACCOUNT][REGION]
        key = quote(self.id, safe="")  # moto files it under the id as it went in the path
        data = backend.connections[key].data.decode() if key in backend.connections else ""
        messages, decoder, at = [], json.JSONDecoder(), 0
        while at < len(data):
            message, at = decoder.raw_decode(data, at)
            messages.append(message)
        return messages

    def take(self) -> list[dict[str, Any]]:
        every = self.posted()
        new, self.read = every[self.read :], len(every)
        for message in new:
            if message["type"] == "duel":
                self.game = message["game"]
            elif message["type"] == "lobby":
                self.lobby = message
        return new

    def send(self, action: str, **fields: Any) -> list[dict[str, Any]]:
        self.seq += 1
        body = json.dumps({"action": action, "seq": self.seq, **fields})
        event = websocket_event("MESSAGE", self.id, body=body)
        assert ws.message(event, FakeLambdaContext()) == {"statusCode": 200}
        return self.take()

    @property
    def my_turn(self) -> bool:
        return self.game.get("turn") == self.game.get("you")

    def best_play(self) -> list[dict[str, Any]]:
        board = Board(tuple(self.game["board"]))
        move = generate(board, self.game["rack"], RULES, default_lexicon(), top=1)[0]
        return [{"row": t.row, "col": t.col, "letter": t.letter} for t in move.tiles]


def errors(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == "error"]


def fire_due_schedules(clock: Clock) -> int:
    """Do what Scheduler does: invoke the timer handler with each due schedule's input."""
    scheduler = boto3.client("scheduler", region_name=REGION)
    fired = 0
    for summary in scheduler.list_schedules(GroupName="crossing-test")["Schedules"]:
        schedule = scheduler.get_schedule(Name=summary["Name"], GroupName="crossing-test")
        at = schedule["ScheduleExpression"]  # at(yyyy-mm-ddThh:mm:ss), UTC
        when = datetime.strptime(at[3:-1], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
        if when.timestamp() * 1000 <= clock.now:
            payload = json.loads(schedule["Target"]["Input"])
            scheduler.delete_schedule(Name=summary["Name"], GroupName="crossing-test")
            ws.timer(payload, FakeLambdaContext())
            fired += 1
    return fired


def seat(ann: Socket, bob: Socket) -> tuple[Socket, Socket]:
    """Ann seeks a three-minute game and Bob takes it: (whoever moves first, the other)."""
    ann.send("hello")
    bob.send("hello")
    bob.send("duel_lobby")
    assert not errors(ann.send("duel_seek", limit=3 * MIN, name="Ann"))
    bob.take()
    [seek] = bob.lobby["seeks"]
    assert seek["name"] == "Ann" and seek["limit"] == 3 * MIN
    assert not errors(bob.send("duel_accept", seek=seek["id"], name="Bob"))
    ann.take()
    assert ann.game["id"] == bob.game["id"] and ann.game["turn"] == bob.game["turn"]
    return (ann, bob) if ann.my_turn else (bob, ann)


def test_two_connections_play_a_whole_duel_with_a_flag_fall(cloud: Clock) -> None:
    first, second = seat(Socket(), Socket())
    cloud.now += 30_000
    assert not errors(first.send("duel_play", tiles=first.best_play()))
    second.take()
    assert second.my_turn and second.game["moves"][0]["score"] > 0
    cloud.now += 10_000
    assert not errors(second.send("duel_play", tiles=second.best_play()))
    first.take()

    # first's clock runs out with nobody sending anything: the Scheduler's schedule,
    # armed for the flag-fall moment, applies it.
    assert fire_due_schedules(cloud) == 0
    cloud.now += 3 * MIN - 30_000 + 5_000
    assert fire_due_schedules(cloud) == 1
    second.take()
    assert second.game["moves"][-1]["kind"] == "time"
    assert second.game["seats"][first.game["you"]]["out_of_time"]
    assert second.my_turn  # the other plays on
    assert errors(first.send("duel_skip"))[0]["code"] == "out-of-time"
    assert not errors(second.send("duel_resign"))
    first.take()
    result = first.game["result"]
    assert result["reason"] == "resigned" and result["winner"] == first.game["you"]
    assert result["scores"] == [s["score"] for s in first.game["seats"]]


def test_a_connection_plays_a_bot_whose_moves_come_as_due_events(cloud: Clock) -> None:
    ann = Socket()
    ann.send("hello")
    assert not errors(ann.send("duel_bot", level="medium", limit=5 * MIN, name="Ann"))
    bot = 1 - ann.game["you"]
    for _ in range(2):
        if not ann.my_turn:
            cloud.now = ann.game["due_at"]
            ann.send("tick")  # the page ticks at the due time; the server checks it
            assert ann.game["moves"][-1]["seat"] == bot
        assert not errors(ann.send("duel_play", tiles=ann.best_play()))
    # Nobody ticks: the schedule is the backstop for the bot's move (Scheduler fires within
    # the minute, and never sooner than the adapter's lead).
    cloud.now = ann.game["due_at"] + 60_000
    assert fire_due_schedules(cloud) == 1
    ann.take()
    assert ann.my_turn and ann.game["moves"][-1]["seat"] == bot
    ann.send("duel_resign")
    assert ann.game["result"]["winner"] == bot


def test_registered_players_rated_games_count_and_follow_them(cloud: Clock) -> None:
    ann, bob = Socket(), Socket()
    ann.send("hello")
    bob.send("hello")
    ann_account = next(
        m
        for m in ann.send("sign_up", name="Ann", password="a long passphrase")
        if m["type"] == "signed_in"
    )
    bob.send("sign_up", name="Bob", password="another passphrase")
    ann.send("duel_lobby")
    ann.send("duel_seek", limit=10 * MIN, private=True)
    mine = ann.lobby["mine"]
    assert not errors(bob.send("duel_accept", seek=mine["id"], token=mine["token"]))
    ann.take()
    first, second = (ann, bob) if ann.my_turn else (bob, ann)
    first.send("duel_skip")  # each moves once: a game resigned before that is aborted
    second.take()
    second.send("duel_skip")
    bob.send("duel_resign")
    ann.take()
    result = ann.game["result"]
    # Two new accounts: rated, counted, but a provisional opponent moves no rating.
    assert [(r["before"], r["after"], r["games"]) for r in result["ratings"]] == [
        (1000, 1000, 1)
    ] * 2
    tablet = Socket()
    welcome = tablet.send("hello", refresh=ann_account["refresh"])[0]
    assert welcome["player"] == ann_account["player"]
    assert welcome["account"] == {"name": "Ann", "rating": 1000, "games": 1, "provisional": True}
