"""The WebSocket API's ``$connect``: it counts the connection and lets the socket open.

A module of its own so that its cold start imports Powertools' logger and metrics and
nothing else: no rooms, no boto3 (it calls no AWS service), no pydantic. Nothing is
posted from here: API Gateway opens the socket only after this returns; the rooms hear
of a phone at its first frame (``ws.message``). No X-Ray SDK either: with active tracing
Lambda records each invocation itself, and the SDK's handler subsegment would repeat it
at the price of importing the SDK and botocore (docs/performance.md, 2026-12-07).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from crossing.handlers.metering import handler_metrics, metered

logger = Logger()
metrics = handler_metrics()


def _connected(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    # Every log line of this invocation names its connection.
    logger.set_correlation_id(event.get("requestContext", {}).get("connectionId"))
    metrics.add_metric(name="Connections", unit=MetricUnit.Count, value=1)
    return {"statusCode": 200}


handler = logger.inject_lambda_context(metered(metrics, _connected))
