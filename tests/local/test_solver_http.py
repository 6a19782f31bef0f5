"""The Solver's routes on the stack players run (``crossing serve``): any body gets the
documented JSON answer, as from the Lambda handler, and the server keeps serving."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings

from tests.handlers.solve_bodies import assert_documented, bodies

QUIXOTE = json.dumps({"rules": "crossplay", "rack": "QUIXOTE", "top": 1}).encode()


def post(url: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(url + "api/solve", data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, data, kind = response.status, response.read(), response.headers
    except urllib.error.HTTPError as refused:
        status, data, kind = refused.code, refused.read(), refused.headers
    assert kind["content-type"].startswith("application/json")
    return status, assert_documented(status, data)


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=bodies())
def test_any_body_gets_a_documented_json_answer(served, body):
    status, _ = post(served.url, body)
    assert status in (200, 400)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[" * 30_000, "nested too deeply"),
        (b"{" * 100_000, "larger than 64 KB"),
        (b'{"rules": "crossplay", "rack": "' + b"A" * 3_000_000 + b'"}', "larger than 64 KB"),
        (b"\xff\xfe{}", "not valid JSON"),
    ],
)
def test_a_deep_or_huge_body_is_refused_and_the_solver_still_answers(served, body, words):
    status, payload = post(served.url, body)
    assert (status, payload["error"]["code"]) == (400, "bad_json")
    assert words in payload["error"]["message"]
    status, payload = post(served.url, QUIXOTE)
    assert (status, payload["plays"][0]["score"]) == (200, 110)
