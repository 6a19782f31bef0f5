"""The local stack: real WebSockets, the Lambda handlers, moto, and the schedule pump."""

import json
import urllib.request

import boto3
import pytest
from crossing.local.pump import SchedulePump, due
from crossing.local.serve import running
from moto import mock_aws

from tests.local.client import SocketPlayer


@pytest.fixture(scope="module")
def stack():
    with running() as stack:
        yield stack


def player(stack):
    return SocketPlayer(stack.url.replace("http", "ws") + "ws")


def players(stack, n):
    made = [player(stack) for _ in range(n)]
    for p in made:
        p.act("hello")
    return made


def game(room):
    return room.get("game") or {}


def test_two_players_race_a_mini_to_the_end(stack):
    hana, ann = players(stack, 2)
    hana.act("host", name="Hana")
    code = hana.room["code"]
    assert ann.act("join", code=code, name="Ann")["type"] == "ack"
    hana.act("to_game")
    hana.act("choose", mode="race", size="mini")
    assert hana.act("start")["type"] == "ack"
    ann.until(lambda p: p.room.get("phase") == "playing")
    puzzle = game(ann.room)["puzzle"]
    whites = [s for s in range(puzzle["width"] * puzzle["height"]) if s not in puzzle["blocks"]]
    for sq in whites:  # Ann types A everywhere: a full board, surely with mistakes
        assert ann.act("type", square=sq, letter="A")["type"] == "ack"
    hana.until(lambda p: len(game(p.room)["progress"][ann.player]["filled"]) == len(whites))
    assert "A" not in json.dumps(game(hana.room).get("board", ""))  # Ann's letters stay hers
    ann.act("done")
    hana.act("done")
    for p in (hana, ann):
        p.until(lambda p: p.room.get("phase") == "results")
    standings = game(ann.room)["result"]["standings"]
    assert {s["player"] for s in standings} == {hana.player, ann.player}
    assert len(game(ann.room)["result"]["solution"]) == len(puzzle["blocks"]) + len(whites)
    for p in (hana, ann):
        p.close()


def test_a_reloaded_player_keeps_their_seat_and_board(stack):
    hana, ann = players(stack, 2)
    hana.act("host", name="Hana")
    ann.act("join", code=hana.room["code"], name="Ann")
    hana.act("to_game")
    hana.act("start")
    ann.until(lambda p: p.room.get("phase") == "playing")
    ann.act("type", square=2, letter="Q")
    ann_id, token = ann.player, ann.token
    ann.close()  # the page reloads
    again = player(stack)
    welcome = again.act("hello", player=ann_id, token=token)
    assert welcome["type"] == "ack"
    again.until(lambda p: game(p.room).get("board"))
    assert game(again.room)["board"][2] == "Q"
    assert again.player == ann_id
    for p in (hana, again):
        p.close()


def test_a_letter_reaches_the_other_player(stack):
    hana, ann = players(stack, 2)
    hana.act("host", name="Hana")
    ann.act("join", code=hana.room["code"], name="Ann")
    hana.act("to_game")
    hana.act("choose", mode="together", size="mini")
    hana.act("start")
    ann.until(lambda p: p.room.get("phase") == "playing")
    puzzle = game(hana.room)["puzzle"]
    whites = [s for s in range(25) if s not in puzzle["blocks"]]
    for i, sq in enumerate(whites):
        letter = "XYZ"[i % 3]
        ann.send("type", square=sq, letter=letter)
        hana.until(lambda p, sq=sq, letter=letter: game(p.room)["board"][sq] == letter)
        assert game(hana.room)["writers"][sq] == ann.player
    for p in (hana, ann):
        p.close()


def test_the_client_files_and_connections_endpoint_are_served(stack):
    with urllib.request.urlopen(stack.url) as response:
        assert response.status == 200
    request = urllib.request.Request(stack.url + "@connections/nobody", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as gone:
        urllib.request.urlopen(request)
    assert gone.value.code == 410


def test_due_reads_scheduler_at_expressions():
    from datetime import UTC, datetime

    now = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    assert due("at(2026-11-29T11:59:59)", now)
    assert due("at(2026-11-29T12:00:00)", now)
    assert not due("at(2026-11-29T12:00:01)", now)
    assert not due("rate(1 minute)", now)


@mock_aws
def test_the_pump_fires_a_due_schedule_once_into_the_timer_handler():
    from datetime import UTC, datetime, timedelta

    scheduler = boto3.client("scheduler", region_name="us-east-1")
    scheduler.create_schedule_group(Name="g")
    now = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    for name, at in (
        ("room-AAA", now - timedelta(seconds=1)),
        ("room-BBB", now + timedelta(seconds=30)),
    ):
        scheduler.create_schedule(
            Name=name,
            GroupName="g",
            ScheduleExpression=f"at({at:%Y-%m-%dT%H:%M:%S})",
            FlexibleTimeWindow={"Mode": "OFF"},
            Target={
                "Arn": "arn:aws:lambda:us-east-1:123456789012:function:t",
                "RoleArn": "arn:aws:iam::123456789012:role/r",
                "Input": json.dumps({"room": name[5:], "version": 3}),
            },
        )
    fired = []
    pump = SchedulePump(scheduler, "g", fired.append, clock=lambda: now)
    assert pump.pump_once() == 1
    assert pump.pump_once() == 0
    assert fired == [{"room": "AAA", "version": 3}]
    names = [s["Name"] for s in scheduler.list_schedules(GroupName="g")["Schedules"]]
    assert names == ["room-BBB"]
