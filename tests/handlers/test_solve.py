from __future__ import annotations

import json
from typing import Any

import pytest
from crossing.handlers import solve
from crossing.handlers.http import as_sentence

from tests.handlers.conftest import load_event


def call(name: str, context: Any) -> tuple[int, dict[str, Any]]:
    response = solve.handler(load_event(name), context)
    assert response["headers"]["content-type"].startswith("application/json")
    return response["statusCode"], json.loads(response["body"])


def test_quixote_opening_is_the_best_play(context):
    status, body = call("solve_quixote", context)
    assert status == 200
    best = body["plays"][0]
    assert (best["word"], best["row"], best["col"], best["direction"]) == (
        "QUIXOTE",
        8,
        6,
        "across",
    )
    assert best["score"] == 110
    assert {"name": "sweep", "points": 40} in best["breakdown"]["bonuses"]
    scores = [play["score"] for play in body["plays"]]
    assert scores == sorted(scores, reverse=True)


def test_bonus_off_scores_face_value_and_keeps_the_sweep(context):
    status, body = call("solve_quixote_no_bonus", context)
    assert status == 200
    assert len(body["plays"]) <= 5
    # Q10 U2 I1 X8 O1 T1 E1 at face value, plus the 40-point sweep.
    assert body["plays"][0]["score"] == 24 + 40


def test_base64_body_is_decoded(context):
    status, body = call("solve_quixote_base64", context)
    assert status == 200
    assert body["plays"][0]["score"] == 110


@pytest.mark.parametrize(
    ("event", "code", "words"),
    [
        ("solve_bad_json", "bad_json", "not valid JSON"),
        ("solve_no_body", "bad_json", "empty"),
        ("solve_not_object", "invalid_request", "JSON object"),
        ("solve_unknown_rules", "invalid_request", "'rules'"),
        ("solve_missing_rack", "invalid_request", "'rack' is required"),
        ("solve_extra_field", "invalid_request", "'bag' is not part"),
        ("solve_bonus_not_bool", "invalid_request", "'bonus'"),
    ],
)
def test_malformed_requests_get_one_clear_400(context, event, code, words):
    status, body = call(event, context)
    assert status == 400
    assert body["error"]["code"] == code
    message = body["error"]["message"]
    assert words in message
    assert message.endswith(".")
    assert "\n" not in message


def test_a_bad_rack_passes_on_the_engines_message(context):
    status, body = call("solve_bad_rack", context)
    assert status == 400
    assert body["error"]["code"] == "bad_request"
    message = body["error"]["message"]
    assert message[0].isupper()
    assert message.endswith(".")


def test_an_engine_failure_is_a_500_without_details(context, monkeypatch):
    # A fake engine here on purpose: the real one should never crash, and this
    # test is about the handler's mapping of an unexpected error, not about tiles.
    def broken(request: Any, shipped: Any) -> str:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(solve, "solve_text", broken)
    status, body = call("solve_quixote", context)
    assert status == 500
    assert body["error"]["code"] == "internal"
    assert "secret" not in body["error"]["message"]


def test_each_call_emits_one_metric(context, capsys, monkeypatch):
    # The local dev server turns metrics off for the whole process; this test needs them.
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    solve.metrics.clear_metrics()
    solve.handler(load_event("solve_quixote_base64"), context)
    blobs = [json.loads(line) for line in capsys.readouterr().out.splitlines() if "_aws" in line]
    assert len(blobs) == 1
    metric_names = [m["Name"] for m in blobs[0]["_aws"]["CloudWatchMetrics"][0]["Metrics"]]
    assert metric_names == ["Solved"]
    assert blobs[0]["_aws"]["CloudWatchMetrics"][0]["Namespace"] == "CrossingWordsTest"


@pytest.mark.parametrize(
    ("line", "sentence"),
    [
        ("the rack is empty", "The rack is empty."),
        ("bad rack tile '1': use A-Z", "Bad rack tile '1': use A-Z."),
        ("Already a sentence.", "Already a sentence."),
        ("", "The request could not be used."),
    ],
)
def test_engine_lines_become_sentences(line, sentence):
    assert as_sentence(line) == sentence
