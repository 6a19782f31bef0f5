"""API Gateway access logs: one JSON line per request into a log group of the API's own."""

from __future__ import annotations

import json
from collections.abc import Mapping

import jsii
from aws_cdk import RemovalPolicy
from aws_cdk import aws_apigateway as apigw_v1
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_logs as logs
from constructs import Construct

WEBSOCKET_FIELDS = {
    "requestId": "$context.requestId",
    "connectionId": "$context.connectionId",
    "eventType": "$context.eventType",
    "routeKey": "$context.routeKey",
    "status": "$context.status",
    "integrationLatency": "$context.integrationLatency",
    "error": "$context.error.message",
    "integrationError": "$context.integration.error",
}
"""What on-call needs to follow one frame: its connection, route, status and latency."""
HTTP_FIELDS = {
    "requestId": "$context.requestId",
    "routeKey": "$context.routeKey",
    "status": "$context.status",
    "responseLatency": "$context.responseLatency",
    "integrationLatency": "$context.integrationLatency",
    "error": "$context.error.message",
    "integrationError": "$context.integrationErrorMessage",
}


@jsii.implements(apigw.IAccessLogSettings)
class _Settings:
    def __init__(self, destination: apigw.IAccessLogDestination, format: str) -> None:
        self._destination = destination
        self._format = apigw_v1.AccessLogFormat.custom(format)

    @property
    def destination(self) -> apigw.IAccessLogDestination:
        return self._destination

    @property
    def format(self) -> apigw_v1.AccessLogFormat:
        return self._format


def access_logs(
    scope: Construct,
    id: str,
    fields: Mapping[str, str],
    *,
    retention: logs.RetentionDays,
    removal_policy: RemovalPolicy,
) -> apigw.IAccessLogSettings:
    group = logs.LogGroup(scope, id, retention=retention, removal_policy=removal_policy)
    return _Settings(apigw.LogGroupLogDestination(group), json.dumps(dict(fields)))
