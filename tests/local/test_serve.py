"""The local stack end to end through real WebSockets: as players run it (``crossing
serve``, one process on SQLite) and on moto (the cloud's adapters), the same games."""

import json
import time
import urllib.request

import boto3
import pytest
from crossing.local.backend import at_due, scheduler_due
from crossing.local.events import http_api_event, websocket_event
from moto import mock_aws

from tests.local.client import SocketPlayer, two_in_a_game, white_squares


@pytest.fixture(params=["served", "moto"])
def stack(request):
    """Each game test twice: on the stack players run, and once through the cloud's code
    paths (the moto stack, which also serves ``@connections`` as API Gateway would)."""
    return request.getfixturevalue("served" if request.param == "served" else "local_stack")


@pytest.fixture
def moto_stack(local_stack):
    return local_stack


def ws_url(stack):
    return stack.url.replace("http", "ws") + "ws"


def player(stack):
    return SocketPlayer(ws_url(stack))


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
    hana, ann = two_in_a_game(ws_url(stack), "race")
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
    hana, ann = two_in_a_game(ws_url(stack), "together")
    for i, sq in enumerate(white_squares(hana.room)):
        letter = "XYZ"[i % 3]
        ann.send("type", square=sq, letter=letter)
        hana.until(lambda p, sq=sq, letter=letter: game(p.room)["board"][sq] == letter)
        assert game(hana.room)["writers"][sq] == ann.player
    for p in (hana, ann):
        p.close()


def test_the_client_files_and_connections_endpoint_are_served(moto_stack):
    with urllib.request.urlopen(moto_stack.url + "solver.html") as response:
        assert response.status == 200
    request = urllib.request.Request(
        moto_stack.url + "@connections/nobody", data=b"{}", method="POST"
    )
    with pytest.raises(urllib.error.HTTPError) as gone:
        urllib.request.urlopen(request)
    assert gone.value.code == 410


def test_the_stack_players_run_has_no_connections_endpoint(served):
    # Only the moto stack's rooms post over HTTP; on the default stack nothing but the
    # game's own routes answers, so no one on the network can post to a phone.
    request = urllib.request.Request(served.url + "@connections/nobody", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert refused.value.code in (404, 405)


def test_the_local_stack_has_a_user_pool_for_accounts(moto_stack):
    stack = moto_stack
    from crossing.aws.config import Settings

    accounts = Settings.from_env().accounts()
    assert accounts is not None
    assert accounts.client.meta.endpoint_url == stack.backend.endpoint
    session = accounts.sign_up("Local_Player", "a passphrase long enough " + "x" * 100)
    assert accounts.resume(session.refresh) == session.account
    assert accounts.sign_in("local_player", "a passphrase long enough " + "x" * 100).account == (
        session.account
    )


def test_due_reads_scheduler_at_expressions():
    from datetime import UTC, datetime

    now = int(datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC).timestamp() * 1000)
    assert at_due("at(2026-11-29T11:59:59)", now)
    assert at_due("at(2026-11-29T12:00:00)", now)
    assert not at_due("at(2026-11-29T12:00:01)", now)
    assert not at_due("rate(1 minute)", now)


@mock_aws
def test_a_due_schedule_is_taken_once():
    from datetime import UTC, datetime, timedelta

    scheduler = boto3.client("scheduler", region_name="us-east-1")
    scheduler.create_schedule_group(Name="g")
    now = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    for name, at in (
        ("room-AAA", now - timedelta(seconds=1)),
        ("room-BBB", now + timedelta(seconds=30)),
    ):
        _schedule(scheduler, name, at, {"room": name[5:], "version": 3})
    ms = int(now.timestamp() * 1000)
    assert [event for event, _ in scheduler_due(scheduler, "g", ms)] == [
        {"room": "AAA", "version": 3}
    ]
    assert scheduler_due(scheduler, "g", ms) == []
    names = [s["Name"] for s in scheduler.list_schedules(GroupName="g")["Schedules"]]
    assert names == ["room-BBB"]


def test_http_api_events_look_like_api_gateway_payload_2():
    event = http_api_event("POST", "/api/solve", {"Content-Type": "application/json"}, b"{}")
    assert event["version"] == "2.0"
    assert event["routeKey"] == "POST /api/solve"
    assert event["requestContext"]["http"]["method"] == "POST"
    assert event["headers"] == {"content-type": "application/json"}
    assert (event["body"], event["isBase64Encoded"]) == ("{}", False)
    assert http_api_event("POST", "/x", {}, b"\xff")["isBase64Encoded"] is True


