"""With POWERTOOLS_METRICS_DISABLED (the local stack), the handlers print no metric blobs."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit
from crossing.handlers import connect, ws
from crossing.local.events import websocket_event

from tests.handlers.conftest import FakeLambdaContext


def test_with_metrics_off_no_blob_is_ever_printed(monkeypatch, capsys):
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    for _ in range(150):  # Powertools prints at the hundredth value even when disabled
        connect.handler(websocket_event("CONNECT", "c1"), FakeLambdaContext())
    ws._dimensioned("RoomsStarted", MetricUnit.Count, 1, mode="race", size="mini")
    assert "_aws" not in capsys.readouterr().out


def test_with_metrics_on_the_blob_is_printed(monkeypatch, capsys):
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    monkeypatch.delenv("POWERTOOLS_DEV", raising=False)
    connect.handler(websocket_event("CONNECT", "c1"), FakeLambdaContext())
    assert '"Connections":[' in capsys.readouterr().out  # the cloud's metrics still go out
