"""The cloud's ``$default`` handler answers every frame, whatever its shape: one error,
the invocation succeeds (a failing invocation is API Gateway's 500, and the phone hears
nothing), and a ``ping`` that carries a ``seq`` is acknowledged."""

from __future__ import annotations

import json

import pytest
from crossing.handlers import ws
from crossing.local.events import websocket_event

from tests.handlers.conftest import FakeLambdaContext
from tests.handlers.test_ws_duel import Socket
from tests.handlers.test_ws_duel import cloud as cloud  # the fixture


def frame(socket: Socket, body: str) -> list[dict]:
    event = websocket_event("MESSAGE", socket.id, body=body)
    assert ws.message(event, FakeLambdaContext()) == {"statusCode": 200}
    return socket.take()


@pytest.mark.parametrize(
    "body",
    [
        '{"action":{"a":1},"seq":1}',
        '{"action":["hello"],"seq":1}',
        '{"action":null,"seq":1}',
        '{"action":7,"seq":1}',
        "[1,2]",
        '"hello"',
        "[" * 20000,
        '{"action":"ping","seq":"1"}',
        '{"action":"ping","seq":null}',
    ],
)
def test_a_frame_of_any_shape_gets_one_error(cloud, body):
    phone = Socket()
    phone.send("hello")
    answers = frame(phone, body)
    assert [a["type"] for a in answers] == ["error"]
    assert answers[0]["code"] == "bad-message"


def test_a_ping_with_a_seq_is_acknowledged_and_one_without_is_not(cloud):
    phone = Socket()
    phone.send("hello")
    store = ws.service().store
    asked = sum(store.requests.values())
    assert frame(phone, json.dumps({"action": "ping"})) == []
    assert sum(store.requests.values()) == asked  # nothing read or written for it
    answers = frame(phone, json.dumps({"action": "ping", "seq": 41}))
    assert [(a["type"], a["seq"]) for a in answers] == [("ack", 41)]
