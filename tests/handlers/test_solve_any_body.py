"""Whatever body reaches POST /api/solve, the answer is a documented status with a JSON
body: plays, or ``{"error": {"code", "message"}}`` with one sentence (hypothesis over
bodies of every JSON type in every field, deep, huge, and not JSON at all), and the
next request is answered as if it had never come."""

from __future__ import annotations

import base64
import json
from functools import cache
from typing import Any

import pytest
from crossing.handlers import rules, solve
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.handlers.conftest import FakeLambdaContext, load_event
from tests.handlers.solve_bodies import assert_documented, bodies, nested

QUIXOTE = {"rules": "crossplay", "rack": "QUIXOTE", "top": 3}


def post(body: bytes, *, encoded: bool = False) -> tuple[int, dict[str, Any]]:
    """``body`` as API Gateway hands it on: text, or base64 when it is not UTF-8."""
    event = load_event("solve_quixote")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        encoded = True
    event["isBase64Encoded"] = encoded
    event["body"] = base64.b64encode(body).decode() if encoded else text
    response = solve.handler(event, FakeLambdaContext())
    assert response["headers"]["content-type"].startswith("application/json")
    return response["statusCode"], assert_documented(
        response["statusCode"], response["body"].encode()
    )


@cache
def quixote_answer() -> dict[str, Any]:
    status, payload = post(json.dumps(QUIXOTE).encode())
    assert status == 200
    return payload


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=bodies(), encoded=st.booleans())
def test_any_body_gets_a_documented_json_answer_and_changes_nothing(body, encoded):
    status, payload = post(body, encoded=encoded)
    # What each body met, for --hypothesis-show-statistics.
    event(f"{status} {payload.get('error', {}).get('code', 'plays')}")
    assert status in (200, 400)  # the engine never fails on what the shape check let in
    assert post(json.dumps(QUIXOTE).encode()) == (200, quixote_answer())


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 30_000,
        nested(30_000).encode(),
        b'{"rules": "crossplay", "rack": "CAT", "words": ' + nested(10_000).encode() + b"}",
        b'{"a":' * 5_000,
    ],
)
def test_deep_nesting_is_refused_as_bad_json_before_it_is_parsed_deep(body):
    status, payload = post(body)
    assert (status, payload["error"]["code"]) == (400, "bad_json")
    assert "nested too deeply" in payload["error"]["message"]


@pytest.mark.parametrize(
    ("body", "encoded", "words"),
    [
        (b"not base64 at all!", True, "not valid JSON"),
        (b'{"rules": "crossplay", "rack": "' + b"A" * 70_000 + b'"}', False, "larger than 64 KB"),
        (b'{"rules": "crossplay", "rack": "' + b"A" * 70_000 + b'"}', True, "larger than 64 KB"),
        (b"NaN", False, "not valid JSON"),
        (b'{"rules": "crossplay", "rack": "\\ud800"}', False, "not valid JSON"),
    ],
)
def test_a_body_that_is_not_a_json_document_is_bad_json(body, encoded, words):
    event = load_event("solve_quixote")
    event["isBase64Encoded"] = encoded
    readable = not encoded or body.startswith(b"not")  # the first: base64 that is not
    event["body"] = body.decode() if readable else base64.b64encode(body).decode()
    response = solve.handler(event, FakeLambdaContext())
    payload = assert_documented(response["statusCode"], response["body"].encode())
    assert (response["statusCode"], payload["error"]["code"]) == (400, "bad_json")
    assert words in payload["error"]["message"]


@pytest.mark.parametrize(
    ("body", "field", "sentence"),
    [
        ({"rules": 7, "rack": "A"}, "rules", "one of crossplay, scrabble, wwf, duel"),
        ({"rules": "duel", "rack": ["A"]}, "rack", "text of letters A-Z, ? for a blank"),
        ({"rules": "duel", "rack": "A", "top": True}, "top", "a whole number from 1 to 1000"),
        ({"rules": "duel", "rack": "A", "all": "yes"}, "all", "true or false"),
        ({"rules": "duel", "rack": "A", "board": [1]}, "board", "a list of 15 rows"),
        ({"rules": "duel", "rack": "A", "play": []}, "play", "an object with row, col"),
        (
            {"rules": "duel", "rack": "A", "play": {"row": 0, "col": 1, "direction": "down"}},
            "play.row",
            "a whole number from 1 to 15",
        ),
        (
            {"rules": "duel", "rack": "A", "play": {"row": 1, "col": 1, "direction": "up"}},
            "play.direction",
            "across or down",
        ),
    ],
)
def test_a_wrong_type_names_its_field_and_what_it_must_be(body, field, sentence):
    status, payload = post(json.dumps(body).encode())
    assert (status, payload["error"]["code"]) == (400, "invalid_request")
    assert payload["error"]["message"].startswith(f"The field '{field}' must be {sentence}")


def test_an_unexpected_failure_anywhere_still_answers_json(monkeypatch):
    def overflow(data: Any) -> Any:
        raise RecursionError("deep inside")

    monkeypatch.setattr(solve, "read_request", overflow)
    status, payload = post(json.dumps(QUIXOTE).encode())
    assert (status, payload["error"]["code"]) == (500, "internal")
    assert "deep inside" not in payload["error"]["message"]


def test_the_rules_route_answers_json_when_it_fails(monkeypatch):
    def broken() -> Any:
        raise RuntimeError("no rules")

    monkeypatch.setattr(rules, "rules_payload", broken)
    response = rules.handler(load_event("rules_get"), FakeLambdaContext())
    assert response["statusCode"] == 500
    assert json.loads(response["body"])["error"]["code"] == "internal"
