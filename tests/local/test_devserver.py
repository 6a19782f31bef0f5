from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from crossing.local.devserver import http_api_event, running

# Straight to the local server, whatever proxy the environment names.
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def test_events_look_like_api_gateway_http_api_v2():
    event = http_api_event("POST", "/api/solve", {"Content-Type": "application/json"}, b"{}")
    assert event["version"] == "2.0"
    assert event["routeKey"] == "POST /api/solve"
    assert event["requestContext"]["http"]["method"] == "POST"
    assert event["headers"] == {"content-type": "application/json"}
    assert (event["body"], event["isBase64Encoded"]) == ("{}", False)
    assert http_api_event("POST", "/x", {}, b"\xff")["isBase64Encoded"] is True


def test_serves_files_and_routes_the_api(tmp_path):
    (tmp_path / "solver.html").write_text("<h1>Solver</h1>")
    with running(frontend=tmp_path) as url:
        with opener.open(f"{url}/solver.html") as response:
            assert b"Solver" in response.read()
        with opener.open(f"{url}/api/rules") as response:
            assert json.load(response)["rule_sets"][0]["name"] == "crossplay"
        request = urllib.request.Request(f"{url}/api/solve", data=b"{", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(request)
        assert refused.value.code == 400
        assert json.load(refused.value)["error"]["code"] == "bad_json"
        unknown = urllib.request.Request(f"{url}/api/nothing", data=b"{}", method="POST")
        with pytest.raises(urllib.error.HTTPError) as missing:
            opener.open(unknown)
        assert missing.value.code == 404
