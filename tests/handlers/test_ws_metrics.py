"""The WebSocket handlers count the game's own figures for the operators' dashboard."""

import io
import json

import pytest
from crossing.handlers import ws
from crossing.rooms.service import Sent

from tests.handlers.conftest import FakeLambdaContext as FakeContext


def emf_blobs(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if '"_aws"' in line]


def values(blob: dict, name: str) -> list[float]:
    value = blob[name]
    return value if isinstance(value, list) else [value]


class NoReports:
    def take_reports(self):
        return []


def test_game_figures_go_out_with_their_dimensions(capsys, monkeypatch):
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    ws._count_game(Sent(7, True, ("together", "large"), "together", 3, 250))
    blobs = emf_blobs(capsys.readouterr().out)
    by_name = {b["_aws"]["CloudWatchMetrics"][0]["Metrics"][0]["Name"]: b for b in blobs}
    assert by_name["RoomsStarted"]["mode"] == "together"
    assert by_name["RoomsStarted"]["size"] == "large"
    assert by_name["Checks"]["mode"] == "together"
    assert values(by_name["BotActions"], "BotActions") == [3.0]
    assert "TimerLateness" not in by_name  # only the timer handler reports lateness


def test_duel_figures_go_out_too(capsys, monkeypatch):
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    ws._count_game(Sent(9, True, duel_finished="time", duel_moves=2, duel_bot_moves=1))
    ws._count_game(Sent(1, True, duel_started="bot"))
    blobs = emf_blobs(capsys.readouterr().out)
    by_name = {}
    for blob in blobs:
        by_name.setdefault(blob["_aws"]["CloudWatchMetrics"][0]["Metrics"][0]["Name"], blob)
    assert values(by_name["DuelGamesStarted"], "DuelGamesStarted") == [1.0]
    assert values(by_name["DuelGamesFinished"], "DuelGamesFinished") == [1.0]
    assert values(by_name["DuelMoves"], "DuelMoves") == [2.0]
    assert by_name["BotActions"]["game"] == "duel"
    assert by_name["DuelMoves"]["service"]  # the dimension set the dashboard graphs


def test_the_timer_handler_reports_how_late_it_applied(capsys, monkeypatch):
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")

    class Late(NoReports):
        def timer(self, room, version):
            return Sent(4, True, late_ms=250)

    monkeypatch.setattr(ws, "_service", Late())
    assert ws.timer({"room": "ABCDEF", "version": 3}, FakeContext()) == {"applied": True}
    blob = next(b for b in emf_blobs(capsys.readouterr().out) if "TimerLateness" in b)
    assert values(blob, "TimerLateness") == [250.0]


def test_nothing_is_counted_for_a_write_that_started_nothing(capsys, monkeypatch):
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    ws.metrics.clear_metrics()
    ws._count_game(Sent(3, True))
    assert emf_blobs(capsys.readouterr().out) == []


def test_posts_gone_failed_and_refusals_by_code_are_counted_per_event(capsys, monkeypatch):
    from botocore.exceptions import ClientError
    from crossing.aws.gateway import ApiGatewayConnections

    class Client:
        def post_to_connection(self, ConnectionId, Data):
            if ConnectionId == "gone":
                raise ClientError({"Error": {"Code": "GoneException"}}, "PostToConnection")
            if ConnectionId == "broken":
                raise ClientError({"Error": {"Code": "InternalServerError"}}, "PostToConnection")

    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    connections = ApiGatewayConnections("https://example", client=Client())
    monkeypatch.setattr(ws, "_connections", connections)
    connections.send("a", {"type": "room"})
    connections.send("a", {"type": "error", "code": "busy"})
    connections.send("a", {"type": "error", "code": "not-host"})
    assert connections.send("gone", {"type": "room"}) is False
    with pytest.raises(ClientError):
        connections.send("broken", {"type": "room"})
    ws.metrics.clear_metrics()
    ws._count_posts()
    ws.metrics.flush_metrics()
    blobs = emf_blobs(capsys.readouterr().out)
    shared = next(b for b in blobs if "Posts" in b)
    counted = [values(shared, n) for n in ("Posts", "PostsGone", "PostsFailed")]
    assert counted == [[3.0], [1.0], [1.0]]
    refusals = {b["code"]: values(b, "Refusals") for b in blobs if "Refusals" in b}
    assert refusals == {"busy": [1.0], "other": [1.0]}
    assert not connections.posts and not connections.refusals  # the next event starts at 0


@pytest.mark.parametrize("body", ["[" * 5000 + "]" * 5000, b"\x00\xffbinary"])
def test_a_frame_nested_past_the_parser_or_binary_reaches_the_service(monkeypatch, body):
    """Naming the action for the logs must not choke on what the service answers."""
    from crossing.local.events import websocket_event

    seen = []

    class Recording(NoReports):
        def receive(self, connection, frame, *, binary=False, arrived=None, request=None, **_):
            seen.append(binary)
            return Sent()

    monkeypatch.setattr(ws, "_service", Recording())
    event = websocket_event("MESSAGE", "deep1=", body=body)
    assert ws.message(event, FakeContext()) == {"statusCode": 200}
    assert seen == [isinstance(body, bytes)]


def test_the_consumer_times_each_frame_from_its_arrival_and_counts_letters(capsys, monkeypatch):
    from crossing.aws.queue import encode
    from crossing.rooms.ports import Queued

    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    now = ws.time.time_ns() // 1_000_000

    class Consumer(NoReports):
        def consume(self, frames, **options):
            return [Sent(2, True, action="type"), None]  # the second frame's write failed

    monkeypatch.setattr(ws, "_service", Consumer())
    typed = json.dumps({"action": "type", "seq": 1, "square": 0, "letter": "a"})
    records = [
        {"messageId": f"m{i}", "body": encode(Queued("c1", "ROOM01", "p1", typed, now - 400))}
        for i in (1, 2)
    ]
    answer = ws.consume({"Records": records}, FakeContext())
    assert answer == {"batchItemFailures": [{"itemIdentifier": "m2"}]}
    blobs = emf_blobs(capsys.readouterr().out)
    latency = next(b for b in blobs if "ActionLatency" in b)
    assert latency["action"] == "type" and values(latency, "ActionLatency")[0] >= 400
    shared = next(b for b in blobs if "LettersTyped" in b)
    assert values(shared, "LettersTyped") == [1.0]
    assert values(shared, "FramesApplied") == [1.0]  # the one handed back is not
    assert values(shared, "FramesFailed") == [1.0]


def test_what_a_frame_logs_names_its_connection(monkeypatch):
    # The dashboards' Logs Insights queries follow one phone by its connection id.
    class Logs(NoReports):
        def receive(self, connection, body, **options):
            ws.logger.warning("a frame arrived")
            return Sent(1)

    monkeypatch.setattr(ws, "_service", Logs())
    out = io.StringIO()
    [handler] = ws.logger.handlers
    monkeypatch.setattr(handler, "stream", out)  # it keeps the stdout it was made with
    event = {"requestContext": {"connectionId": "abc123="}, "body": '{"action": "undo"}'}
    ws.message(event, FakeContext())
    lines = [json.loads(x) for x in out.getvalue().splitlines() if "a frame" in x]
    assert lines and lines[0]["correlation_id"] == "abc123="