def test_the_solver_api_is_served_by_the_local_stack(stack):
    with urllib.request.urlopen(stack.url + "api/rules") as response:
        assert json.load(response)["rule_sets"][0]["name"] == "crossplay"
    body = json.dumps({"rules": "crossplay", "rack": "QUIXOTE"}).encode()
    request = urllib.request.Request(
        stack.url + "api/solve",
        data=body,
        method="POST",
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        best = json.load(response)["plays"][0]
    assert (best["word"], best["score"]) == ("QUIXOTE", 110)
    bad = urllib.request.Request(stack.url + "api/solve", data=b"{", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(bad)
    assert refused.value.code == 400
    assert json.load(refused.value)["error"]["code"] == "bad_json"


@mock_aws
def test_every_due_schedule_is_taken_not_only_the_first_page():
    from datetime import UTC, datetime, timedelta

    scheduler = boto3.client("scheduler", region_name="us-east-1")
    scheduler.create_schedule_group(Name="g")
    now = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    rooms = [f"R{i:02}" for i in range(56)]  # a page is 50
    for room in rooms:
        _schedule(scheduler, f"room-{room}", now - timedelta(seconds=1), {"room": room})
    due = scheduler_due(scheduler, "g", int(now.timestamp() * 1000))
    assert sorted(event["room"] for event, _ in due) == rooms


def _schedule(scheduler, name, at, payload):
    scheduler.create_schedule(
        Name=name,
        GroupName="g",
        ScheduleExpression=f"at({at:%Y-%m-%dT%H:%M:%S})",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={
            "Arn": "arn:aws:lambda:us-east-1:123456789012:function:t",
            "RoleArn": "arn:aws:iam::123456789012:role/r",
            "Input": json.dumps(payload),
        },
    )


def test_a_binary_frame_is_answered_and_the_host_stays(stack):
    hana, ann = players(stack, 2)
    hana.act("host", name="Hana")
    ann.act("join", code=hana.room["code"], name="Ann")
    hana.ws.send(b"\x00\xffnot text")  # a binary frame: the protocol is JSON text
    hana.until(lambda p: p.errors)
    assert [e["code"] for e in hana.errors] == ["binary-frame"]
    hana.act("rename", name="Hana B")  # the socket is still open and still the host's
    assert hana.room["host"] == hana.player
    ann.until(lambda p: any(m["name"] == "Hana B" for m in p.room["members"]))


def test_an_idle_server_wakes_about_once_a_second_and_stops_at_once(tmp_path):
    # Each wake-up of an idle process costs far more CPU than its work: uvicorn's own loop
    # woke ten times a second.
    from crossing.local.serve import running

    with running(data=tmp_path) as stack:
        server = stack.server
        ticks: list[float] = []
        tick = server.on_tick

        async def counted(counter: int) -> bool:
            ticks.append(time.monotonic())
            return await tick(counter)

        server.on_tick = counted  # type: ignore[method-assign]
        time.sleep(2.5)
        assert 1 <= len(ticks) <= 4, ticks
        asked = time.monotonic()
    assert time.monotonic() - asked < 1.5
    assert stack.engine.rounds == 0  # the pump looked once a second and found nothing due


def test_each_frame_event_has_ids_of_its_own():
    # The queue's deduplication keys on requestId: two frames must never share one.
    events = [websocket_event("MESSAGE", "0.abc", body="{}") for _ in range(5000)]
    ids = {e["requestContext"]["requestId"] for e in events}
    assert len(ids) == 5000 and all(len(i) == 32 for i in ids)
    assert len({e["requestContext"]["messageId"] for e in events}) == 5000


def test_the_solver_on_the_stack_players_run_prints_no_metrics(tmp_path):
    # Metrics are off on one machine: Powertools printed the Solver's cold start blob
    # on the first request all the same.
    from tests.local.served import Served

    server = Served(tmp_path / "data")
    server.start()
    body = json.dumps({"rules": "crossplay", "rack": "QUIXOTE"}).encode()
    request = urllib.request.Request(server.url + "api/solve", data=body, method="POST")
    with urllib.request.urlopen(request) as response:
        assert response.status == 200
    assert server.stop() == 0
    assert "CloudWatchMetrics" not in server.output and "_aws" not in server.output, server.output
